// The one binary search (src/lib/search.ts) against a linear scan, for every length and threshold.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstIndex } from '../../src/lib/search.ts';

describe('firstIndex', () => {
  it('finds the first index where a monotone predicate holds, as a scan does', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -50, max: 50 })), fc.integer({ min: -60, max: 60 }), (xs, x) => {
        const sorted = [...xs].sort((a, b) => a - b);
        const scan = sorted.findIndex((v) => v > x);
        expect(firstIndex(sorted.length, (i) => sorted[i] > x)).toBe(scan === -1 ? sorted.length : scan);
      }),
    );
  });
  it('searches from `from` alone, giving what a whole search gives when the answer is at or after it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -50, max: 50 })),
        fc.integer({ min: -60, max: 60 }),
        fc.nat(),
        (xs, x, f) => {
          const sorted = [...xs].sort((a, b) => a - b);
          const whole = firstIndex(sorted.length, (i) => sorted[i] > x);
          const from = sorted.length === 0 ? 0 : f % (whole + 1);
          const seen: number[] = [];
          const got = firstIndex(
            sorted.length,
            (i) => {
              seen.push(i);
              return sorted[i] > x;
            },
            from,
          );
          expect(got).toBe(whole);
          expect(seen.every((i) => i >= from)).toBe(true);
        },
      ),
    );
  });
  it('gives 0 when the predicate holds everywhere and n when nowhere', () => {
    expect(firstIndex(5, () => true)).toBe(0);
    expect(firstIndex(5, () => false)).toBe(5);
    expect(firstIndex(0, () => true)).toBe(0);
  });
});
