// One table for a block's tokens and runes (tokens/block-sizes.ts): each reads back what was written, whatever the
// other holds and in either order, sizes too large to pack included; and the meter and the pipeline's rune counts
// share it.
import { describe, expect, it } from 'vitest';
import type { Block } from '../../src/model/transcript.ts';
import { RuneCounts } from '../../src/pipeline/rune-counts.ts';
import { BlockSizes } from '../../src/tokens/block-sizes.ts';
import { TokenMeter } from '../../src/tokens/meter.ts';
import { createTokenizer } from '../../src/tokens/tokenizer.ts';

const text = (s: string): Block => ({ type: 'text', text: s });

describe('BlockSizes', () => {
  it('reads back each size, in either order, unknown until written', () => {
    const sizes = new BlockSizes();
    const values = [
      0,
      1,
      2,
      1000,
      2 ** 13 - 3,
      2 ** 13 - 2,
      2 ** 13 - 1,
      2 ** 13,
      2 ** 17 - 3,
      2 ** 17 - 2,
      2 ** 17,
      2 ** 20,
      2 ** 40,
    ];
    for (const t of values)
      for (const r of values) {
        const a = text('a');
        expect(sizes.tokens(a)).toBeUndefined();
        expect(sizes.runes(a)).toBeUndefined();
        sizes.setTokens(a, t);
        expect(sizes.tokens(a)).toBe(t);
        expect(sizes.runes(a)).toBeUndefined();
        sizes.setRunes(a, r);
        expect([sizes.tokens(a), sizes.runes(a)]).toEqual([t, r]);
        const b = text('b');
        sizes.setRunes(b, r);
        expect([sizes.tokens(b), sizes.runes(b)]).toEqual([undefined, r]);
        sizes.setTokens(b, t);
        expect([sizes.tokens(b), sizes.runes(b)]).toEqual([t, r]);
        // Written again, smaller or larger: the new value, the other kept.
        sizes.setTokens(b, 7);
        expect([sizes.tokens(b), sizes.runes(b)]).toEqual([7, r]);
        sizes.setRunes(a, 2 ** 30);
        expect([sizes.tokens(a), sizes.runes(a)]).toEqual([t, 2 ** 30]);
        sizes.setRunes(a, 5);
        expect([sizes.tokens(a), sizes.runes(a)]).toEqual([t, 5]);
      }
  });

  it('keeps a size that is not a whole number as it is', () => {
    const sizes = new BlockSizes();
    const a = text('a');
    sizes.setTokens(a, 12.5);
    sizes.setRunes(a, 3);
    expect([sizes.tokens(a), sizes.runes(a)]).toEqual([12.5, 3]);
  });

  it('the meter and the rune counts made on its table agree with their own tables', async () => {
    const meter = new TokenMeter(await createTokenizer('o200k_base'));
    const shared = new RuneCounts(meter.sizes);
    const own = new RuneCounts();
    const blocks: Block[] = [
      text('héllo wörld 🙂 '.repeat(50)),
      { type: 'tool_result', toolUseId: 't1', content: 'x'.repeat(3000), isError: false },
      { type: 'tool_result', toolUseId: 't2', content: [{ type: 'text', text: 'ab🙂' }], isError: false },
    ];
    for (const b of blocks) {
      const tokens = meter.block(b);
      expect(shared.block(b)).toBe(own.block(b));
      expect(meter.block(b)).toBe(tokens);
      expect(meter.hasBlock(b)).toBe(true);
    }
    const summary = text('a summary');
    shared.known(summary, 9);
    expect(meter.hasBlock(summary)).toBe(false);
    meter.knownBlock(summary, 3);
    expect([meter.block(summary), shared.block(summary)]).toEqual([3, 9]);
  });
});
