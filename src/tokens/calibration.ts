// Calibration (SPEC §2): where a log has observed usage, factor = median(observed prompt / counted input)
// per thread, and decisions use calibrated tokens. The static prefix (system + tools) is counted when the
// log has it, else inferred from the first request with usage as observed prompt − counted messages
// ("inferred overhead"). Threads without usage borrow the transcript-wide factor, else use 1.
import type { ObservedUsage, ThreadPrefix } from '../model/transcript.ts';
import type { TokenMeter } from './meter.ts';

export type Calibration = {
  factor: number;
  /** Counted (or inferred) tokens of the static prefix. */
  prefixTokens: number;
  prefixSource: 'counted' | 'inferred' | 'none';
  /** Number of requests with observed usage behind the factor. */
  samples: number;
  factorSource: 'thread' | 'transcript' | 'none';
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

export function median(xs: number[]): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export type CalibrationSample = {
  counted: number;
  observed: ObservedUsage | undefined;
  prefix: number;
  hasPrefix: boolean;
};

/** Calibrate one thread from per-request samples (counted message tokens + prefix, and usage). */
export function calibrate(samples: readonly CalibrationSample[]): Calibration {
  const withPrefix = samples.some((s) => s.hasPrefix);
  let prefix = withPrefix ? (samples.find((s) => s.hasPrefix)?.prefix ?? 0) : 0;
  let prefixSource: Calibration['prefixSource'] = withPrefix ? 'counted' : 'none';
  if (!withPrefix) {
    const first = samples.find((s) => s.observed);
    if (first?.observed) {
      prefix = Math.max(0, observedPrompt(first.observed) - first.counted);
      prefixSource = 'inferred';
    }
  }
  const ratios: number[] = [];
  for (const s of samples) {
    if (!s.observed) continue;
    const counted = s.counted + (s.hasPrefix ? s.prefix : prefix);
    const obs = observedPrompt(s.observed);
    if (counted > 0 && obs > 0) ratios.push(obs / counted);
  }
  const factor = ratios.length > 0 ? median(ratios) : Number.NaN;
  return {
    factor: Number.isFinite(factor) ? factor : 1,
    prefixTokens: prefix,
    prefixSource,
    samples: ratios.length,
    factorSource: ratios.length > 0 ? 'thread' : 'none',
  };
}
