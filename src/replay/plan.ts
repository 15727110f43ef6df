// What the replay needs of each request that no pipeline setting can change: its input view, how it relates
// to the previous input (append or reset), the appended messages, the counted recorded input, and the static
// prefix (tools and system: keys and tokens). Computed once per thread, mode, meter and calibration and
// reused by every re-run, so a threshold change spends its time on the pipeline alone (SPEC §9).

import { hashKey } from '../lib/hash.ts';
import type { Message, Thread } from '../model/transcript.ts';
import { singleCategory } from '../pipeline/categories.ts';
import { safeJson } from '../tokens/block-text.ts';
import { type Calibration, prefixTokens as prefixTokensOf } from '../tokens/calibration.ts';
import type { ReplayCache } from './cache.ts';
import { InputBuilder, type InputView, inputDelta, type ReplayMode } from './inputs.ts';
import type { RequestPlan } from './types.ts';

export type { RequestPlan } from './types.ts';

/** Hash of a prefix part (tools, system), kept per array object (cache.contentKeys): requests share them by
 *  reference. */
function contentKey(keys: WeakMap<object, string>, part: readonly unknown[] | undefined): string {
  if (!part) return hashKey('[]');
  let k = keys.get(part);
  if (k === undefined) {
    k = hashKey(safeJson(part));
    keys.set(part, k);
  }
  return k;
}

/** The plans of `thread`'s requests after `earlier` (the plans of its first requests, made before). */
function build(
  thread: Thread,
  mode: ReplayMode,
  cache: ReplayCache,
  calibration: Calibration,
  earlier: readonly RequestPlan[] = [],
): RequestPlan[] {
  const { meter, pipeline } = cache;
  const inputs = new InputBuilder(thread, mode);
  const ids = pipeline.toolIds.of(thread);
  // Result categories name the tool of the id's first call in the whole thread.
  const nameOf = (id: string) => ids.name(id);
  const out: RequestPlan[] = earlier.slice();
  let prev: InputView | undefined = earlier.at(-1)?.view;
  let rawInputTokens = earlier.at(-1)?.rawInputTokens ?? 0;
  for (let i = earlier.length; i < thread.requests.length; i++) {
    const r = thread.requests[i];
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
    const cats = messages.map((m) => pipeline.categories.of(m, nameOf));
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
        runes: messages.map((m) => pipeline.runes.message(m)),
        refs: messages.map((m) => ids.refsOf(m)),
      },
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
  earlier?: readonly RequestPlan[],
): readonly RequestPlan[] {
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
