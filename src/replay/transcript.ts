// Replay a whole transcript: calibrate every thread from its observed usage (SPEC §2), then replay each
// thread request by request (SPEC §3). Threads are independent; the cache timeline later merges them
// by time (sub-agents share the system + tools prefix).
import type { Thread, Transcript } from '../model/transcript.ts';
import {
  type Calibration,
  type CalibrationSample,
  calibrate,
  hasPrefix,
  median,
  prefixTokens,
} from '../tokens/calibration.ts';
import type { TokenMeter } from '../tokens/meter.ts';
import { InputBuilder } from './inputs.ts';
import { type ReplayOptions, replayThread, type ThreadReplay } from './replay.ts';
import { sameReads } from './reuse.ts';

export type Replay = {
  threads: ThreadReplay[];
  options: Omit<ReplayOptions, 'meter' | 'summarizer'> & { summarizer: string };
};

/** Counted message tokens of each request's recorded input (for calibration). */
export function calibrationSamples(thread: Thread, meter: TokenMeter): CalibrationSample[] {
  const inputs = new InputBuilder(thread, 'recorded');
  const sums = new Float64Array(thread.messages.length + 1);
  thread.messages.forEach((m, i) => {
    sums[i + 1] = sums[i] + meter.message(m);
  });
  return thread.requests.map((r) => {
    const v = inputs.view(r);
    const counted = v.exact ? meter.messages(v.array, v.start, v.end) : sums[v.end] - sums[v.start];
    const prefix = r.exactPrefix ?? thread.prefix;
    return { counted, observed: r.observed, prefix: prefixTokens(meter, prefix), hasPrefix: hasPrefix(prefix) };
  });
}

/** Calibrate every thread; threads without usage borrow the median factor of those with it. */
export function calibrateTranscript(t: Transcript, meter: TokenMeter): Map<string, Calibration> {
  const out = new Map<string, Calibration>();
  for (const th of t.threads) out.set(th.id, calibrate(calibrationSamples(th, meter)));
  const factors = [...out.values()].filter((c) => c.factorSource === 'thread').map((c) => c.factor);
  if (factors.length > 0) {
    const f = median(factors);
    for (const c of out.values()) {
      if (c.factorSource === 'none') {
        c.factor = f;
        c.factorSource = 'transcript';
      }
    }
  }
  return out;
}

/** The last full replay of each thread, with what it depended on besides the config keys it read. */
type Reusable = {
  replay: ThreadReplay;
  meter: TokenMeter;
  calibration: Calibration;
  mode: ReplayOptions['mode'];
  provider: ReplayOptions['provider'];
  summarizer: ReplayOptions['summarizer'];
};
const lastReplay = new WeakMap<Thread, Reusable>();

/** Replay `th`, or reuse its last replay when nothing it depended on changed (see reuse.ts). An http
 *  summarizer's answers arrive between runs, so its replays are never reused. */
function replayOrReuse(th: Thread, opts: ReplayOptions, calibration: Calibration): ThreadReplay {
  const prev = lastReplay.get(th);
  if (
    prev &&
    opts.summarizer.id !== 'http' &&
    prev.meter === opts.meter &&
    prev.calibration === calibration &&
    prev.mode === opts.mode &&
    prev.provider === opts.provider &&
    prev.summarizer === opts.summarizer &&
    sameReads(opts.config, prev.replay.reads)
  )
    return prev.replay;
  const replay = replayThread(th, opts, calibration);
  lastReplay.set(th, {
    replay,
    meter: opts.meter,
    calibration,
    mode: opts.mode,
    provider: opts.provider,
    summarizer: opts.summarizer,
  });
  return replay;
}

export function replayTranscript(t: Transcript, opts: ReplayOptions, calibrations?: Map<string, Calibration>): Replay {
  const cals = calibrations ?? calibrateTranscript(t, opts.meter);
  const threads = t.threads.map((th) => replayOrReuse(th, opts, cals.get(th.id) ?? calibrate([])));
  return {
    threads,
    options: { config: opts.config, mode: opts.mode, provider: opts.provider, summarizer: opts.summarizer.id },
  };
}
