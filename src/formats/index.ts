// Ordered registry of format parsers, content-based detection (the file name is only a hint) and the
// single entry point `parseTranscript`, which never throws: unusable input yields a LoadError naming
// the formats tried and what the first line looked like (SPEC §1.1, §1.3). A zip archive (Inspect's
// `.eval`) is told by its magic and offered only to parsers that read archives, which see its entry names.

import { formatBytes } from '../lib/bytes.ts';
import { cutDeep, isObject, MAX_JSON_DEPTH, preview, tryParseJson } from '../lib/json.ts';
import { chunksOf, DEFAULT_MAX_LINE_BYTES, type Line, readLines } from '../lib/lines.ts';
import { encodingHint, looksBinary } from '../lib/utf8.ts';
import type { FormatId, ObservedUsage, ParseIssue, Thread, Transcript } from '../model/transcript.ts';
import { anthropicRequestParser } from './anthropic-request.ts';
import { atifParser } from './atif.ts';
import { claudeCodeParser } from './claude-code.ts';
import { claudeTraceParser } from './claude-trace.ts';
import { clineParser } from './cline.ts';
import { codexParser } from './codex.ts';
import { type OpenedDatabase, openDatabase, tablesOf } from './database-input.ts';
import { DEEP_PLACEHOLDER, type DocumentRead, readDocument } from './document.ts';
import { geminiCliParser } from './gemini-cli.ts';
import { inspectParser } from './inspect.ts';
import { DEFAULT_LIMITS, type LoadLimits, overFileLimit } from './limits.ts';
import { openaiChatParser } from './openai-chat.ts';
import { opencodeParser } from './opencode.ts';
import { otelGenaiParser } from './otel-genai.ts';
import { isSqlite, type SqliteDb, type SqliteOpener } from './sqlite.ts';
import { sweAgentParser } from './swe-agent.ts';
import { tierscopeParser } from './tierscope.ts';
import type { FormatParser, ParseInput, SniffHead, SourceFile } from './types.ts';
import type { ReadUsage } from './usage-count.ts';
import { isZip, zipEntries } from './zip-entries.ts';

/** Detection order: most specific first (formats.md §0). */
export const PARSERS: readonly FormatParser[] = [
  tierscopeParser,
  claudeTraceParser,
  codexParser,
  claudeCodeParser,
  geminiCliParser,
  clineParser,
  atifParser,
  otelGenaiParser,
  opencodeParser,
  openaiChatParser,
  anthropicRequestParser,
  sweAgentParser,
  inspectParser,
];

export const FORMAT_IDS: readonly FormatId[] = PARSERS.map((p) => p.id);

export { APP_MAX_FILE_BYTES, DEFAULT_LIMITS, type LoadLimits } from './limits.ts';

export type LoadOk = { ok: true; transcript: Transcript };
type LoadError = { ok: false; error: string; issues: ParseIssue[] };
export type LoadResult = LoadOk | LoadError;

export type LoadOptions = {
  format?: FormatId;
  limits?: Partial<LoadLimits>;
  progress?: (fraction: number) => void;
  /** The main file's lines held from an earlier load of it (a followed session that grew): only the bytes after
   *  them are read and parsed, and the complete lines read there are added to it. */
  held?: HeldLines;
  /** The same for the companion files (sub-agent logs), by file name; a companion not in it is added. */
  heldExtras?: Map<string, HeldLines>;
  /** Opens an SQLite database's bytes (sql.js, loaded by the platform: worker/sqlite-browser.ts, cli/sqlite-node.ts). */
  sqlite?: SqliteOpener;
  /** The main file's database opened already (a scan reading each session of one database): used, not closed. */
  database?: SqliteDb;
  /** Of a file holding several sessions (a database), the one to read. */
  session?: string;
};

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
type DocumentSeen = { read?: DocumentRead; usedByParser?: boolean; parsing?: boolean };

