// The single entry point `parseTranscript`, which never throws: unusable input yields a LoadError naming the
// formats tried and what the first line looked like (SPEC §1.1, §1.3). A zip archive (Inspect's `.eval`) is told by
// its magic and offered only to parsers that read archives, which see its entry names. The registry (registry.ts),
// detection (detect.ts), what a parser reads (input.ts) and what every parse goes through after it (finalize.ts)
// are beside it.
import { formatBytes } from '../lib/bytes.ts';
import { preview } from '../lib/json.ts';
import { encodingHint, looksBinary } from '../lib/utf8.ts';
import type { FormatId, ParseIssue, Transcript } from '../model/transcript.ts';
import { type OpenedDatabase, openDatabase, tablesOf } from './database-input.ts';
import { archiveHead, safeSniff, sniffHead } from './detect.ts';
import { dedupeIssues, dropImpossibleUsage, limitIssues, limitThreads } from './finalize.ts';
import {
  countLongLines,
  type DocumentSeen,
  firstBytes,
  type HeldLines,
  makeInput,
  reportLineProblems,
} from './input.ts';
import { DEFAULT_LIMITS, type LoadLimits, overFileLimit } from './limits.ts';
import { PARSERS } from './registry.ts';
import { isSqlite, type SqliteDb, type SqliteOpener } from './sqlite.ts';
import type { FormatParser, ParseInput, SourceFile } from './types.ts';
import { isZip } from './zip-entries.ts';

export { detectFormat } from './detect.ts';
export { fileFromBytes, fileFromText, type HeldLines, heldLines } from './input.ts';
export { APP_MAX_FILE_BYTES, DEFAULT_LIMITS } from './limits.ts';
export { FORMAT_IDS, PARSERS } from './registry.ts';

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
