// What the replay needs of each request that no pipeline setting can change: its input view, how it relates
// to the previous input (append or reset), the appended messages, the counted recorded input, and the static
// prefix (tools and system: keys and tokens). Computed once per thread, mode, meter and calibration and
// reused by every re-run, so a threshold change spends its time on the pipeline alone (SPEC §9).

import type { PairingViolation } from '../analyses/pairing.ts';
import { hashKey } from '../lib/hash.ts';
import { getOrInsert, newList, newWeakMap } from '../lib/maps.ts';
import type { Message, Request, Thread } from '../model/transcript.ts';
import { messageCategories, singleCategory } from '../pipeline/categories.ts';
import { toolIdsOf } from '../pipeline/tool-ids.ts';
import type { KnownMessages } from '../pipeline/working.ts';
import { messageRunes, safeJson } from '../tokens/block-text.ts';
import { type Calibration, prefixTokens as prefixTokensOf } from '../tokens/calibration.ts';
import type { TokenMeter } from '../tokens/meter.ts';
import { InputBuilder, type InputDelta, type InputView, inputDelta, type ReplayMode } from './inputs.ts';

export type RequestPlan = {
  request: Request;
  view: InputView;
  delta: InputDelta;
  /** The messages this request appends (append), or its whole input (reset). */
  messages: readonly Message[];
  /** Their counted tokens, runes, token categories and tool id numbers (appending them costs no lookups). */
  known: KnownMessages;
  /** Counted tokens of the recorded input's messages. */
  rawInputTokens: number;
  toolsKey: string;
  systemKey: string;
  toolsTokens: number;
  /** Static prefix tokens as the calibration has them (counted, or inferred from usage). */
  staticTokens: number;
  /** Pairing checks of the recorded input by provider and kind, kept by the replay on first use (the input
   *  does not depend on the config: a re-run validates only what the pipeline changed). */
  checks?: Map<string, PairingViolation[]>;
};

const keys = new WeakMap<object, string>();

/** Hash of a prefix part (tools, system), memoized per array object: requests share them by reference. */
function contentKey(part: readonly unknown[] | undefined): string {
  if (!part) return hashKey('[]');
  let k = keys.get(part);
  if (k === undefined) {
    k = hashKey(safeJson(part));
    keys.set(part, k);
  }
  return k;
}

type Cached = { mode: ReplayMode; calibration: Calibration; plans: RequestPlan[] };
const cache = new WeakMap<Thread, WeakMap<TokenMeter, Cached[]>>();

function build(thread: Thread, mode: ReplayMode, meter: TokenMeter, calibration: Calibration): RequestPlan[] {
  const inputs = new InputBuilder(thread, mode);
  const ids = toolIdsOf(thread);
  // Result categories name the tool of the id's first call in the whole thread.
  const nameOf = (id: string) => ids.name(id);
  const out: RequestPlan[] = [];
  let prev: InputView | undefined;
  let rawInputTokens = 0;
  for (const r of thread.requests) {
    const view = inputs.view(r);
    const delta = inputDelta(prev, view, r.boundary === 'agent-compaction');
    let messages: Message[];
    if (delta.kind === 'append') {
      messages = view.array.slice(view.start + delta.from, view.end);
      rawInputTokens += meter.messages(messages);
    } else {
      messages = view.array.slice(view.start, view.end);
      rawInputTokens = meter.messages(messages);
    }
    const cats = messages.map((m) => messageCategories(meter, m, nameOf));
    const prefix = r.exactPrefix ?? thread.prefix;
    let toolsTokens = 0;
    for (const t of prefix.tools ?? []) toolsTokens += meter.tool(t);
    out.push({
      request: r,
      view,
      delta,
      messages,
      known: {
        tokens: messages.map((m) => meter.message(m)),
        cats,
        single: cats.map(singleCategory),
        runes: messages.map(messageRunes),
        refs: messages.map((m) => ids.refsOf(m)),
      },
      rawInputTokens,
      toolsKey: contentKey(prefix.tools),
      systemKey: contentKey(prefix.system),
      toolsTokens,
      staticTokens: calibration.prefixSource === 'counted' ? prefixTokensOf(meter, prefix) : calibration.prefixTokens,
    });
    prev = view;
  }
  return out;
}

/** The plan of every request of `thread` (cached while the thread, meter and calibration live). */
export function threadPlan(
  thread: Thread,
  mode: ReplayMode,
  meter: TokenMeter,
  calibration: Calibration,
): readonly RequestPlan[] {
  const list = getOrInsert(getOrInsert(cache, thread, newWeakMap<TokenMeter, Cached[]>), meter, newList<Cached>);
  let hit = list.find((c) => c.mode === mode && c.calibration === calibration);
  if (!hit) {
    hit = { mode, calibration, plans: build(thread, mode, meter, calibration) };
    list.push(hit);
    if (list.length > 4) list.shift();
  }
  return hit.plans;
}
