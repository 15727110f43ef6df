// The whole main file read as one JSON document (Inspect .json, OpenAI chat .json, SWE-agent .traj, bundles),
// saying what went wrong instead of "not a document" (issue 19, item 10): a value nested past MAX_JSON_DEPTH is
// replaced by a placeholder and the rest kept, with an issue; a file cut mid-write is named truncated at its byte.
import { cutDeep, MAX_JSON_DEPTH, openAtEnd, preview, tryParseJson } from '../lib/json.ts';
import { decodeAll } from '../lib/lines.ts';
import { utf8Length } from '../lib/runes.ts';
import type { ParseIssue } from '../model/transcript.ts';
import type { SourceFile } from './types.ts';

/** The document's value (undefined when the file is not one), the issue of what was cut from it, or why it is
 *  not one when it starts like one: cut off mid-write (`truncated`), or not JSON (`invalid`). */
export type DocumentRead = { value: unknown; cut?: ParseIssue; truncated?: string; invalid?: string };

export const DEEP_PLACEHOLDER = `[nested deeper than ${MAX_JSON_DEPTH} levels: not loaded]`;

const lineAt = (text: string, i: number) => text.slice(0, i).split('\n').length;

export function readDocument(main: SourceFile): DocumentRead {
  let text: string;
  try {
    text = decodeAll(main.chunks());
  } catch {
    return { value: undefined }; // RangeError: the text is longer than a string can be
  }
  const t = text.trimStart();
  if (!t.startsWith('{') && !t.startsWith('[')) return { value: undefined };
  const deep = cutDeep(text, MAX_JSON_DEPTH, DEEP_PLACEHOLDER);
  const r = tryParseJson(deep.text);
  if (r.ok) {
    if (deep.cuts.length === 0) return { value: r.value };
    const at = deep.cuts[0];
    const n = deep.cuts.length;
    const message = `${n === 1 ? 'a value' : `${n} values`} nested deeper than ${MAX_JSON_DEPTH} levels (the first at byte ${utf8Length(text.slice(0, at))}) replaced by "${DEEP_PLACEHOLDER}"; the rest of the document loaded`;
    return { value: r.value, cut: { line: lineAt(text, at), severity: 'error', message } };
  }
  const end = openAtEnd(text);
  const atEnd = r.column === undefined || r.column - 1 >= deep.text.trimEnd().length;
  if (atEnd && (end.open > 0 || end.inString)) {
    const open = end.open === 1 ? '1 object or array' : `${end.open} objects or arrays`;
    const inside = end.inString
      ? end.open > 0
        ? `inside a string, with ${open} still open`
        : 'inside a string'
      : `with ${open} still open`;
    return {
      value: undefined,
      truncated: `is truncated: its JSON document stops at byte ${main.size} ${inside} (the file was cut off while being written or copied), so it cannot be read as a whole`,
    };
  }
  const line = r.column === undefined ? '' : ` (line ${lineAt(deep.text, r.column - 1)})`;
  return { value: undefined, invalid: `as one JSON document it is not valid JSON${line}: ${preview(r.message, 120)}` };
}
