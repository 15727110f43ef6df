// What a parser reads: a source file's lines (a followed file's held lines, then only the bytes after them), its
// JSON document read once when asked, a zip archive's entries and a database's tables, with invalid UTF-8 and
// over-long lines reported once as the parser consumes them.
import { formatBytes } from '../lib/bytes.ts';
import { chunksOf, DEFAULT_MAX_LINE_BYTES, type Line, readLines } from '../lib/lines.ts';
import type { ParseIssue } from '../model/transcript.ts';
import { type DocumentRead, readDocument } from './document.ts';
import type { LoadLimits } from './limits.ts';
import type { ParseInput, SourceFile } from './types.ts';

/**
 * The complete lines of a file that only grows, kept by the caller from one load to the next (the engine, for a
 * followed session), each with its JSON value once a parser read it. The caller promises the bytes before `end`
 * are unchanged; a file shorter than `end` or another line-size limit starts it over.
 */
export type HeldLines = { lines: Line[]; end: number; maxLineBytes: number };

export function heldLines(): HeldLines {
  return { lines: [], end: 0, maxLineBytes: DEFAULT_MAX_LINE_BYTES };
}

/** The bytes of `chunks` from `offset` on. */
function* bytesFrom(chunks: Iterable<Uint8Array>, offset: number): Generator<Uint8Array> {
  let at = 0;
  for (const c of chunks) {
    if (at + c.length > offset) yield at >= offset ? c : c.subarray(offset - at);
    at += c.length;
  }
}

/** The held lines, then the lines of the bytes after them; complete lines read there join the held ones. */
function* growingLines(main: SourceFile, held: HeldLines, maxLineBytes: number): Generator<Line> {
  if (held.end > main.size || held.maxLineBytes !== maxLineBytes) {
    held.lines = [];
    held.end = 0;
    held.maxLineBytes = maxLineBytes;
  }
  const known = held.lines.length;
  for (let i = 0; i < known; i++) yield held.lines[i];
  const from = held.end;
  const chunks = main.chunksFrom ? main.chunksFrom(from) : bytesFrom(main.chunks(), from);
  for (const line of readLines(chunks, { maxLineBytes, start: { offset: from, no: known + 1 } })) {
    // Another pass over the lines may have held this one already.
    if (!line.unterminated && line.byteOffset === held.end) {
      held.lines.push(line);
      held.end = line.byteOffset + line.byteLength + 1;
    }
    yield line;
  }
}

/** Lines at the start of a file kept, with what detection parsed of them, for the parser's first pass. */
const HEAD_LINES = 32;

/** The first lines of a file read once: every pass over the file (detection's head, then the parser) gets the same
 *  Line objects for them — detection's parse of each (`line.parsed`) is not done again — then reads on after them. */
function* headKept(main: SourceFile, head: HeldLines, maxLineBytes: number): Generator<Line> {
  const known = head.lines.length;
  for (let i = 0; i < known; i++) yield head.lines[i];
  const from = head.end;
  const chunks = from === 0 ? main.chunks() : main.chunksFrom ? main.chunksFrom(from) : bytesFrom(main.chunks(), from);
  for (const line of readLines(chunks, { maxLineBytes, start: { offset: from, no: known + 1 } })) {
    if (head.lines.length < HEAD_LINES && !line.unterminated && line.byteOffset === head.end) {
      head.lines.push(line);
      head.end = line.byteOffset + line.byteLength + 1;
    }
    yield line;
  }
}

/** A SourceFile over an in-memory byte buffer. */
export function fileFromBytes(name: string, bytes: Uint8Array, chunkSize = 1 << 20): SourceFile {
  return {
    name,
    size: bytes.length,
    chunks: () => chunksOf(bytes, chunkSize),
    chunksFrom: (offset) => chunksOf(bytes.subarray(offset), chunkSize),
  };
}

/** A SourceFile over a string (tests, paste). */
export function fileFromText(name: string, text: string): SourceFile {
  return fileFromBytes(name, new TextEncoder().encode(text));
}

/** What reading the main file as one document found, for load() to report (one holder per load). */
export type DocumentSeen = { read?: DocumentRead; usedByParser?: boolean; parsing?: boolean };

export function makeInput(
  main: SourceFile,
  extra: SourceFile[],
  limits: LoadLimits,
  archive: boolean,
  held: HeldLines | undefined,
  heldExtras: Map<string, HeldLines> | undefined,
  seen: DocumentSeen = {},
): ParseInput {
  const tooBig = archive || main.size > limits.maxDocumentBytes;
  const head = heldLines();
  return {
    main,
    extra,
    lines: () =>
      archive
        ? [][Symbol.iterator]()
        : held
          ? growingLines(main, held, limits.maxLineBytes)
          : headKept(main, head, limits.maxLineBytes),
    extraLines: (file) => {
      if (!heldExtras) return readLines(file.chunks(), { maxLineBytes: limits.maxLineBytes });
      let h = heldExtras.get(file.name);
      if (!h) {
        h = heldLines();
        heldExtras.set(file.name, h);
      }
      return growingLines(file, h, limits.maxLineBytes);
    },
    doc: () => {
      seen.read ??= tooBig ? { value: undefined } : readDocument(main);
      if (seen.parsing) seen.usedByParser = true;
      return seen.read.value;
    },
    archive,
    // An archive entry (an `.eval` sample) is held whole once decompressed: no bigger than the file itself may be.
    maxDocumentBytes: Math.min(limits.maxDocumentBytes, limits.maxFileBytes),
  };
}

/** The first `n` bytes of a file, across as many chunks as it takes (a stream may hand out tiny chunks). */
export function firstBytes(file: SourceFile, n: number): Uint8Array {
  const out = new Uint8Array(Math.min(n, file.size));
  let at = 0;
  for (const c of file.chunks()) {
    const take = Math.min(c.length, out.length - at);
    out.set(c.subarray(0, take), at);
    at += take;
    if (at >= out.length) break;
  }
  return out.subarray(0, at);
}

/** Report invalid UTF-8 and over-long lines once, as the parser consumes them. */
export function* reportLineProblems(
  lines: Iterable<Line>,
  issue: (i: ParseIssue) => void,
  size: number,
  maxLineBytes: number,
  progress?: (f: number) => void,
): Generator<Line> {
  let nextTick = 0;
  for (const line of lines) {
    if (line.badUtf8At !== undefined) {
      issue({
        line: line.no,
        severity: 'warning',
        byteOffset: line.badUtf8At,
        message: `invalid UTF-8 at byte ${line.badUtf8At}; decoded with replacement characters`,
      });
    }
    if (line.tooLong) {
      issue({
        line: line.no,
        severity: 'error',
        byteOffset: line.byteOffset,
        message: `line is ${formatBytes(line.byteLength)}, over the ${formatBytes(maxLineBytes)} line-size limit; skipped`,
      });
    }
    if (progress && line.byteOffset >= nextTick) {
      progress(Math.min(1, line.byteOffset / size));
      nextTick = line.byteOffset + size / 100;
    }
    yield line;
  }
  progress?.(1);
}

/** Lines skipped for being over the line-size limit (read again only when nothing else was found). */
export function countLongLines(input: ParseInput): number {
  let n = 0;
  for (const line of input.lines()) if (line.tooLong) n++;
  return n;
}
