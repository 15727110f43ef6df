// Detection parses a file's first lines; the parser's pass then gets the same Line objects for them (their parse
// kept on `line.parsed`) and reads on after them, so the head is not parsed twice. Every pass reads the same lines.
import { describe, expect, it } from 'vitest';
import { fileFromBytes, fileFromText } from '../../src/formats/index.ts';
import { makeInput } from '../../src/formats/input.ts';
import { DEFAULT_LIMITS } from '../../src/formats/limits.ts';

const strip = (l: { no: number; text: string; byteOffset: number; byteLength: number }) => [
  l.no,
  l.text,
  l.byteOffset,
  l.byteLength,
];

describe('the head of a file, read once', () => {
  it('a second pass gets the first lines as the same objects, and the rest as the first pass read them', () => {
    const text = Array.from({ length: 100 }, (_, i) => JSON.stringify({ i, pad: 'x'.repeat(i) })).join('\n');
    const input = makeInput(
      fileFromBytes('a.jsonl', new TextEncoder().encode(text), 97),
      [],
      DEFAULT_LIMITS,
      false,
      undefined,
      undefined,
    );
    const first = [...input.lines()];
    first[0].parsed = { ok: true, value: { i: 0 } };
    const again = [...input.lines()];
    expect(again.map(strip)).toEqual(first.map(strip));
    expect(again).toHaveLength(100);
    expect(again[0]).toBe(first[0]);
    expect(again[0].parsed).toEqual({ ok: true, value: { i: 0 } });
    expect(again[31]).toBe(first[31]);
    expect(again[32]).not.toBe(first[32]);
    expect([...input.lines()].map(strip)).toEqual(first.map(strip));
  });

  it('holds for CRLF, a blank line, an unterminated last line and a file shorter than the head', () => {
    const input = makeInput(
      fileFromText('b.jsonl', '{"a":1}\r\n\r\n{"b":2}\r\n{"c":3}'),
      [],
      DEFAULT_LIMITS,
      false,
      undefined,
      undefined,
    );
    const first = [...input.lines()];
    expect(first.map((l) => l.text)).toEqual(['{"a":1}', '', '{"b":2}', '{"c":3}']);
    expect([...input.lines()].map(strip)).toEqual(first.map(strip));
  });
});
