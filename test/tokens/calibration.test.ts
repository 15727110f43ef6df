// Calibration (SPEC §2, calibration.ts) on samples whose truth is known: the factor from growth between
// consecutive observed requests, offsets anchored on the last observed request of a segment (never on the
// request itself, except a segment's first, SPEC's "inferred overhead"), segments, framing and hidden tokens,
// the counted-prefix case, and notes that name the step the log does not explain.
import { describe, expect, it } from 'vitest';
import { type CalibrationSample, calibrate, calibrateWith, fitFactor } from '../../src/tokens/calibration.ts';

const usage = (prompt: number) => ({ input: prompt, cacheRead: 0, cacheWrite: 0, output: 10 });

/** A request of an agent whose log lacks a 10,000-token prefix and whose tokenizer counts 1.2× o200k. */
function sample(counted: number, o: Partial<CalibrationSample> & { prompt?: number | null } = {}): CalibrationSample {
  const framing = o.framing ?? 0;
  const hidden = o.hidden ?? 0;
  const prompt = o.prompt === undefined ? 10_000 + 1.2 * counted + framing + hidden : o.prompt;
  return {
    counted,
    observed: prompt === null ? undefined : usage(prompt),
    prefix: o.prefix ?? 0,
    hasPrefix: o.hasPrefix ?? false,
    framing,
    hidden,
    segment: o.segment ?? 0,
  };
}

