// Ordered registry of format parsers, content-based detection (the file name is only a hint) and the
// single entry point `parseTranscript`, which never throws: unusable input yields a LoadError naming
// the formats tried and what the first line looked like (SPEC §1.1, §1.3).

import { preview, tryParseJson } from '../lib/json.ts';
import { chunksOf, DEFAULT_MAX_LINE_BYTES, decodeAll, type Line, readLines } from '../lib/lines.ts';
import { looksBinary } from '../lib/utf8.ts';
import type { FormatId, ParseIssue, Transcript } from '../model/transcript.ts';
import { anthropicRequestParser } from './anthropic-request.ts';
import { claudeCodeParser } from './claude-code.ts';
import { claudeTraceParser } from './claude-trace.ts';
import { codexParser } from './codex.ts';
import { inspectParser } from './inspect.ts';
import { openaiChatParser } from './openai-chat.ts';
import { sweAgentParser } from './swe-agent.ts';
import { tierscopeParser } from './tierscope.ts';
import type { FormatParser, ParseInput, SniffHead, SourceFile } from './types.ts';

/** Detection order: most specific first (formats.md §0). */
export const PARSERS: readonly FormatParser[] = [
  tierscopeParser,
  claudeTraceParser,
  codexParser,
  claudeCodeParser,
  openaiChatParser,
  anthropicRequestParser,
  sweAgentParser,
  inspectParser,
];

export const FORMAT_IDS: readonly FormatId[] = PARSERS.map((p) => p.id);

export type LoadLimits = { maxFileBytes: number; maxLineBytes: number };
export const DEFAULT_LIMITS: LoadLimits = { maxFileBytes: 2 * 1024 ** 3, maxLineBytes: DEFAULT_MAX_LINE_BYTES };

export type LoadOk = { ok: true; transcript: Transcript };
export type LoadError = { ok: false; error: string; issues: ParseIssue[] };
export type LoadResult = LoadOk | LoadError;

export type LoadOptions = {
  format?: FormatId;
  limits?: Partial<LoadLimits>;
  progress?: (fraction: number) => void;
};

/** A SourceFile over an in-memory byte buffer. */
export function fileFromBytes(name: string, bytes: Uint8Array, chunkSize = 1 << 20): SourceFile {
  return { name, size: bytes.length, chunks: () => chunksOf(bytes, chunkSize) };
}

/** A SourceFile over a string (tests, paste). */
export function fileFromText(name: string, text: string): SourceFile {
  return fileFromBytes(name, new TextEncoder().encode(text));
}

function makeInput(main: SourceFile, extra: SourceFile[], limits: LoadLimits): ParseInput {
  let docCache: { value: unknown } | undefined;
  return {
    main,
    extra,
    lines: () => readLines(main.chunks(), { maxLineBytes: limits.maxLineBytes }),
    doc: () => {
      if (!docCache) {
        const text = decodeAll(main.chunks());
        const t = text.trimStart();
        const r = t.startsWith('{') || t.startsWith('[') ? tryParseJson(text) : undefined;
        docCache = { value: r?.ok ? r.value : undefined };
      }
      return docCache.value;
    },
  };
}

function firstBytes(file: SourceFile, n: number): Uint8Array {
  for (const c of file.chunks()) return c.subarray(0, n);
  return new Uint8Array();
}

function sniffHead(input: ParseInput): SniffHead & { firstLine: string } {
  const lines: unknown[] = [];
  let firstLine = '';
  let nonEmpty = 0;
  for (const line of input.lines()) {
    if (line.tooLong || line.text.trim() === '') continue;
    if (nonEmpty === 0) firstLine = line.text;
    nonEmpty++;
    const r = tryParseJson(line.text);
    lines.push(r.ok ? r.value : undefined);
    if (nonEmpty >= 20) break;
  }
  const anyLineJson = lines.some((v) => v !== undefined && typeof v === 'object');
  const singleLine = nonEmpty <= 1;
  // A whole-document format is pretty-printed (lines are not JSON) or a single line.
  const doc = !anyLineJson || singleLine ? input.doc() : undefined;
  return { fileName: input.main.name, lines, doc, firstLine };
}

/** Detect the format of an input by content; undefined when nothing matches. */
export function detectFormat(input: ParseInput): FormatParser | undefined {
  const head = sniffHead(input);
  return PARSERS.find((p) => safeSniff(p, head));
}

function safeSniff(p: FormatParser, head: SniffHead): boolean {
  try {
    return p.sniff(head);
  } catch {
    return false;
  }
}

/** Parse a transcript from a main file (plus companion files). Never throws. */
export function parseTranscript(main: SourceFile, extra: SourceFile[] = [], options: LoadOptions = {}): LoadResult {
  const limits: LoadLimits = { ...DEFAULT_LIMITS, ...options.limits };
  if (main.size === 0) return { ok: false, error: `${main.name} is empty (0 bytes): nothing to load.`, issues: [] };
  if (main.size > limits.maxFileBytes) {
    const mb = (n: number) => `${(n / 1024 ** 2).toFixed(0)} MB`;
    return {
      ok: false,
      error: `${main.name} is ${mb(main.size)}, over the ${mb(limits.maxFileBytes)} file-size limit.`,
      issues: [],
    };
  }
  if (looksBinary(firstBytes(main, 8192))) {
    return {
      ok: false,
      error: `${main.name} looks like a binary file (NUL or control bytes in its first 8 KB), not a JSON or JSONL transcript.`,
      issues: [],
    };
  }
  const input = makeInput(main, extra, limits);
  const head = sniffHead(input);
  if (head.lines.length === 0) {
    return { ok: false, error: `${main.name} holds only blank lines (or lines over the size limit).`, issues: [] };
  }
  const parser = options.format
    ? PARSERS.find((p) => p.id === options.format)
    : PARSERS.find((p) => safeSniff(p, head));
  if (!parser) {
    const tried = PARSERS.map((p) => p.id).join(', ');
    const what = options.format ? `Unknown format "${options.format}"` : `Could not recognise ${main.name}`;
    return {
      ok: false,
      error: `${what}: tried ${tried}. The first line looks like: ${preview(head.firstLine, 120)}`,
      issues: [],
    };
  }
  const issues: ParseIssue[] = [];
  const ctx = { issue: (i: ParseIssue) => issues.push(i), progress: options.progress };
  const reporting: ParseInput = {
    ...input,
    lines: () => reportLineProblems(input.lines(), ctx.issue, main.size, ctx.progress),
  };
  try {
    const transcript = parser.parse(reporting, ctx);
    transcript.parseIssues = dedupeIssues([...issues, ...transcript.parseIssues]);
    transcript.meta.fileName ??= main.name;
    return { ok: true, transcript };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return { ok: false, error: `The ${parser.id} parser failed on ${main.name}: ${message}`, issues };
  }
}

/** Report invalid UTF-8 and over-long lines once, as the parser consumes them. */
function* reportLineProblems(
  lines: Iterable<Line>,
  issue: (i: ParseIssue) => void,
  size: number,
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
        message: `line is ${line.byteLength} bytes, over the line-size limit; skipped`,
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
