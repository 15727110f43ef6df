// JSON-lines iteration shared by the line-based parsers: yields each non-empty line parsed as JSON
// and records a ParseIssue (with line number and column) for every line that is not valid JSON,
// including a truncated last line, so one bad line never stops the load (SPEC §1.3).

import { preview, tryParseJson } from '../lib/json.ts';
import type { Line } from '../lib/lines.ts';
import type { ParseContext, ParseInput } from './types.ts';

export type JsonLine = { line: Line; value: unknown };

// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL padding is what this finds
const NULS = /^\u0000+\r?$/;

/** Parse every non-empty line of the main file; bad lines become issues and are skipped. */
export function* jsonLines(input: ParseInput, ctx: ParseContext): Generator<JsonLine> {
  yield* jsonLinesOf(input.lines(), ctx);
}

export function* jsonLinesOf(lines: Iterable<Line>, ctx: ParseContext, file?: string): Generator<JsonLine> {
  for (const line of lines) {
    if (line.tooLong) continue; // reported by the input wrapper
    if (line.text.trim() === '') continue;
    // A line of NUL bytes is what a crash leaves where a write was preallocated: padding, not a broken record.
    if (NULS.test(line.text)) {
      ctx.issue({
        line: line.no,
        severity: 'warning',
        message: `${line.text.length} NUL bytes (padding an interrupted write leaves in the file); skipped`,
        ...(file ? { file } : {}),
      });
      continue;
    }
    // Kept on the line: a growing file's held lines (formats/index.ts HeldLines) are parsed once.
    line.parsed ??= tryParseJson(line.text);
    const r = line.parsed;
    if (r.ok) {
      yield { line, value: r.value };
      continue;
    }
    const what = r.tooDeep
      ? 'JSON too deep to load (skipped)'
      : line.unterminated
        ? 'truncated last line (no closing newline and not valid JSON)'
        : 'not valid JSON';
    ctx.issue({
      line: line.no,
      column: r.column,
      severity: 'error',
      message: `${what}: ${r.message}; starts with "${preview(line.text, 60)}"`,
      ...(file ? { file } : {}),
    });
  }
}

/** Whether the file's first non-empty line is a JSON value of its own (JSON lines), not the start of one
 *  pretty-printed document (a line too long to read counts as a line). */
export function linesAreJson(input: ParseInput): boolean {
  for (const l of input.lines()) {
    if (l.tooLong) return true;
    if (l.text.trim() === '') continue;
    l.parsed ??= tryParseJson(l.text);
    return l.parsed.ok;
  }
  return true;
}
