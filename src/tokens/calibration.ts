// Calibration (SPEC §2): the estimate of each request's prompt in the provider's tokens, from the counted text of
// its reconstructed input plus what the provider counts that the text does not show (hidden.ts), scaled by a
// tokenizer ratio `factor` and offset by the tokens the log does not hold at all (system prompt, tool schemas,
// reminders): est = offset + factor × counted + framing + hidden.
// - With the static prefix in the log (request logs), the offset is 0 and factor = median(observed / counted).
// - Without it, the factor is the weighted median ratio of observed to counted growth between consecutive
//   observed requests of a segment (a
//   segment ends where content the log lacks changes: an agent compaction, a tool-schema load, a model switch),
//   and the offset of a request is the residual of the latest earlier observed request of its segment: like an
//   agent's own context meter (Claude Code's auto-compact counts the last response's usage plus an estimate of
//   the messages since), each estimate rests on the last observed prompt and adds what was appended. A segment's
//   first observed request gives the offset its own usage implies (SPEC §2's "inferred overhead").
// - A request's `rate` values what the pipeline removes from (or adds to) its messages: the estimate less the
//   segment's first offset and the prefix, per counted token of the messages. On real sessions the observed
//   prompt grows faster than the fitted factor says (unlogged reminders ride on messages), so a message removed is
//   worth the messages' average, not the factor (issue 30 round 2).

import { grouped } from '../lib/digits.ts';
import type { ObservedUsage, ThreadPrefix } from '../model/transcript.ts';
import type { TokenMeter } from './meter.ts';

/** How a request's estimate was made. */
export type EstimateBasis =
  | 'counted-prefix' // the log holds the static prefix: factor × counted
  | 'anchored' // offset from the observed prompt of the latest earlier request of the segment (`anchor`)
  | 'inferred' // a segment's first observed request (and those before it): the offset is inferred from its
  //             usage, SPEC §2's "inferred overhead" (`anchor` names that request)
  | 'previous-segment' // a segment without observed usage keeps the previous segment's offset
  | 'borrowed' // no observation in the thread: offset of the transcript's other threads
  | 'none'; // no observed usage anywhere: counted tokens only

export type RequestEstimate = {
  /** Calibrated estimate of the recorded input's prompt, in the provider's tokens. */
  estimate: number;
  /** Tokens the log does not hold (static prefix and unlogged content), inferred from observed usage. */
  offset: number;
  /** Counted tokens (o200k / cl100k) of the input's messages, and of the static prefix as far as the log has it. */
  counted: number;
  prefix: number;
  /** Estimated wire framing of tool blocks and hidden thinking (hidden.ts). */
  framing: number;
  hidden: number;
  /** The message from which `hidden` counts (Codex: the current turn's reasoning), when not the whole input;
   *  `dropped`: counted tokens of the input left out of `counted` for the same reason (earlier turns' reasoning). */
  hiddenFrom?: number;
  dropped?: number;
  basis: EstimateBasis;
  /** Provider's tokens per counted token of the input's messages: what the pipeline's changes to them are worth. */
  rate: number;
  /** The request whose observed prompt the offset comes from. */
  anchor?: number;
  segment: number;
  /** Why the estimate misses the observed prompt by more than NOTE_AT, in terms a reader can check. */
  note?: string;
};

/** Relative miss from which a request's estimate explains itself (the accuracy target is ±3%). */
export const NOTE_AT = 0.03;

export type Calibration = {
  factor: number;
  /** Counted (or inferred) tokens of the static prefix. */
  prefixTokens: number;
  prefixSource: 'counted' | 'inferred' | 'none';
  /** Number of requests with observed usage behind the factor. */
  samples: number;
  factorSource: 'thread' | 'transcript' | 'prior' | 'none';
  /** Per request of the thread (by index): the estimate of its recorded input. */
  requests: RequestEstimate[];
};

/** Observed prompt tokens: input + cache read + cache write (Anthropic semantics; parsers normalise OpenAI). */
export function observedPrompt(u: ObservedUsage): number {
  return u.input + u.cacheRead + u.cacheWrite;
}

export function prefixTokens(meter: TokenMeter, p: ThreadPrefix | undefined): number {
  if (!p) return 0;
  let n = 0;
  for (const b of p.system ?? []) n += meter.block(b);
  for (const t of p.tools ?? []) n += meter.tool(t);
  return n;
}

