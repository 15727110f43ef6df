// grouped() writes every number as toLocaleString('en-US') does (whole ones without ICU, the rest through it).
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { grouped } from '../../src/lib/digits.ts';

it('equals toLocaleString("en-US") for whole numbers of every size and sign, and for the rest', () => {
  const fixed = [0, -0, 1, -1, 999, 1000, -1000, 123456789, 2 ** 53, -(2 ** 53), 1e20, 1e21, 1e300, 0.5, 1234.5678];
  for (const n of [...fixed, Number.NaN, Number.POSITIVE_INFINITY]) expect(grouped(n)).toBe(n.toLocaleString('en-US'));
  fc.assert(
    fc.property(fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.double({ noNaN: true })), (n) => {
      expect(grouped(n)).toBe(n.toLocaleString('en-US'));
    }),
    { numRuns: 2000 },
  );
});
