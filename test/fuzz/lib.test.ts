// Properties of the byte-level helpers every parser stands on: the chunked line reader gives identical lines
// for any chunk size from 1 to 64 bytes on random bytes; the UTF-8 validator agrees with a fatal TextDecoder
// and points at the first bad byte; detection and sniffing never throw on arbitrary bytes; tryParseJson never
// throws and refuses exactly the values nested past the limit; display() never throws.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, detectFormat, PARSERS } from '../../src/formats/index.ts';
import type { ParseInput } from '../../src/formats/types.ts';
import { isZip } from '../../src/formats/zip-entries.ts';
import { display, MAX_JSON_DEPTH, tryParseJson } from '../../src/lib/json.ts';
import { chunksOf, decodeAll, type Line, readLines } from '../../src/lib/lines.ts';
import { firstInvalidUtf8, looksBinary } from '../../src/lib/utf8.ts';
import { bytesOf, countedFile } from './kit.ts';

/** Random bytes biased toward what breaks line readers: LF, CR, UTF-8 lead and continuation bytes, BOMs. */
const bytesArb = fc
  .array(
    fc.oneof(
      fc.integer({ min: 0, max: 255 }),
      fc.constantFrom(10, 13, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80, 0xef, 0xbb, 0xbf, 0xed, 0xa0),
    ),
    { maxLength: 400 },
  )
  .map((a) => Uint8Array.from(a));

const read = (bytes: Uint8Array, size: number, maxLineBytes?: number): Line[] =>
  [...readLines(chunksOf(bytes, size), maxLineBytes === undefined ? {} : { maxLineBytes })].map((l) => ({ ...l }));
/** The lines as one comparable string (cheaper than a deep equality 64 times per run). */
const readText = (bytes: Uint8Array, size: number, maxLineBytes?: number): string =>
  JSON.stringify(read(bytes, size, maxLineBytes));

const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const strictlyValid = (b: Uint8Array) => {
  try {
    fatal.decode(b);
    return true;
  } catch {
    return false;
  }
};

describe('chunked line reader', () => {
  it('gives identical lines (text, numbers, offsets, bad-UTF-8 offsets) for every chunk size 1..64', () => {
    fc.assert(
      fc.property(bytesArb, (bytes) => {
        const whole = readText(bytes, 1 << 20);
        for (let size = 1; size <= 64; size++) expect(readText(bytes, size)).toBe(whole);
      }),
      { numRuns: 150 },
    );
  });

  it('gives identical lines for every chunk size with a small line-size limit too', () => {
    fc.assert(
      fc.property(bytesArb, fc.integer({ min: 1, max: 40 }), (bytes, limit) => {
        const whole = readText(bytes, 1 << 20, limit);
        for (const size of [1, 2, 3, 7, 13, 64]) expect(readText(bytes, size, limit)).toBe(whole);
        for (const l of read(bytes, 1 << 20, limit)) if (!l.tooLong) expect(l.byteLength).toBeLessThanOrEqual(limit);
      }),
      { numRuns: 100 },
    );
  });

  it('accounts for every byte: offsets and lengths tile the input, line numbers count up from 1', () => {
    fc.assert(
      fc.property(bytesArb, fc.integer({ min: 1, max: 64 }), (bytes, size) => {
        const lines = read(bytes, size);
        let at = 0;
        lines.forEach((l, i) => {
          expect(l.no).toBe(i + 1);
          expect(l.byteOffset).toBe(at);
          at += l.byteLength + (l.unterminated ? 0 : 1);
        });
        expect(at).toBe(bytes.length);
      }),
      { numRuns: 100 },
    );
  });

  it('decodeAll gives the same text for any chunk size', () => {
    fc.assert(
      fc.property(bytesArb, fc.integer({ min: 1, max: 64 }), (bytes, size) => {
        expect(decodeAll(chunksOf(bytes, size))).toBe(decodeAll([bytes]));
      }),
      { numRuns: 100 },
    );
  });
});