function makeInput(
  main: SourceFile,
  extra: SourceFile[],
  limits: LoadLimits,
  archive: boolean,
  held: HeldLines | undefined,
  heldExtras: Map<string, HeldLines> | undefined,
  seen: DocumentSeen = {},
): ParseInput {
  const tooBig = archive || main.size > limits.maxDocumentBytes;
  return {
    main,
    extra,
    lines: () =>
      archive
        ? [][Symbol.iterator]()
        : held
          ? growingLines(main, held, limits.maxLineBytes)
          : readLines(main.chunks(), { maxLineBytes: limits.maxLineBytes }),
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
function firstBytes(file: SourceFile, n: number): Uint8Array {
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

function sniffHead(input: ParseInput): SniffHead & { firstLine: string } {
  const lines: unknown[] = [];
  const deep: [number, string][] = [];
  let firstLine = '';
  let nonEmpty = 0;
  for (const line of input.lines()) {
    if (line.tooLong || line.text.trim() === '') continue;
    if (nonEmpty === 0) firstLine = line.text;
    nonEmpty++;
    line.parsed ??= tryParseJson(line.text);
    const r = line.parsed;
    lines.push(r.ok ? r.value : undefined);
    if (!r.ok && r.tooDeep) deep.push([lines.length - 1, line.text]);
    if (nonEmpty >= 20) break;
  }
  // A line nested too deep is refused when parsed (one issue, the rest loads). When no line of the head is
  // readable otherwise, detection sees those lines with their deep values cut, so the file is still recognised.
  if (deep.length > 0 && !lines.some((v) => v !== undefined)) {
    for (const [i, text] of deep) {
      const cut = tryParseJson(cutDeep(text, MAX_JSON_DEPTH, DEEP_PLACEHOLDER).text);
      if (cut.ok && isObject(cut.value)) lines[i] = cut.value;
    }
  }
  const anyLineJson = lines.some((v) => v !== undefined && typeof v === 'object');
  const singleLine = nonEmpty <= 1;
  // A whole-document format is pretty-printed (lines are not JSON — its first line, `{` or `[`, never is, though
  // an inner line may be a whole object) or a single line.
  const opensDocument = lines[0] === undefined && /^\s*[[{]\s*$/.test(firstLine);
  const doc = !anyLineJson || singleLine || opensDocument ? input.doc() : undefined;
  return { fileName: input.main.name, lines, doc, firstLine };
}

/** What detection sees of a zip archive: the names of its first entries (read without decompressing). */
function archiveHead(input: ParseInput): SniffHead & { firstLine: string } {
  const entries: string[] = [];
  for (const e of zipEntries(input.main.chunks(), { want: () => false, maxEntryBytes: 0, problem: () => {} })) {
    entries.push(e.name);
    if (entries.length >= 8) break;
  }
  return { fileName: input.main.name, lines: [], doc: undefined, firstLine: '', archive: { entries } };
}

/** Detect the format of an input by content; undefined when nothing matches. */
export function detectFormat(input: ParseInput): FormatParser | undefined {
  const head = input.archive ? archiveHead(input) : sniffHead(input);
  return PARSERS.find((p) => (!input.archive || p.archives) && safeSniff(p, head));
}

function safeSniff(p: FormatParser, head: SniffHead): boolean {
  try {
    return p.sniff(head);
  } catch {
    return false;
  }
}

/** Lines skipped for being over the line-size limit (read again only when nothing else was found). */
function countLongLines(input: ParseInput): number {
  let n = 0;
  for (const line of input.lines()) if (line.tooLong) n++;
  return n;
}

/** A file name as messages quote it: on one line, whatever it holds. */
const nameOf = (f: SourceFile) => f.name.replace(/[\r\n\u2028\u2029]+/g, ' ');

/** Parse a transcript from a main file (plus companion files). Never throws. */
export function parseTranscript(main: SourceFile, extra: SourceFile[] = [], options: LoadOptions = {}): LoadResult {
  try {
    return load(main, extra, options);
  } catch (e) {
    // Out of memory, a stream that fails mid-read: nothing a parser did, still one clear message.
    const message = preview(e instanceof Error ? e.message : String(e), 200);
    return { ok: false, error: `Could not load ${nameOf(main)}: ${message}`, issues: [] };
  }
}

function load(main: SourceFile, extra: SourceFile[], options: LoadOptions): LoadResult {
  const limits: LoadLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const name = nameOf(main);
  if (main.size === 0) return { ok: false, error: `${name} is empty (0 bytes): nothing to load.`, issues: [] };
  if (main.size > limits.maxFileBytes) {
    return { ok: false, error: `${name} ${overFileLimit(limits.maxFileBytes, main.size)}.`, issues: [] };
  }
  const headBytes = firstBytes(main, 8192);
  const archive = isZip(headBytes);
  const database = isSqlite(headBytes);
  const hint = archive || database ? null : encodingHint(headBytes);
  if (hint)
    return { ok: false, error: `${name} is ${hint.what}, not a JSON or JSONL transcript: ${hint.fix}.`, issues: [] };
  if (!archive && !database && looksBinary(headBytes)) {
    return {
      ok: false,
      error: `${name} looks like a binary file (NUL or control bytes in its first 8 KB), not a JSON or JSONL transcript.`,
      issues: [],
    };
  }
  const issues: ParseIssue[] = [];
  const companions = extra.filter((f) => {
    if (f.size <= limits.maxFileBytes) return true;
    const over = overFileLimit(limits.maxFileBytes, f.size);
    issues.push({ line: 0, file: f.name, severity: 'error', message: `companion file ${over}; not loaded` });
    return false;
  });
  const seen: DocumentSeen = {};
  const input = makeInput(main, companions, limits, archive || database, options.held, options.heldExtras, seen);
  input.archive = archive;
  let opened: OpenedDatabase | undefined;
  if (database) {
    const got = options.database
      ? { db: options.database }
      : openDatabase(main, companions, options.sqlite, limits.maxDocumentBytes);
    if (typeof got === 'string') return { ok: false, error: `${name} ${got}.`, issues: [] };
    if (got.note) issues.push({ line: 0, severity: 'info', message: got.note });
    opened = got;
    input.database = got.db;
    if (options.session !== undefined) input.session = options.session;
  }
  try {
    return loadInput(main, input, options, limits, issues, seen, name);
  } finally {
    if (opened && !options.database) opened.db.close();
  }
}

function loadInput(
  main: SourceFile,
  input: ParseInput,
  options: LoadOptions,
  limits: LoadLimits,
  issues: ParseIssue[],
  seen: DocumentSeen,
  name: string,
): LoadResult {
  const { archive } = input;
  const database = input.database !== undefined;
  const head = archive
    ? archiveHead(input)
    : database && input.database
      ? {
          fileName: main.name,
          lines: [],
          doc: undefined,
          firstLine: '',
          database: { tables: tablesOf(input.database) },
        }
      : sniffHead(input);
  if (!archive && !database && head.lines.length === 0) {
    const tooLong = countLongLines(input);
    return {
      ok: false,
      error:
        tooLong > 0
          ? `${name} has no line under the ${formatBytes(limits.maxLineBytes)} line-size limit: ${tooLong === 1 ? 'its one line is' : `${tooLong} lines are`} longer, and the rest are blank.`
          : `${name} holds only blank lines.`,
      issues: [],
    };
  }
  const parser = options.format
    ? PARSERS.find((p) => p.id === options.format)
    : PARSERS.find((p) => (!archive || p.archives) && (!database || p.databases) && safeSniff(p, head));
  if (archive && (parser ? !parser.archives : !options.format)) {
    return archiveError(name, head.archive?.entries ?? [], parser);
  }
  if (database && (parser ? !parser.databases : !options.format)) {
    const tables = (head.database?.tables ?? []).slice(0, 8).join(', ') || 'none';
    const error = parser
      ? `${name} is an SQLite database; the ${parser.id} format is not read from one.`
      : `${name} is an SQLite database, but not an opencode one: its tables are ${tables} (opencode's has session, message and part).`;
    return { ok: false, error, issues: [] };
  }
  // A document cut mid-write is named so (SPEC §1.3's "matches no format" message would show only its "{").
  const truncated = seen.read?.truncated;
  if (!parser && truncated && !options.format) return { ok: false, error: `${name} ${truncated}.`, issues: [] };
  if (!parser) {
    const tried = PARSERS.map((p) => p.id).join(', ');
    const invalid = seen.read?.invalid ? `; ${seen.read.invalid}` : '';
    const what = options.format ? `Unknown format "${options.format}"` : `Could not recognise ${name}`;
    const big =
      main.size > limits.maxDocumentBytes
        ? ` (as one JSON document it is over the ${formatBytes(limits.maxDocumentBytes)} document limit, so only JSON lines were tried)`
        : '';
    return {
      ok: false,
      error: `${what}: tried ${tried}${big}. The first line looks like: ${preview(head.firstLine, 120)}${invalid}`,
      issues: [],
    };
  }
  // Issues are kept up to twice the limit (dedupe comes later); past that only counted, so a file of a
  // million bad lines does not hold a million issue objects.
  let unkept = 0;
  const ctx = {
    issue: (i: ParseIssue) => (issues.length < 2 * limits.maxIssues ? issues.push(i) : unkept++),
    progress: options.progress,
  };
  const reporting: ParseInput = {
    ...input,
    lines: () => reportLineProblems(input.lines(), ctx.issue, main.size, limits.maxLineBytes, ctx.progress),
  };
  try {
    seen.parsing = true;
    const transcript = parser.parse(reporting, ctx);
    if (seen.usedByParser && seen.read?.cut) issues.push(seen.read.cut);
    dropImpossibleUsage(transcript.threads, issues);
    const all = dedupeIssues([...issues, ...transcript.parseIssues]);
    transcript.threads = limitThreads(transcript.threads, limits.maxThreads, all);
    transcript.parseIssues = limitIssues(all, limits.maxIssues, unkept);
    transcript.meta.fileName ??= main.name;
    return { ok: true, transcript };
  } catch (e) {
    // Parsers do not throw (the fuzz suites hold them to it); this is the last line of defence.
    const message = preview(e instanceof Error ? e.message : String(e), 200);
    return { ok: false, error: `The ${parser.id} parser failed on ${name}: ${message}`, issues: issues.slice(0, 100) };
  }
}

/** The most tokens one response can plausibly report; more (or a negative or fractional count) is not a count. */
const MAX_USAGE_TOKENS = 1e12;
const USAGE_KEYS = ['input', 'cacheRead', 'cacheWrite', 'cacheWrite1h', 'output'] as const;

/** The first field of `u` that is not a token count (negative, fractional or past 10^12), or null. */
function impossibleUsage(u: ObservedUsage): string | null {
  for (const k of USAGE_KEYS) {
    const v = u[k];
    if (v !== undefined && !(Number.isInteger(v) && v >= 0 && v <= MAX_USAGE_TOKENS))
      return Number.isNaN(v) ? `${k} (not a number)` : `${k} ${v}`;
  }
  return null;
}

/** Counts a usage object wrote as text ("120": read as numbers, usage-count.ts), noted at the line that holds them;
 *  the marker is taken off the model. */
function noteTextCounts(u: ReadUsage | undefined, line: number, file: string | undefined, issues: ParseIssue[]) {
  if (!u?.asText) return;
  issues.push({
    line,
    ...(file ? { file } : {}),
    severity: 'info',
    message: `usage ${u.asText.join(', ')} written as text, not as numbers; read as the counts they say`,
  });
  delete u.asText;
}

/** Usage that is not a token count (issue 19, item 10: negative or 2^53 figures were taken as they were; issue 29: a
 *  count that is not a number, NaN from usage-count.ts) is dropped from the request or billed response, with a parse
 *  issue at the line that holds it; the rest loads. */
function dropImpossibleUsage(threads: Thread[], issues: ParseIssue[]): void {
  for (const t of threads) {
    for (const r of t.requests) {
      const at = t.messages[r.inputEnd] ?? t.messages[r.inputEnd - 1];
      noteTextCounts(r.observed, at?.source.line ?? 0, at?.source.file, issues);
      const bad = r.observed && impossibleUsage(r.observed);
      if (!bad) continue;
      r.observed = undefined;
      const m = t.messages[r.inputEnd] ?? t.messages[r.inputEnd - 1];
      issues.push({
        line: m?.source.line ?? 0,
        ...(m?.source.file ? { file: m.source.file } : {}),
        severity: 'warning',
        message: `usage ${bad} is not a token count (negative, fractional or over 10^12): request ${r.index} of thread ${t.id} is treated as having no observed usage`,
      });
    }
    if (t.billedApart) {
      t.billedApart = t.billedApart.filter((b) => {
        noteTextCounts(b.usage, b.line, b.file, issues);
        const bad = impossibleUsage(b.usage);
        if (bad)
          issues.push({
            line: b.line,
            ...(b.file ? { file: b.file } : {}),
            severity: 'warning',
            message: `usage ${bad} is not a token count (negative, fractional or over 10^12): this billed response is not counted`,
          });
        return !bad;
      });
    }
  }
}

/** Why a zip archive is not loaded: it is not an Inspect log, or the format asked for does not read archives. */
function archiveError(name: string, entries: string[], asked: FormatParser | undefined): LoadError {
  let error = `${name} is a zip archive; the ${asked?.id} format is not read from one.`;
  if (!asked && entries.length === 0) error = `${name} starts like a zip archive, but no entry of it could be read.`;
  else if (!asked) {
    const listed = entries.map((e) => preview(e, 60)).join(', ');
    error =
      `${name} is a zip archive, but not an Inspect AI eval log: its first entries are ${listed} ` +
      '(an Inspect .eval holds header.json, _journal/start.json and samples/<id>_epoch_<n>.json).';
  }
  return { ok: false, error, issues: [] };
}

/**
 * The first `max` threads (parsers order them main, sidechains, side calls, so side calls go first); one issue,
 * put first so the issue limit never hides it, says how many were dropped.
 */
function limitThreads(threads: Thread[], max: number, issues: ParseIssue[]): Thread[] {
  if (threads.length <= max) return threads;
  const dropped = threads.length - max;
  issues.unshift({
    line: 0,
    severity: 'error',
    message: `${threads.length} threads, over the ${max}-thread limit: the last ${dropped} were dropped (threads are ordered main, sidechains, side calls)`,
  });
  return threads.slice(0, max);
}

/** The first `max` issues, then one that says how many more there were (`unkept`: counted, never stored). */
function limitIssues(issues: ParseIssue[], max: number, unkept: number): ParseIssue[] {
  if (issues.length <= max && unkept === 0) return issues;
  const rest = issues.slice(max);
  const kept = issues.slice(0, max);
  kept.push({
    line: rest[0]?.line ?? 0,
    severity: 'warning',
    message: `${rest.length + unkept} more issues not listed, over the ${max}-issue limit (the first at this line)`,
  });
  return kept;
}

/** Report invalid UTF-8 and over-long lines once, as the parser consumes them. */
function* reportLineProblems(
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

function dedupeIssues(list: ParseIssue[]): ParseIssue[] {
  const seen = new Set<string>();
  return list.filter((i) => {
    const k = `${i.file ?? ''}|${i.line}|${i.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

export { formatBytes };
