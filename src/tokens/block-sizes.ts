// A block's two sizes in one side table: its exact tokens (the meter's) and its runes (the pipeline's measure,
// pipeline/rune-counts.ts), packed into one small integer per block (a V8 Smi, stored in the table itself: a
// double would be a heap object of its own), so the blocks of a long session are keyed once, not in two WeakMaps.
// Each size is stored plus one (0: not known), tokens in 13 bits and runes in 17; a block with more (a result of
// tens of KB) keeps both sizes beside, unpacked.

import type { Block } from '../model/transcript.ts';

const T = 2 ** 13;
const R = 2 ** 17;
/** A block whose sizes are in `big`. */
const BIG = -1;

export class BlockSizes {
  /** Block → (runes + 1) · 2^13 + (tokens + 1), either part 0 when not known: under 2^30, a Smi. Bound: the blocks
   *  alive. */
  private readonly packed = new WeakMap<Block, number>();
  private big: WeakMap<Block, { tokens?: number; runes?: number }> | undefined;

  tokens(b: Block): number | undefined {
    const v = this.packed.get(b);
    if (v === undefined) return undefined;
    if (v === BIG) return this.big?.get(b)?.tokens;
    const t = v & (T - 1);
    return t === 0 ? undefined : t - 1;
  }

  runes(b: Block): number | undefined {
    const v = this.packed.get(b);
    if (v === undefined) return undefined;
    if (v === BIG) return this.big?.get(b)?.runes;
    const r = v >>> 13;
    return r === 0 ? undefined : r - 1;
  }

  setTokens(b: Block, n: number): void {
    this.set(b, n, this.runes(b));
  }

  setRunes(b: Block, n: number): void {
    this.set(b, this.tokens(b), n);
  }

  private set(b: Block, tokens: number | undefined, runes: number | undefined): void {
    if (packs(tokens, T) && packs(runes, R)) {
      this.packed.set(b, (runes === undefined ? 0 : runes + 1) * T + (tokens === undefined ? 0 : tokens + 1));
      return;
    }
    this.big ??= new WeakMap();
    this.big.set(b, { tokens, runes });
    this.packed.set(b, BIG);
  }
}

/** `n` (not known, or a whole size) fits its part of the packed number. */
const packs = (n: number | undefined, limit: number) =>
  n === undefined || (Number.isInteger(n) && n >= 0 && n < limit - 1);
