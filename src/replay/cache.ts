// What the replay keeps from one run to the next, with the pipeline's memos (PipelineMemo), in one object the
// engine owns per loaded transcript and encoding (dropped on the next load) and passes explicitly. Each field is a
// named memo: its key, what it assumes, its bound. Runs A, B, A, B on one cache equal B on a fresh cache
// (test/replay/cache.test.ts). A followed session's growth carries the cache over to the grown transcript
// (model/carry-over.ts keeps unchanged objects), keeping what is keyed on identity (test/worker/follow-grow).
import { sameValue } from '../model/carry-over.ts';
import type { Message, Thread, Transcript } from '../model/transcript.ts';
import { PipelineMemo } from '../pipeline/memo.ts';
import { ToolIds } from '../pipeline/tool-ids.ts';
import type { Calibration } from '../tokens/calibration.ts';
import type { TokenMeter } from '../tokens/meter.ts';
import type { ReplayMode } from './inputs.ts';
import type { PlanColumns } from './plan-columns.ts';
import { requestIndexer } from './request-of.ts';
import type { LiveReplay } from './resume.ts';
import type { ReplayOptions, ThreadReplay, ThreadSamples } from './types.ts';

/** A thread's last full replay, with what it depended on besides the config keys it read (reuse.ts). */
export type Reusable = {
  replay: ThreadReplay;
  calibration: Calibration;
  mode: ReplayOptions['mode'];
  provider: ReplayOptions['provider'];
  summarizer: ReplayOptions['summarizer'];
};

/** A thread's request plans for one mode, and the calibration they were made with. */
export type PlanSet = { calibration: Calibration; plans: PlanColumns };

export class ReplayCache {
  readonly pipeline: PipelineMemo;
  /** Thread → its request plans per mode (plan.ts). Assumes the transcript is never mutated. Bound: one list
   *  per thread and mode. */
  readonly plans: WeakMap<Thread, Map<ReplayMode, PlanSet>>;
  /** Thread → its last replay (transcript.ts): reused while nothing it read changed. Bound: one per thread. */
  readonly lastReplays: WeakMap<Thread, Reusable>;
  /** Thread → message index → the request that produced it (replay.ts). Bound: one table per thread. */
  readonly requestTables: WeakMap<Thread, Int32Array>;
  /** A prefix part (a thread's tools or system array) → the hash of its content (plan.ts). Bound: one per
   *  array object of the transcript. */
  readonly contentKeys: WeakMap<object, string>;
  /** Thread id → the runs of its latest replays, kept going (resume.ts), the most recently used first: a later
   *  read of the thread that only appended requests replays just those under the same settings. Bound: a few per
   *  thread id (transcript.ts LIVE_PER_THREAD). */
  readonly live: Map<string, LiveReplay[]>;
  /** Thread id → its calibration samples and what they were made from (transcript.ts calibrateTranscript): a
   *  followed session's grown thread makes only the samples after its unchanged requests. Filled for a followed
   *  session only (keepRuns): nothing else reads them again (~7 MB at 20,000 requests). Bound: one per thread id. */
  readonly calibrationInputs: Map<string, ThreadSamples>;
  /** Keep each thread's replay running for a later read (cache.live): set for a followed session only, as the
   *  runs hold their working histories (about 17 MB more for a 2,000-request session). */
  keepRuns: boolean;
  /** Requests this cache's replays ran through the pipeline (reuse and resumption skip them): the work a run
   *  did, for tests and the bench. */
  replayed = 0;
  private cals: Map<string, Calibration> | undefined;
  /** The calibrations of the read this cache was carried over from, by thread id: an equal one is used instead
   *  of the new object, so what is keyed on a calibration (plans, last replays) still matches. */
  private earlierCals: Map<string, Calibration> | undefined;

  constructor(
    readonly transcript: Transcript,
    readonly meter: TokenMeter,
    /** Calibrations to use instead of computing them (tests; a caller that has them). */
    calibrations?: Map<string, Calibration>,
    /** The cache of an earlier read of a followed session (carries(from, transcript) said its memos hold). */
    from?: ReplayCache,
  ) {
    this.pipeline = from?.pipeline ?? new PipelineMemo(meter);
    this.plans = from?.plans ?? new WeakMap();
    this.lastReplays = from?.lastReplays ?? new WeakMap();
    this.requestTables = from?.requestTables ?? new WeakMap();
    this.contentKeys = from?.contentKeys ?? new WeakMap();
    this.live = from?.live ?? new Map();
    this.keepRuns = from?.keepRuns ?? false;
    this.calibrationInputs = from?.calibrationInputs ?? new Map();
    this.cals = calibrations;
    this.earlierCals = from?.cals;
  }

