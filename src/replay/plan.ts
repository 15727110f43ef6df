// What the replay needs of each request that no pipeline setting can change: its input view, how it relates
// to the previous input (append or reset), the appended messages, the counted recorded input, and the static
// prefix (tools and system: keys and tokens). Computed once per thread, mode, meter and calibration and
// reused by every re-run, so a threshold change spends its time on the pipeline alone (SPEC §9).

import { hashKey } from '../lib/hash.ts';
import type { Message, Request, Thread } from '../model/transcript.ts';
import type { PairingViolation } from '../pairing/types.ts';
import { type MessageCategories, singleCategory } from '../pipeline/categories.ts';
import type { BlockRefs } from '../pipeline/tool-ids.ts';
import type { KnownMessages } from '../pipeline/working.ts';
import { safeJson } from '../tokens/block-text.ts';
import { type Calibration, prefixTokens as prefixTokensOf } from '../tokens/calibration.ts';
import type { ReplayCache } from './cache.ts';
import { InputBuilder, type InputDelta, type InputView, inputDelta, type ReplayMode } from './inputs.ts';
import type { RequestPlan } from './types.ts';

export type { RequestPlan } from './types.ts';

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
      tokens: new Float64Array(n),
      cats: new Array(n),
      single: new Int32Array(n),
      runes: new Float64Array(n),
      refs: new Array(n),
    };
    t = { known, filled: new Uint8Array(n) };
    tables.set(array, t);
  }
  return t;
}

/**
 * The plans of a thread's requests in columns, by request index: a plan is read as an object (`at`) but kept as a
 * few numbers and references per request (plan objects with their view and delta weighed ~0.25 KB a request). The
 * recorded input's pairing checks are kept here too, by key (`check`, `keepCheck`).
 */
export class PlanColumns {
  readonly length: number;
  private readonly arrays: (readonly Message[])[];
  private readonly start: Int32Array;
  private readonly end: Int32Array;
  private readonly exact: Uint8Array;
  /** Deltas that are resets (the first request, compactions), by request; the others append from `appendFrom`. */
  private readonly resets = new Map<number, Extract<InputDelta, { kind: 'reset' }>>();
  private readonly appendFrom: Int32Array;
  private readonly from: Int32Array;
  private readonly knowns: KnownMessages[];
  private readonly rawInputTokens: Float64Array;
  private readonly toolsKeys: string[];
  private readonly systemKeys: string[];
  private readonly toolsTokens: Float64Array;
  private readonly staticTokens: Float64Array;
  /** Check key → by request: what the recorded input's check found (the shared empty list when nothing). */
  private readonly checks = new Map<string, (PairingViolation[] | undefined)[]>();

  constructor(private readonly requests: readonly Request[]) {
    const n = requests.length;
    this.length = n;
    this.arrays = new Array(n);
    this.start = new Int32Array(n);
    this.end = new Int32Array(n);
    this.exact = new Uint8Array(n);
    this.appendFrom = new Int32Array(n);
    this.from = new Int32Array(n);
    this.knowns = new Array(n);
    this.rawInputTokens = new Float64Array(n);
    this.toolsKeys = new Array(n);
    this.systemKeys = new Array(n);
    this.toolsTokens = new Float64Array(n);
    this.staticTokens = new Float64Array(n);
  }

  set(k: number, p: Omit<RequestPlan, 'request'>): void {
    this.arrays[k] = p.view.array;
    this.start[k] = p.view.start;
    this.end[k] = p.view.end;
    this.exact[k] = p.view.exact ? 1 : 0;
    if (p.delta.kind === 'reset') this.resets.set(k, p.delta);
    else this.appendFrom[k] = p.delta.from;
    this.from[k] = p.from;
    this.knowns[k] = p.known;
    this.rawInputTokens[k] = p.rawInputTokens;
    this.toolsKeys[k] = p.toolsKey;
    this.systemKeys[k] = p.systemKey;
    this.toolsTokens[k] = p.toolsTokens;
    this.staticTokens[k] = p.staticTokens;
  }

  /** The plan of request `k`, made now. */
  at(k: number): RequestPlan {
    return {
      request: this.requests[k],
      view: { array: this.arrays[k], start: this.start[k], end: this.end[k], exact: this.exact[k] === 1 },
      delta: this.resets.get(k) ?? { kind: 'append', from: this.appendFrom[k] },
      from: this.from[k],
      known: this.knowns[k],
      rawInputTokens: this.rawInputTokens[k],
      toolsKey: this.toolsKeys[k],
      systemKey: this.systemKeys[k],
      toolsTokens: this.toolsTokens[k],
      staticTokens: this.staticTokens[k],
    };
  }

  /** What request `k`'s recorded input check under `key` found, if it was made. */
  check(k: number, key: string): PairingViolation[] | undefined {
    return this.checks.get(key)?.[k];
  }

  /** Keep what request `k`'s check under `key` found (a check that found nothing as `none`, a shared empty list). */
  keepCheck(k: number, key: string, found: PairingViolation[], none: PairingViolation[]): PairingViolation[] {
    let column = this.checks.get(key);
    if (!column) {
      column = new Array(this.length);
      this.checks.set(key, column);
    }
    const kept = found.length === 0 ? none : found;
    column[k] = kept;
    return kept;
  }
}

function build(thread: Thread, mode: ReplayMode, cache: ReplayCache, calibration: Calibration): PlanColumns {
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
  const out = new PlanColumns(thread.requests);
  let prev: InputView | undefined;
  let rawInputTokens = 0;
  for (let k = 0; k < thread.requests.length; k++) {
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

/** The plan of every request of `thread` (kept in cache.plans per mode, for the calibration it was made with). */
export function threadPlan(
  thread: Thread,
  mode: ReplayMode,
  cache: ReplayCache,
  calibration: Calibration,
): PlanColumns {
  let byMode = cache.plans.get(thread);
  if (!byMode) {
    byMode = new Map();
    cache.plans.set(thread, byMode);
  }
  let hit = byMode.get(mode);
  if (!hit || hit.calibration !== calibration) {
    hit = { calibration, plans: build(thread, mode, cache, calibration) };
    byMode.set(mode, hit);
  }
  return hit.plans;
}
