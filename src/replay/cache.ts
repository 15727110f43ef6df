// What the replay keeps from one run to the next, with the pipeline's memos (PipelineMemo), in one object the
// engine owns per loaded transcript and encoding (dropped on the next load) and passes explicitly. Each field is a
// named memo: its key, what it assumes, its bound. Runs A, B, A, B on one cache equal B on a fresh cache
// (test/replay/cache.test.ts).
import type { Thread, Transcript } from '../model/transcript.ts';
import { PipelineMemo } from '../pipeline/memo.ts';
import type { Calibration } from '../tokens/calibration.ts';
import type { TokenMeter } from '../tokens/meter.ts';
import type { ReplayMode } from './inputs.ts';
import type { PlanColumns } from './plan-columns.ts';
import type { ReplayOptions, ThreadReplay } from './types.ts';

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
  readonly plans = new WeakMap<Thread, Map<ReplayMode, PlanSet>>();
  /** Thread → its last replay (transcript.ts): reused while nothing it read changed. Bound: one per thread. */
  readonly lastReplays = new WeakMap<Thread, Reusable>();
  /** Thread → message index → the request that produced it (replay.ts). Bound: one table per thread. */
  readonly requestTables = new WeakMap<Thread, Int32Array>();
  /** A prefix part (a thread's tools or system array) → the hash of its content (plan.ts). Bound: one per
   *  array object of the transcript. */
  readonly contentKeys = new WeakMap<object, string>();
  private cals: Map<string, Calibration> | undefined;

  constructor(
    readonly transcript: Transcript,
    readonly meter: TokenMeter,
    /** Calibrations to use instead of computing them (tests; a caller that has them). */
    calibrations?: Map<string, Calibration>,
  ) {
    this.pipeline = new PipelineMemo(meter);
    this.cals = calibrations;
  }

  /** Thread id → its calibration (computed on first use: it needs the transcript counted). */
  calibrations(calibrate: (t: Transcript, meter: TokenMeter) => Map<string, Calibration>): Map<string, Calibration> {
    this.cals ??= calibrate(this.transcript, this.meter);
    return this.cals;
  }
}
