// openRange and replaceRange (src/lib/arrays.ts) edit a list in place as Array.prototype.splice would, for every
// start, removal and insertion count (shrinking, equal and growing).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openRange, replaceRange } from '../../src/lib/arrays.ts';

const edit = fc
  .array(fc.integer(), { maxLength: 40 })
  .chain((a) =>
    fc.record({
      a: fc.constant(a),
      start: fc.integer({ min: 0, max: a.length }),
      remove: fc.integer({ min: 0, max: 40 }),
      items: fc.array(fc.integer(), { maxLength: 12 }),
    }),
  )
  .map(({ a, start, remove, items }) => ({ a, start, remove: Math.min(remove, a.length - start), items }));

describe('in-place range edits', () => {
  it('replaceRange equals splice', () => {
    fc.assert(
      fc.property(edit, ({ a, start, remove, items }) => {
        const want = a.slice();
        want.splice(start, remove, ...items);
        const got = a.slice();
        replaceRange(got, start, remove, items);
        expect(got).toEqual(want);
      }),
    );
  });

  it('openRange leaves the kept elements where splice puts them, and k places at start', () => {
    fc.assert(
      fc.property(edit, ({ a, start, remove, items }) => {
        const k = items.length;
        const got = a.slice();
        openRange(got, start, remove, k, -1);
        for (let i = 0; i < k; i++) got[start + i] = items[i];
        const want = a.slice();
        want.splice(start, remove, ...items);
        expect(got).toEqual(want);
      }),
    );
  });
});
