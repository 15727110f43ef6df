// The self-check told one request at a time (self-check.ts SelfCheckTally) equals the check written plainly over
// every request: the share within ±3% of the requests billed ≥ 2,000, the worst miss (the first of equal misses),
// every request more than 10% off, and one object where the worst request is also flagged.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CheckedRequest, SelfCheckTally } from '../../src/analyses/self-check.ts';
import type { Thread, Transcript } from '../../src/model/transcript.ts';

type Row = { thread: string; index: number; estimateIn: number; input: number; cacheRead: number; note: string | null };

const rowArb: fc.Arbitrary<Row> = fc.record({
  thread: fc.constantFrom('a', 'b'),
  index: fc.nat({ max: 4 }),
  estimateIn: fc.integer({ min: 0, max: 12_000 }),
  input: fc.integer({ min: 0, max: 6_000 }),
  cacheRead: fc.integer({ min: 0, max: 6_000 }),
  note: fc.option(fc.constantFrom('no anchor', 'below the floor'), { nil: null }),
});

const transcript = {
  format: 'tierscope',
  meta: {},
  parseIssues: [],
  threads: ['a', 'b'].map((id) => ({
    id,
    file: id === 'b' ? 'b.jsonl' : undefined,
    requests: [0, 1, 2].map((i) => ({ index: i, line: 10 * i + 1 })),
  })) as unknown as Thread[],
} as unknown as Transcript;

function plain(rows: readonly Row[]) {
  let base = 0;
  let within = 0;
  let worst: CheckedRequest | null = null;
  const flagged: CheckedRequest[] = [];
  for (const q of rows) {
    const billed = q.input + q.cacheRead;
    if (billed <= 0) continue;
    const miss = (q.estimateIn - billed) / billed;
    const th = transcript.threads.find((x) => x.id === q.thread);
    const c: CheckedRequest = {
      thread: q.thread,
      request: q.index,
      line: th?.requests[q.index]?.line ?? null,
      file: th?.file ?? null,
      estimate: Math.round(q.estimateIn),
      billed,
      miss,
      note: q.note,
    };
    if (billed >= 2000) {
      base++;
      if (Math.abs(miss) <= 0.03) within++;
      if (!worst || Math.abs(miss) > Math.abs(worst.miss)) worst = c;
    }
    if (Math.abs(miss) > 0.1) flagged.push(c);
  }
  return { requests: base, within: base > 0 ? within / base : null, worst, flagged };
}

describe('SelfCheckTally', () => {
  it('equals the plain check over every request', () => {
    fc.assert(
      fc.property(fc.array(rowArb, { maxLength: 40 }), (rows) => {
        const tally = new SelfCheckTally(transcript);
        for (const q of rows)
          tally.add(q.thread, q.index, q.estimateIn, { input: q.input, cacheRead: q.cacheRead, cacheWrite: 0 }, q.note);
        const got = tally.result();
        const want = plain(rows);
        expect({ requests: got.requests, within: got.within, worst: got.worst, flagged: got.flagged }).toEqual(want);
        if (got.worst && want.worst && want.flagged.includes(want.worst)) expect(got.flagged).toContain(got.worst);
        expect(got.ok).toBe(want.flagged.length === 0);
      }),
    );
  });
});
