import { describe, expect, it } from 'vitest';
import { headRunes, runeCount, tailRunes, utf8Length } from '../../src/lib/runes.ts';
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
