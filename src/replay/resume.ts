// A followed session's thread that grew goes on from where its last replay stopped instead of from request 0
// (issue 18): the replay of a request depends only on the state after the requests before it, their plans and
// calibration, the settings and the run's memos (all value-deterministic), so when the grown thread's first
// requests are those the run replayed, over the same messages and calibrated the same, replaying only the new
// requests from the kept state gives what a replay from request 0 gives (test/worker/follow-grow.test.ts). When
// the appended lines changed anything an earlier request read, whyNotResume says what, and the thread is
// replayed from request 0.
import { sameValue } from '../model/carry-over.ts';
import type { Thread } from '../model/transcript.ts';
import type { ToolIds } from '../pipeline/tool-ids.ts';
import type { Calibration } from '../tokens/calibration.ts';
import type { PlanColumns } from './plan-columns.ts';
import type { ReplayOptions, ThreadReplay, ThreadRun } from './types.ts';

/** A thread's replay kept running after a run (ReplayCache.live), with what it was made from. */
export type LiveReplay = {
  /** The read of the thread whose every request the run replayed. */
  thread: Thread;
  calibration: Calibration;
  plans: PlanColumns;
  run: ThreadRun;
  /** What the run replayed, read out when it stopped. */
  replay: ThreadReplay;
  mode: ReplayOptions['mode'];
  provider: ReplayOptions['provider'];
  summarizer: ReplayOptions['summarizer'];
  /** The config as JSON (every key, not only those read: the kept state holds the config it was made with). */
  config: string;
  /** The thread's tool id table the run's working history numbers ids with. */
  ids: ToolIds | undefined;
};

/** Why `live` cannot go on with `next` (a later read of its thread) under `opts` and `calibration`, or null. */
export function whyNotResume(
  live: LiveReplay,
  next: Thread,
  opts: ReplayOptions,
  calibration: Calibration,
  ids: ToolIds | undefined,
): string | null {
  const prev = live.thread;
  const k = prev.requests.length;
  // An http summarizer's answers arrive between runs: its replays are never kept.
  if (opts.summarizer.id === 'http') return 'http summarizer';
  if (opts.mode !== live.mode || opts.provider !== live.provider || opts.summarizer !== live.summarizer)
    return 'mode, provider or summarizer changed';
  if (JSON.stringify(opts.config) !== live.config) return 'config changed';
  // The working history numbers tool ids with the earlier read's table, which the grown thread must share
  // (replay/cache.ts carries: shared only when the grown thread names every earlier id as before).
  if (ids === undefined || ids !== live.ids) return 'tool id table not shared';
  if (next.prefix !== prev.prefix) return 'static prefix changed'; // the plans' tools and system keys and tokens
  if (next.requests.length < k) return 'fewer requests';
  // The appended lines rewrote an earlier request's input (a rewound branch, a request log's rewritten input).
  // A response written over several lines changes its request's response time and usage, not its input.
  for (let i = 0; i < k; i++) {
    const a = prev.requests[i];
    const b = next.requests[i];
    // The working history and the stages' state depend on a request through its plan (its input, its kind)
    // alone; its times and model are only copied into its own replay (ThreadRun.grown copies them again).
    if (
      a !== b &&
      (a.index !== b.index ||
        a.inputEnd !== b.inputEnd ||
        a.boundary !== b.boundary ||
        !sameValue(a.exactInput, b.exactInput) ||
        !sameValue(a.exactPrefix, b.exactPrefix))
    )
      return `request ${i} changed`;
  }
  // The messages the earlier requests' inputs hold (a tool_result appended later sits after them; a response
  // written over several lines is after its own request's input).
  let end = 0;
  for (let i = 0; i < k; i++) end = Math.max(end, prev.requests[i].inputEnd);
  if (next.messages.length < end) return 'fewer messages';
  for (let i = 0; i < end; i++) if (next.messages[i] !== prev.messages[i]) return `message ${i} changed`;
  // Which request produced a message (summaries tag what they fold with it) must stay what it was for the
  // messages already replayed: true while the requests' inputs only grow.
  for (let i = 1; i < next.requests.length; i++)
    if (next.requests[i].inputEnd < next.requests[i - 1].inputEnd) return 'requests out of order';
  // The factor is fitted over all of the thread's usage, and a request's estimate can lean on a later one's.
  const was = live.calibration;
  if (calibration !== was) {
    if (
      calibration.factor !== was.factor ||
      calibration.prefixSource !== was.prefixSource ||
      calibration.prefixTokens !== was.prefixTokens
    )
      return 'calibration factor or prefix changed';
    for (let i = 0; i < k; i++)
      if (!sameValue(calibration.requests[i], was.requests[i])) return `calibration of request ${i} changed`;
  }
  return null;
}
