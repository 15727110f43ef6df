// What the replay needs of each request that no pipeline setting can change: its input view, how it relates
// to the previous input (append or reset), the appended messages, the counted recorded input, and the static
// prefix (tools and system: keys and tokens). Computed once per thread, mode, meter and calibration and
// reused by every re-run, so a threshold change spends its time on the pipeline alone (SPEC §9).

import { hashKey } from '../lib/hash.ts';
import type { Message, Thread } from '../model/transcript.ts';
import { type MessageCategories, singleCategory } from '../pipeline/categories.ts';
import type { BlockRefs } from '../pipeline/tool-ids.ts';
import type { KnownMessages } from '../pipeline/working.ts';
import { safeJson } from '../tokens/block-text.ts';
import { type Calibration, prefixTokens as prefixTokensOf } from '../tokens/calibration.ts';
import type { ReplayCache } from './cache.ts';
import { InputBuilder, type InputView, inputDelta, type ReplayMode } from './inputs.ts';
import { PlanColumns } from './plan-columns.ts';

/** The key of an absent part (one string for every request without one: it is held by each plan and replay). */
const NO_PART = hashKey('[]');

/** Hash of a prefix part (tools, system), kept per array object (cache.contentKeys): requests share them by
 *  reference. */
function contentKey(keys: WeakMap<object, string>, part: readonly unknown[] | undefined): string {
  if (!part) return NO_PART;
  let k = keys.get(part);
  if (k === undefined) {
    k = hashKey(safeJson(part));
    keys.set(part, k);
  }
  return k;
}

/** The known table of `array` (one per input array: the thread's messages, a raw-mode history, a request log's
 *  exact input), made on first use; `filled` marks the positions computed so far. */
type Table = { known: KnownMessages; filled: Uint8Array };

function tableOf(tables: Map<readonly Message[], Table>, array: readonly Message[]): Table {
  let t = tables.get(array);
  if (!t) {
    const n = array.length;
    const known: KnownMessages = {
      tokens: new Array(n),
      cats: new Array(n),
      single: new Int32Array(n),
      runes: new Array(n),
      refs: new Array(n),
    };
    t = { known, filled: new Uint8Array(n) };
    tables.set(array, t);
  }
  return t;
}

/** The plans of `thread`'s requests after those of `earlier` (the plans of its first requests, made before). */
function build(
  thread: Thread,
  mode: ReplayMode,
  cache: ReplayCache,
  calibration: Calibration,
  earlier?: PlanColumns,
): PlanColumns {
  const { meter, pipeline } = cache;
  const inputs = new InputBuilder(thread, mode);
  const ids = pipeline.toolIds.of(thread);
  // Result categories name the tool of the id's first call in the whole thread.
  const nameOf = (id: string) => ids.name(id);
  const tables = new Map<readonly Message[], Table>();
  /** Tokens of positions [from, to) of `array`, each position's facts computed once into its table. */
  const know = (array: readonly Message[], from: number, to: number): { known: KnownMessages; tokens: number } => {
    const { known, filled } = tableOf(tables, array);
    let tokens = 0;
    for (let i = from; i < to; i++) {
      if (filled[i] === 0) {
        const m = array[i];
        filled[i] = 1;
        known.tokens[i] = meter.message(m);
        const cats = pipeline.categories.of(m, nameOf);
        (known.cats as MessageCategories[])[i] = cats;
        known.single[i] = singleCategory(cats);
        known.runes[i] = pipeline.runes.message(m);
        (known.refs as BlockRefs[])[i] = ids.refsOf(m);
      }
      tokens += known.tokens[i];
    }
    return { known, tokens };
  };
  const out = new PlanColumns(thread.requests, earlier);
  const last = earlier && earlier.length > 0 ? earlier.at(earlier.length - 1) : undefined;
  let prev: InputView | undefined = last?.view;
  let rawInputTokens = last?.rawInputTokens ?? 0;
  for (let k = earlier?.length ?? 0; k < thread.requests.length; k++) {
    const r = thread.requests[k];
    const view = inputs.view(r);
    const delta = inputDelta(prev, view, r.boundary === 'agent-compaction');
    const from = delta.kind === 'append' ? view.start + delta.from : view.start;
    const { known, tokens } = know(view.array, from, view.end);
    rawInputTokens = delta.kind === 'append' ? rawInputTokens + tokens : tokens;
    const prefix = r.exactPrefix ?? thread.prefix;
    let toolsTokens = 0;
    for (const t of prefix.tools ?? []) toolsTokens += meter.tool(t);
    out.set(k, {
      view,
      delta,
      from,
      known,
      rawInputTokens,
      toolsKey: contentKey(cache.contentKeys, prefix.tools),
      systemKey: contentKey(cache.contentKeys, prefix.system),
      toolsTokens,
      staticTokens: calibration.prefixSource === 'counted' ? prefixTokensOf(meter, prefix) : calibration.prefixTokens,
    });
    prev = view;
  }
  return out;
}

/** The plan of every request of `thread` (kept in cache.plans per mode, for the calibration it was made with).
 *  `earlier`: the plans of its first requests as an earlier read of the thread had them, when they hold for this
 *  one (resume.ts checks it: the same requests over the same messages, the same calibration of them); only the
 *  plans after them are made. */
export function threadPlan(
  thread: Thread,
  mode: ReplayMode,
  cache: ReplayCache,
  calibration: Calibration,
  earlier?: PlanColumns,
): PlanColumns {
  let byMode = cache.plans.get(thread);
  if (!byMode) {
    byMode = new Map();
    cache.plans.set(thread, byMode);
  }
  let hit = byMode.get(mode);
  if (!hit || hit.calibration !== calibration) {
    hit = { calibration, plans: build(thread, mode, cache, calibration, earlier) };
    byMode.set(mode, hit);
  }
  return hit.plans;
}
