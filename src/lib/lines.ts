// Streaming line reader over byte chunks (SPEC §1.3): no whole-file string is ever built. Lines are
// split on LF (CR stripped) — or on CR in a file whose first chunk has CRs and no LF (classic Mac line endings) —
// decoded one by one with their 1-based number and byte offset; invalid UTF-8 and over-long lines become problems
// with a location instead of exceptions.
import type { JsonParseResult } from './json.ts';
import { firstInvalidUtf8 } from './utf8.ts';

export type Line = {
  /** 1-based line number. */
  no: number;
  text: string;
  /** Byte offset of the line start in the file. */
  byteOffset: number;
  byteLength: number;
  /** Set when the line held invalid UTF-8 (decoded with U+FFFD): byte offset of the first bad byte. */
  badUtf8At?: number;
  /** Set when the line was longer than the limit: the text is empty and the bytes were skipped. */
  tooLong?: boolean;
  /** True for the last line when the file did not end with a newline. */
  unterminated?: boolean;
  /** The line's text parsed as JSON, once a reader did (a growing file's held lines are not parsed again). */
  parsed?: JsonParseResult;
};

export type LineReaderOptions = {
  /** Lines longer than this many bytes are skipped and reported (default 256 MB, SPEC §1.3). */
  maxLineBytes?: number;
  /** Where the chunks start in the file: the byte offset and number of their first line (default 0 and 1). */
  start?: { offset: number; no: number };
};

export const DEFAULT_MAX_LINE_BYTES = 256 * 1024 * 1024;

const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false });
/** Throws on the same sequences `firstInvalidUtf8` finds (the WHATWG decoder's errors), natively: most lines are
 *  valid, so the byte-by-byte scan runs only for the few that are not. */
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

function decodeLine(bytes: Uint8Array, offset: number, no: number, unterminated: boolean): Line {
  let end = bytes.length;
  if (end > 0 && bytes[end - 1] === 13) end--;
  const view = end === bytes.length ? bytes : bytes.subarray(0, end);
  let bad = -1;
  let text: string;
  try {
    text = strict.decode(view);
  } catch {
    bad = firstInvalidUtf8(view);
    text = decoder.decode(view);
  }
  if (no === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const line: Line = { no, text, byteOffset: offset, byteLength: bytes.length };
  if (bad >= 0) line.badUtf8At = offset + bad;
  if (unterminated) line.unterminated = true;
  return line;
}

/** Bytes of a file's start that decide its line break (whatever the chunk sizes: the same bytes decide). */
const HEAD = 64 * 1024;

/** The byte that ends a line of a file that starts with `head` (its first 64 KB or more): LF, or CR when those
 *  bytes hold CRs and no LF (classic Mac line endings). */
export function lineBreakOf(head: Uint8Array): 10 | 13 {
  const h = head.length > HEAD ? head.subarray(0, HEAD) : head;
  return h.indexOf(10) === -1 && h.indexOf(13) !== -1 ? 13 : 10;
}

/** The chunks with the line break their first 64 KB decide (those chunks are held until then, no longer). */
function* withLineBreak(chunks: Iterable<Uint8Array>, decided: (lf: 10 | 13) => void): Generator<Uint8Array> {
  const head: Uint8Array[] = [];
  let size = 0;
  let done = false;
  const decide = () => {
    done = true;
    decided(lineBreakOf(concatBytes(head, size)));
  };
  for (const c of chunks) {
    if (done) {
      yield c;
      continue;
    }
    head.push(c.slice());
    size += c.length;
    if (size < HEAD) continue;
    decide();
    yield* head;
  }
  if (!done) {
    decide();
    yield* head;
  }
}

/** Split a stream of byte chunks into decoded lines. Empty lines are yielded too (callers skip them). */
export function* readLines(chunks: Iterable<Uint8Array>, options: LineReaderOptions = {}): Generator<Line> {
  const maxLine = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  let pending: Uint8Array[] = [];
  let pendingLen = 0;
  let skipping = false;
  let lineStart = options.start?.offset ?? 0;
  let pos = lineStart;
  let no = options.start?.no ?? 1;
  let lf: 10 | 13 = 10;
  for (const chunk of withLineBreak(chunks, (b) => {
    lf = b;
  })) {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(lf, start);
      const end = nl === -1 ? chunk.length : nl;
      const piece = chunk.subarray(start, end);
      if (!skipping) {
        if (pendingLen + piece.length > maxLine) {
          skipping = true;
          pending = [];
          pendingLen += piece.length;
        } else if (piece.length > 0) {
          pending.push(piece);
          pendingLen += piece.length;
        }
      } else pendingLen += piece.length;
      if (nl === -1) {
        // Copy pending views: the chunk buffer may be reused by the producer.
        if (!skipping && pending.length > 0) pending[pending.length - 1] = piece.slice();
        break;
      }
      if (skipping) {
        yield { no, text: '', byteOffset: lineStart, byteLength: pendingLen, tooLong: true };
      } else {
        yield decodeLine(concatBytes(pending, pendingLen), lineStart, no, false);
      }
      pos = lineStart + pendingLen + 1;
      lineStart = pos;
      no++;
      pending = [];
      pendingLen = 0;
      skipping = false;
      start = nl + 1;
    }
  }
  if (skipping)
    yield { no, text: '', byteOffset: lineStart, byteLength: pendingLen, tooLong: true, unterminated: true };
  else if (pendingLen > 0) yield decodeLine(concatBytes(pending, pendingLen), lineStart, no, true);
}

/** `parts` joined into one buffer of `total` bytes (the one part itself when there is just one). */
export function concatBytes(parts: Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(total);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Yield `bytes` as chunks of `size` bytes (views, no copy). */
export function* chunksOf(bytes: Uint8Array, size = 1 << 20): Generator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, Math.min(bytes.length, i + size));
}

/** Decode a whole byte buffer chunk by chunk (for single-document JSON formats). */
export function decodeAll(chunks: Iterable<Uint8Array>): string {
  const dec = new TextDecoder('utf-8', { fatal: false });
  let out = '';
  for (const c of chunks) out += dec.decode(c, { stream: true });
  out += dec.decode();
  return out.charCodeAt(0) === 0xfeff ? out.slice(1) : out;
}