describe('calibration', () => {
  it('finds the tokenizer ratio from the growth between consecutive requests, and the unlogged prefix', () => {
    const ss = [sample(1_000), sample(3_000), sample(8_000), sample(8_400), sample(20_000)];
    expect(fitFactor(ss)).toBeCloseTo(1.2, 6);
    const c = calibrate(ss);
    expect(c.factorSource).toBe('thread');
    expect(c.prefixSource).toBe('inferred');
    expect(c.prefixTokens).toBe(Math.round(10_000 / 1.2));
    for (const [i, e] of c.requests.entries()) expect(e.estimate).toBeCloseTo(10_000 + 1.2 * ss[i].counted, 6);
    expect(c.requests.map((e) => [e.basis, e.anchor])).toEqual([
      ['inferred', 0],
      ['anchored', 0],
      ['anchored', 1],
      ['anchored', 2],
      ['anchored', 3],
    ]);
  });

  it('anchors on the previous observed request: content the log lacks counts from the request after it', () => {
    // 700 tokens the log does not hold (a reminder) arrive with request 2 and stay.
    const ss = [
      sample(1_000),
      sample(2_000),
      sample(3_000, { prompt: 10_000 + 3_600 + 700 }),
      sample(4_000, { prompt: 10_000 + 4_800 + 700 }),
    ];
    const c = calibrateWith(ss, 1.2, 'thread');
    expect(c.requests[2].estimate).toBeCloseTo(13_600, 6); // missed by 700 (4.9%)
    expect(c.requests[3].estimate).toBeCloseTo(15_500, 6); // the next one rests on request 2's usage
    expect(c.requests[2].note).toMatch(/since request 1 the observed prompt changed by \+1,900 tokens/);
    expect(c.requests[2].note).toMatch(/700 tokens the log does not hold/);
    expect(c.requests[3].note).toBeUndefined();
  });

  it('says when a prompt shrank although the log only appended messages', () => {
    const ss = [sample(1_000), sample(1_400, { prompt: 10_000 + 1_200 - 2_000 })];
    const c = calibrateWith(ss, 1.2, 'thread');
    expect(c.requests[1].note).toMatch(
      /shrank by 2,000 tokens although the log only appended messages \(≈480 tokens\)/,
    );
  });

  it('does not anchor across a segment: after a compaction the offset is inferred anew', () => {
    const before = [sample(1_000), sample(5_000)];
    // After the agent's compaction the agent re-attaches files the log does not hold (+3,000).
    const after = [
      sample(800, { segment: 1, prompt: 13_000 + 960 }),
      sample(1_800, { segment: 1, prompt: 13_000 + 2_160 }),
    ];
    const c = calibrateWith([...before, ...after], 1.2, 'thread');
    expect(c.requests[2]).toMatchObject({ basis: 'inferred', anchor: 2, segment: 1 });
    expect(c.requests[3]).toMatchObject({ basis: 'anchored', anchor: 2 });
    expect(c.requests[3].estimate).toBeCloseTo(15_160, 6);
  });

  it('requests without usage rest on the latest observed one; before any, on the first observed', () => {
    const ss = [sample(500, { prompt: null }), sample(1_000), sample(2_000, { prompt: null }), sample(4_000)];
    const c = calibrateWith(ss, 1.2, 'thread');
    expect(c.requests.map((e) => [e.basis, e.anchor])).toEqual([
      ['inferred', 1],
      ['inferred', 1],
      ['anchored', 1],
      ['anchored', 1],
    ]);
    expect(c.requests[0].estimate).toBeCloseTo(10_600, 6);
    expect(c.requests[2].estimate).toBeCloseTo(12_400, 6);
  });

  it('adds framing and hidden tokens on top of the calibrated counted tokens', () => {
    const ss = [sample(1_000, { framing: 66 }), sample(2_000, { framing: 132, hidden: 400 })];
    const c = calibrateWith(ss, 1.2, 'thread');
    expect(c.requests[1].estimate).toBeCloseTo(10_000 + 2_400 + 132 + 400, 6);
    expect(c.requests[1].note).toBeUndefined();
  });

  it('with the static prefix in the log: no offset, factor = median(observed / counted)', () => {
    const ss = [
      sample(1_000, { prefix: 5_000, hasPrefix: true, prompt: 1.1 * 6_000 }),
      sample(2_000, { prefix: 5_000, hasPrefix: true, prompt: 1.1 * 7_000 }),
    ];
    const c = calibrate(ss);
    expect(c.factor).toBeCloseTo(1.1, 6);
    expect(c.prefixSource).toBe('counted');
    expect(c.requests.map((e) => e.basis)).toEqual(['counted-prefix', 'counted-prefix']);
    expect(c.requests[1].estimate).toBeCloseTo(7_700, 6);
  });

  it('without any usage: counted tokens only, nothing estimated', () => {
    const ss = [sample(1_000, { prompt: null, framing: 66, hidden: 50 })];
    const c = calibrate(ss);
    expect(c.factorSource).toBe('none');
    expect(c.requests[0]).toMatchObject({ basis: 'none', estimate: 1_000, framing: 0, hidden: 0 });
  });

  it('one observed request cannot separate a ratio from an offset: the prior is used', () => {
    const c = calibrate([sample(1_000)], 1.1);
    expect(c.factorSource).toBe('prior');
    expect(c.factor).toBe(1.1);
    expect(c.requests[0].estimate).toBeCloseTo(11_200, 6); // its own usage: the inferred overhead
  });

  it('keeps implausible ratios in bounds (content the reconstruction misses is not a tokenizer)', () => {
    const ss = [sample(1_000, { prompt: 10_000 }), sample(2_000, { prompt: 15_000 })];
    expect(fitFactor(ss)).toBe(1.5);
  });

  it('values the messages at their observed average (rate), not at the factor, when unlogged tokens ride on them', () => {
    // Each request appends either 100 or 10,000 counted tokens and 600 tokens the log lacks (a reminder on its
    // message). The weighted median of the steps sees the big ones (1.26); the prompt holds 1.2 per counted token + 600 per request.
    const ss: CalibrationSample[] = [];
    let counted = 1_000;
    for (let k = 0; k < 40; k++) {
      counted += k % 2 ? 10_000 : 100;
      ss.push(sample(counted, { prompt: 10_000 + 1.2 * counted + 600 * (k + 1) }));
    }
    const c = calibrate(ss);
    expect(c.factor).toBeCloseTo(1.26, 2);
    const last = c.requests.at(-1);
    const truth = (1.2 * counted + 600 * 40) / counted; // what a counted token of these messages is worth
    expect(last?.rate).toBeCloseTo(truth, 2);
    expect(last?.rate).toBeGreaterThan(c.factor);
    // Half of the messages (with half of the reminders) removed: the rate says what remains, the factor does not.
    const after = 10_000 + 1.2 * (counted / 2) + 600 * 20;
    const byRate = (last?.estimate ?? 0) - (last?.rate ?? 0) * (counted / 2);
    const byFactor = (last?.estimate ?? 0) - c.factor * (counted / 2);
    expect(Math.abs(byRate - after) / after).toBeLessThan(0.01);
    expect(Math.abs(byFactor - after) / after).toBeGreaterThan(0.03);
  });

  it('a request log (whole prefix) or no usage at all: the rate is the factor', () => {
    const logged = calibrate([
      sample(1_000, { hasPrefix: true, prefix: 500 }),
      sample(4_000, { hasPrefix: true, prefix: 500 }),
    ]);
    for (const e of logged.requests) expect(e.rate).toBe(logged.factor);
    const none = calibrate([sample(5_000, { prompt: null })]);
    expect(none.requests[0].rate).toBe(none.factor);
  });
});