  /** Thread id → its calibration (computed on first use: it needs the transcript counted). */
  calibrations(
    calibrate: (t: Transcript, meter: TokenMeter, memo?: Map<string, ThreadSamples>) => Map<string, Calibration>,
  ): Map<string, Calibration> {
    if (!this.cals) {
      const cals = calibrate(this.transcript, this.meter, this.keepRuns ? this.calibrationInputs : undefined);
      const earlier = this.earlierCals;
      if (earlier)
        for (const [id, c] of cals) {
          const e = earlier.get(id);
          if (e && sameValue(e, c)) cals.set(id, e);
        }
      this.earlierCals = undefined;
      this.cals = cals;
    }
    return this.cals;
  }
}

/**
 * Whether the memos of `from` hold for `next`, a later read of the growing file `from` was made for, with its
 * unchanged objects carried over (model/carry-over.ts). Every memo is keyed on objects, which a new read only
 * reuses where they are equal, except for one fact read from the rest of the thread: a tool result's tool is the
 * name the thread's first call of that id gives (categories, tier facts). So every thread that grew must name
 * every id of its earlier read as that read did; then the earlier id table becomes the grown thread's, extended
 * by its messages (numbers already used by memos and plans stay valid). And the request each earlier message
 * is tagged with (summaries tag what they fold with it; the summary drafts' memo keys on the folded messages and
 * their span of requests) must be the same in the grown thread. False: start from a fresh cache.
 */
export function carries(from: ReplayCache, next: Transcript): boolean {
  const before = new Map(from.transcript.threads.map((t) => [t.id, t]));
  const shared: [Thread, ToolIds, number][] = [];
  for (const t of next.threads) {
    const p = before.get(t.id);
    if (!p || p === t) continue;
    const was = requestIndexer(p, from.requestTables);
    const now = requestIndexer(t, from.requestTables);
    for (let mi = Math.min(p.messages.length, t.messages.length) - 1; mi >= 0; mi--)
      if (was(mi) !== now(mi)) return false;
    const old = from.pipeline.toolIds.peek(p);
    if (!old) continue;
    let same = 0;
    while (same < p.messages.length && same < t.messages.length && p.messages[same] === t.messages[same]) same++;
    if (!namesKept(old, p, t, same)) return false;
    shared.push([t, old, same]);
  }
  for (const [t, table, same] of shared) from.pipeline.toolIds.share(t, table, same);
  return true;
}

/** The first assistant tool_use name of each id among `messages` from `start` on. */
function firstNames(messages: readonly Message[], start: number): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = start; i < messages.length; i++) {
    const m = messages[i];
    if (m.role !== 'assistant') continue;
    for (const b of m.blocks) if (b.type === 'tool_use' && !out.has(b.id)) out.set(b.id, b.name);
  }
  return out;
}

/** Whether a table made afresh over `t` names every id of `old` (the table of `p`, whose first `same` messages
 *  `t` shares) as `old` does. A name comes from an id's first call: the shared messages name the same; only an id
 *  whose first call in one of the reads is after them may differ, which the tails show (when they disagree about
 *  an id `old` names as `p`'s tail does, whether the shared messages name it decides: the whole thread is read). */
function namesKept(old: ToolIds, p: Thread, t: Thread, same: number): boolean {
  const was = firstNames(p.messages, same);
  const now = firstNames(t.messages, same);
  for (const id of new Set([...was.keys(), ...now.keys()])) {
    if (was.get(id) === now.get(id) || old.get(id) === undefined) continue;
    const named = old.name(id);
    if (named === undefined) return false; // t's tail names an id p never named
    if (named !== was.get(id)) continue; // named by a shared message: the same in t
    const fresh = new ToolIds();
    for (const m of t.messages) fresh.refsOf(m);
    for (let n = 0; n < old.size; n++) if (old.name(old.id(n)) !== fresh.name(old.id(n))) return false;
    return true;
  }
  return true;
}
