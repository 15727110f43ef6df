// The BPE counter's piece memo is looked up by a range of a longer text: it must find a piece stored from any other
// text at any offset, tell apart pieces that differ in one code unit or in length, and keep every entry as it grows.
import { describe, expect, it } from 'vitest';
import { PieceMemo } from '../../src/tokens/piece-memo.ts';

describe('PieceMemo', () => {
  it('finds each stored piece by any range holding its text, and nothing else', () => {
    const memo = new PieceMemo();
    const pieces: string[] = [];
    // Enough entries to grow the table several times; near-equal keys (one unit apart, prefixes, surrogates).
    for (let i = 0; i < 20_000; i++) pieces.push(`${i % 7 === 0 ? '😀' : ' '}w${i.toString(36)}`);
    pieces.forEach((p, i) => {
      const text = `<<${p}>>`;
      expect(memo.get(text, 2, 2 + p.length)).toBe(-1);
      memo.set(text, 2, 2 + p.length, i);
    });
    pieces.forEach((p, i) => {
      expect(memo.get(`${'x'.repeat(i % 5)}${p}`, i % 5, (i % 5) + p.length)).toBe(i);
      expect(memo.get(`${p}\u0000`, 0, p.length + 1)).toBe(-1);
      expect(memo.get(`${p.slice(0, -1)}\u0001`, 0, p.length)).toBe(-1);
    });
    expect(memo.get('', 0, 0)).toBe(-1);
  });
});
