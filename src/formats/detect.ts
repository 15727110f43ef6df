import { cutDeep, isObject, MAX_JSON_DEPTH, tryParseJson } from '../lib/json.ts';
import { DEEP_PLACEHOLDER } from './document.ts';
import { PARSERS } from './registry.ts';
import type { FormatParser, ParseInput, SniffHead } from './types.ts';
import { zipEntries } from './zip-entries.ts';

export function sniffHead(input: ParseInput): SniffHead & { firstLine: string } {
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
export function archiveHead(input: ParseInput): SniffHead & { firstLine: string } {
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

export function safeSniff(p: FormatParser, head: SniffHead): boolean {
  try {
    return p.sniff(head);
  } catch {
    return false;
  }
}
