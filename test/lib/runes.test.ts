import { describe, expect, it } from 'vitest';
import { headRunes, runeCount, tailRunes, tailRunesStart, utf8Length } from '../../src/lib/runes.ts';
import { firstInvalidUtf8, looksBinary } from '../../src/lib/utf8.ts';

describe('runes', () => {
  it('counts surrogate pairs once and never splits them', () => {
    const s = 'a😀b日😀';
    expect(runeCount(s)).toBe(5);
    expect(headRunes(s, 2)).toBe('a😀');
    expect(tailRunes(s, 1)).toBe('😀');
    expect(tailRunes(s, 9)).toBe(s);
    expect(headRunes('日本語', 0)).toBe('');
  });
  /** A seeded generator of strings over pairs, lone high and low surrogates (also next to each other and at either
   *  end) and plain one-byte and two-byte units, and its `rnd`. */
  function randomStrings(seed: number, maxUnits: number) {
    const units = ['a', '日', '\ud83d', '\ude00', '😀', '\n'];
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const next = () => {
      let s = '';
      for (let i = rnd(maxUnits); i > 0; i--) s += units[rnd(units.length)];
      return s;
    };
    return { next, rnd };
  }
  it('finds where the last runes start, reading from the end, as tailRunes does from the start', () => {
    const g = randomStrings(5, 12);
    for (let k = 0; k < 2000; k++) {
      const s = g.next();
      const runes = g.rnd(14);
      expect(tailRunesStart(s, runes), JSON.stringify([s, runes])).toBe(s.length - tailRunes(s, runes).length);
    }
  });
  it('counts code points as the string iterator does, lone surrogates once each', () => {
    const g = randomStrings(11, 16);
    for (let k = 0; k < 3000; k++) {
      const s = g.next();
      expect(runeCount(s), JSON.stringify(s)).toBe(Array.from(s).length);
    }
    expect(runeCount('x'.repeat(100_000))).toBe(100_000);
  });
  it('measures UTF-8 length like TextEncoder', () => {
    for (const s of ['', 'abc', 'é', '日本', '😀x', '\ud800']) {
      expect(utf8Length(s)).toBe(new TextEncoder().encode(s).length);
    }
  });
});

describe('utf8', () => {
  it('finds the first invalid byte', () => {
    expect(firstInvalidUtf8(new TextEncoder().encode('héllo 日本 😀'))).toBe(-1);
    expect(firstInvalidUtf8(new Uint8Array([0x61, 0xc3]))).toBe(1); // truncated sequence
    expect(firstInvalidUtf8(new Uint8Array([0x61, 0x62, 0xc0, 0x80]))).toBe(2); // overlong
    expect(firstInvalidUtf8(new Uint8Array([0xed, 0xa0, 0x80]))).toBe(0); // surrogate
  });
  it('flags binary heads', () => {
    expect(looksBinary(new Uint8Array([0x7b, 0x00, 0x7d]))).toBe(true);
    expect(looksBinary(new TextEncoder().encode('{"a":1}\n'))).toBe(false);
  });
});