export function hasPrefix(p: ThreadPrefix | undefined): boolean {
  return !!p && ((p.system?.length ?? 0) > 0 || (p.tools?.length ?? 0) > 0);
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** What calibration needs of one request (made by the replay, which knows each request's input). */
export type CalibrationSample = {
  /** Counted tokens of the input's messages. */
  counted: number;
  observed: ObservedUsage | undefined;
  /** Counted static prefix (system + tools), or the part of it the log holds (Codex: instructions, no tools). */
  prefix: number;
  /** The log holds the whole prefix (a request log): nothing is left for an unlogged offset. */
  hasPrefix: boolean;
  /** Estimated tokens of framing and content the text does not show (hidden.ts). */
  framing: number;
  hidden: number;
  /** The message from which `hidden` counts, and the counted tokens left out, when not the whole input (see
   *  RequestEstimate). */
  hiddenFrom?: number;
  dropped?: number;
  /** Requests of one segment share their unlogged offset. */
  segment: number;
};

/** Ratios outside this range are not a tokenizer difference but content the reconstruction misses. */
const FACTOR_MIN = 0.85;
const FACTOR_MAX = 1.5;
/** Pairs closer than this (counted tokens) say nothing about the slope. */
const MIN_SPAN = 50;
const clamp = (f: number) => Math.min(FACTOR_MAX, Math.max(FACTOR_MIN, f));

const observedTarget = (s: CalibrationSample) =>
  s.observed ? observedPrompt(s.observed) - s.framing - s.hidden : Number.NaN;

/** The thread's own factor, or NaN when its usage cannot separate a factor from an unknown prefix. */
export function fitFactor(samples: readonly CalibrationSample[]): number {
  const seen = samples.filter((s) => s.observed && observedPrompt(s.observed) > 0);
  if (samples.some((s) => s.hasPrefix)) {
    const ratios = seen.map((s) => observedTarget(s) / (s.prefix + s.counted)).filter((r) => r > 0);
    return ratios.length > 0 ? median(ratios) : Number.NaN;
  }
  // Steps between consecutive observed requests of a segment: the ratio of what the prompt grew by to what was
  // appended, weighted by the appended tokens (big tool results say most about the tokenizer; small steps are
  // dominated by unlogged reminders, which the offset of the next request absorbs).
  const steps: { ratio: number; weight: number }[] = [];
  for (let i = 1; i < seen.length; i++) {
    if (seen[i - 1].segment !== seen[i].segment) continue;
    const dx = seen[i].counted - seen[i - 1].counted;
    if (dx > MIN_SPAN) steps.push({ ratio: (observedTarget(seen[i]) - observedTarget(seen[i - 1])) / dx, weight: dx });
  }
  return steps.length > 0 ? clamp(weightedMedian(steps)) : Number.NaN;
}

function weightedMedian(xs: { ratio: number; weight: number }[]): number {
  const s = [...xs].sort((a, b) => a.ratio - b.ratio);
  const half = s.reduce((n, x) => n + x.weight, 0) / 2;
  let acc = 0;
  for (const x of s) {
    acc += x.weight;
    if (acc >= half) return x.ratio;
  }
  return s[s.length - 1].ratio;
}

/**
 * Estimates of every request with a given factor. `borrowedOffset` is used for a thread without any observed
 * request (the median first offset of the transcript's other threads), when there is one.
 */
export function calibrateWith(
  samples: readonly CalibrationSample[],
  factor: number,
  factorSource: Calibration['factorSource'],
  borrowedOffset?: number,
): Calibration {
  const observedCount = samples.filter((s) => s.observed).length;
  if (samples.some((s) => s.hasPrefix)) {
    const requests = samples.map((s) =>
      factorSource === 'none' ? uncalibrated(s, factor) : part(s, 0, s.prefix, factor, 'counted-prefix', undefined),
    );
    const prefix = samples.find((s) => s.hasPrefix)?.prefix ?? 0;
    return { factor, prefixTokens: prefix, prefixSource: 'counted', samples: observedCount, factorSource, requests };
  }
  const residual = samples.map((s) => (s.observed ? observedTarget(s) - factor * (s.prefix + s.counted) : Number.NaN));
  // The nearest observed request at or after each position within its segment (a segment's first requests).
  const next = new Int32Array(samples.length).fill(-1);
  for (let i = samples.length - 1; i >= 0; i--) {
    const later = i + 1 < samples.length && samples[i + 1].segment === samples[i].segment ? next[i + 1] : -1;
    next[i] = Number.isFinite(residual[i]) ? i : later;
  }
  const requests: RequestEstimate[] = [];
  let anchor = -1;
  let lastResidual = Number.NaN;
  /** The offset of the segment's first observed request: the unlogged overhead, without the drift of later ones. */
  let base = Number.NaN;
  for (let i = 0; i < samples.length; i++) {
    const s = samples[i];
    if (i > 0 && samples[i - 1].segment !== s.segment) {
      anchor = -1;
      base = Number.NaN;
    }
    let est: RequestEstimate;
    if (anchor >= 0) est = part(s, residual[anchor], s.prefix, factor, 'anchored', base, anchor);
    else if (next[i] >= 0) est = part(s, residual[next[i]], s.prefix, factor, 'inferred', residual[next[i]], next[i]);
    else if (Number.isFinite(lastResidual))
      est = part(s, lastResidual, s.prefix, factor, 'previous-segment', lastResidual);
    else if (borrowedOffset !== undefined) est = part(s, borrowedOffset, s.prefix, factor, 'borrowed', borrowedOffset);
    else est = uncalibrated(s, factor);
    const note = gapNote(samples, est, i);
    if (note) est.note = note;
    requests.push(est);
    if (Number.isFinite(residual[i])) {
      anchor = i;
      lastResidual = residual[i];
      if (!Number.isFinite(base)) base = residual[i];
    }
  }
  const first = requests.find((r) => r.basis !== 'none');
  const prefix = first ? Math.max(0, Math.round(first.offset / factor + first.prefix)) : 0;
  return {
    factor,
    prefixTokens: prefix,
    prefixSource: first ? 'inferred' : 'none',
    samples: observedCount,
    factorSource,
    requests,
  };
}

const fmt = (n: number) => grouped(Math.round(n));

/** The reason a request's estimate misses its observed prompt: the step from its anchor that the log's
 *  appended messages do not explain, or the unknown offset of a request without its own usage. */
function gapNote(samples: readonly CalibrationSample[], est: RequestEstimate, i: number): string | undefined {
  const obs = samples[i].observed;
  if (!obs) return undefined;
  const o = observedPrompt(obs);
  const miss = est.estimate - o;
  if (o <= 0 || Math.abs(miss) <= NOTE_AT * o) return undefined;
  const pct = `${miss > 0 ? '+' : ''}${((miss / o) * 100).toFixed(1)}%`;
  const a = est.anchor;
  const from = a !== undefined ? samples[a].observed : undefined;
  if (est.basis === 'anchored' && a !== undefined && from) {
    const grew = o - observedPrompt(from);
    const added = est.estimate - observedPrompt(from); // the offset is the anchor's: this is the step
    const what =
      grew < 0 && added >= 0
        ? `shrank by ${fmt(-grew)} tokens although the log only appended messages (≈${fmt(added)} tokens): earlier content was dropped or rewritten`
        : `changed by ${grew >= 0 ? '+' : ''}${fmt(grew)} tokens while the messages the log appended account for ≈${fmt(added)}: ${fmt(Math.abs(grew - added))} tokens ${grew > added ? 'the log does not hold' : 'that were not sent'}`;
    return `estimate ${pct} off: since request ${a} the observed prompt ${what}`;
  }
  if (est.basis === 'inferred' && a !== undefined)
    return `estimate ${pct} off: comes before request ${a}, whose usage the unlogged overhead is inferred from`;
  return `estimate ${pct} off: no observed request of this thread and segment to infer the unlogged overhead from`;
}

/** No usage to calibrate with: the counted prompt (× the transcript's factor, if any), nothing estimated. */
function uncalibrated(s: CalibrationSample, factor: number): RequestEstimate {
  const estimate = factor * (s.prefix + s.counted);
  return {
    estimate,
    offset: 0,
    counted: s.counted,
    prefix: s.prefix,
    framing: 0,
    hidden: 0,
    basis: 'none',
    segment: s.segment,
    rate: factor,
  };
}

/** One request's estimate, made whole in one literal (optional fields spread in, in their order): a copy spread
 *  into another literal with the anchor added (`{ ...part(…), anchor }`) gave every estimate a hidden class of its
 *  own, ~0.3 KB per request of a long thread. */
function part(
  s: CalibrationSample,
  offset: number,
  prefix: number,
  factor: number,
  basis: EstimateBasis,
  /** The unlogged overhead that is not the messages' (the segment's first offset): left out of `rate`; none (a
   *  request log holds its whole prefix, so its estimate is linear in the counted tokens): the rate is the factor. */
  base: number | undefined,
  anchor?: number,
): RequestEstimate {
  const estimate = Math.max(0, offset + factor * (prefix + s.counted) + s.framing + s.hidden);
  return {
    estimate,
    offset,
    counted: s.counted,
    prefix,
    framing: s.framing,
    hidden: s.hidden,
    basis,
    segment: s.segment,
    rate: base === undefined ? factor : rateOf(estimate - base - factor * prefix, s.counted, factor),
    ...(s.hiddenFrom !== undefined ? { hiddenFrom: s.hiddenFrom } : {}),
    ...(s.dropped !== undefined ? { dropped: s.dropped } : {}),
    ...(anchor !== undefined ? { anchor } : {}),
  };
}

/** Below this many counted tokens the messages' average says more about the offset's noise than about them. */
const RATE_MIN_COUNTED = 1000;

/** The messages' estimate per counted token, within the factor's bounds (and the factor itself when they are
 *  too few to say). */
function rateOf(messagesEstimate: number, counted: number, factor: number): number {
  if (counted < RATE_MIN_COUNTED) return factor;
  return Math.min(Math.max(FACTOR_MAX, factor), Math.max(Math.min(FACTOR_MIN, factor), messagesEstimate / counted));
}

/** Calibrate one thread on its own (tests, single threads): its factor, else `prior`. */
export function calibrate(samples: readonly CalibrationSample[], prior = 1): Calibration {
  const f = fitFactor(samples);
  return Number.isFinite(f)
    ? calibrateWith(samples, f, 'thread')
    : calibrateWith(samples, prior, samples.some((s) => s.observed) ? 'prior' : 'none');
}