describe('UTF-8 validation', () => {
  it('agrees with a fatal TextDecoder, and the bytes before the reported offset are valid', () => {
    fc.assert(
      fc.property(bytesArb, (bytes) => {
        const at = firstInvalidUtf8(bytes);
        expect(at === -1).toBe(strictlyValid(bytes));
        if (at >= 0) {
          expect(strictlyValid(bytes.subarray(0, at))).toBe(true);
          // No valid sequence starts at the reported byte.
          expect(firstInvalidUtf8(bytes, at)).toBe(at);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('accepts every encoded string, lone surrogates excepted (they encode as U+FFFD)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (s) => {
        expect(firstInvalidUtf8(bytesOf(s))).toBe(-1);
      }),
      { numRuns: 200 },
    );
  });
});

/** A ParseInput over bytes, as the registry builds it, for detection alone. */
function inputOf(bytes: Uint8Array, chunk: number): ParseInput {
  const file = countedFile('input', bytes, chunk, { passes: 0, bytes: 0 });
  let doc: { v: unknown } | undefined;
  return {
    main: file,
    extra: [],
    lines: () => readLines(file.chunks()),
    extraLines: (f) => readLines(f.chunks()),
    doc: () => {
      if (!doc) {
        const r = tryParseJson(decodeAll(file.chunks()));
        doc = { v: r.ok ? r.value : undefined };
      }
      return doc.v;
    },
    archive: isZip(bytes),
    maxDocumentBytes: DEFAULT_LIMITS.maxDocumentBytes,
  };
}

describe('detection', () => {
  it('never throws on arbitrary bytes, and does not depend on the chunk size', () => {
    fc.assert(
      fc.property(bytesArb, fc.integer({ min: 1, max: 64 }), (bytes, chunk) => {
        expect(detectFormat(inputOf(bytes, chunk))?.id).toBe(detectFormat(inputOf(bytes, 1 << 20))?.id);
        looksBinary(bytes);
      }),
      { numRuns: 150 },
    );
  });

  it('every sniff returns a boolean for arbitrary JSON heads (never throws)', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue({ maxDepth: 5 }), { maxLength: 5 }), fc.jsonValue(), (lines, doc) => {
        for (const p of PARSERS) expect(typeof p.sniff({ fileName: 'x', lines, doc })).toBe('boolean');
      }),
      { numRuns: 200 },
    );
  });
});

describe('JSON helpers', () => {
  it('tryParseJson never throws and agrees with JSON.parse on values within the depth limit', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json({ maxDepth: 6 })), (text) => {
        const r = tryParseJson(text);
        let expected: { ok: boolean; value?: unknown };
        try {
          expected = { ok: true, value: JSON.parse(text) };
        } catch {
          expected = { ok: false };
        }
        expect(r.ok).toBe(expected.ok);
        if (r.ok) expect(r.value).toEqual(expected.value);
        else expect(r.message.length).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses exactly the texts nested deeper than the limit (strings with brackets do not count)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 * MAX_JSON_DEPTH }), fc.boolean(), (depth, objects) => {
        const open = objects ? '{"a[\\\\":' : '[';
        const close = objects ? '}' : ']';
        const text = `${open.repeat(depth - 1)}"[[{"${close.repeat(depth - 1)}`;
        const r = tryParseJson(text);
        expect(r.ok).toBe(depth - 1 <= MAX_JSON_DEPTH);
        if (!r.ok) expect(r.tooDeep).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it('display() never throws, whatever the value', () => {
    const hostile = fc.oneof(
      fc.jsonValue(),
      fc.constant({ toString: 1, valueOf: 1 }),
      fc.constant([{ toString: 1 }]),
      fc.constant(JSON.parse(`${'['.repeat(20_000)}${']'.repeat(20_000)}`) as unknown),
    );
    fc.assert(
      fc.property(hostile, (v) => {
        expect(typeof display(v)).toBe('string');
      }),
      { numRuns: 100 },
    );
  });
});
