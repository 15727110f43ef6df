import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunksOf, readLines } from '../../src/lib/lines.ts';

const enc = (s: string) => new TextEncoder().encode(s);
const texts = (bytes: Uint8Array, size: number) => [...readLines(chunksOf(bytes, size))].map((l) => l.text);

describe('readLines', () => {
  it('splits on LF, strips CR and a BOM, numbers lines from 1 with byte offsets', () => {
    const lines = [...readLines(chunksOf(enc('\ufeffa\r\nbé\n\nc'), 3))];
    expect(lines.map((l) => [l.no, l.text, l.byteOffset])).toEqual([
      [1, 'a', 0],
      [2, 'bé', 6],
      [3, '', 10],
      [4, 'c', 11],
    ]);
    expect(lines[3].unterminated).toBe(true);
  });

  it('gives the same lines for any chunk size (7-byte chunks included)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'grapheme', maxLength: 30 }), { maxLength: 20 }),
        fc.integer({ min: 1, max: 40 }),
        (parts, size) => {
          const bytes = enc(parts.join('\n'));
          expect(texts(bytes, size)).toEqual(texts(bytes, 1 << 20));
          expect(texts(bytes, 7)).toEqual(texts(bytes, 1 << 20));
        },
      ),
    );
  });

  it('reports invalid UTF-8 with the byte offset of the first bad byte and keeps the line', () => {
    const bytes = new Uint8Array([...enc('ok\nab'), 0xff, ...enc('cd\n')]);
    const lines = [...readLines(chunksOf(bytes, 2))];
    expect(lines[1].badUtf8At).toBe(5);
    expect(lines[1].text).toBe('ab\ufffdcd');
  });

  it('skips a line over the size limit without buffering it, and keeps the next lines', () => {
    const big = `${'x'.repeat(5000)}\n{"a":1}\n`;
    const lines = [...readLines(chunksOf(enc(big), 64), { maxLineBytes: 1000 })];
    expect(lines[0]).toMatchObject({ no: 1, tooLong: true, byteLength: 5000, text: '' });
    expect(lines[1]).toMatchObject({ no: 2, text: '{"a":1}', byteOffset: 5001 });
  });
});
