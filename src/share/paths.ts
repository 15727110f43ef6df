// File paths in free text and tool inputs, for redaction's "keep paths" option: absolute and home paths
// (/a/b, ~/a, ./a, ../a), relative paths with an extension (src/share/codec.ts), Windows paths (C:\a\b).
// URLs are not paths (they name hosts and carry query strings): they are found first and never kept.
import type { Span } from './filler.ts';

const URL_RE = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;
const ABS_PATH = /(?<![\w/.~:<\\+=-])(?:~|\.{1,2})?\/[\w.@+-]+(?:\/[\w.@+-]+)*\/?/g;
// A relative path is a maximal run of segments (taken whole: `(?=(…))\1` does not backtrack into it, so a long run of
// path characters costs one pass, not one per start) that ends in an extension.
const REL_RUN = /(?<![\w/.~:\\-])(?=([\w.@+-]+(?:\/[\w.@+-]+)+))\1/g;
const EXTENSION = /\.[A-Za-z0-9]{1,10}$/;
const WIN_PATH = /\b[A-Za-z]:\\(?:[\w.@+-]+\\)*[\w.@+-]+/g;

const overlaps = (a: Span, b: Span) => a.start < b.end && b.start < a.end;

/** Path spans of a text (sorted, non-overlapping), excluding anything inside a URL. */
export function pathSpans(text: string): Span[] {
  if (!text.includes('/') && !text.includes('\\')) return [];
  const urls: Span[] = [];
  for (const m of text.matchAll(URL_RE)) urls.push({ start: m.index, end: m.index + m[0].length });
  const out: Span[] = [];
  for (const re of [ABS_PATH, REL_RUN, WIN_PATH]) {
    for (const m of text.matchAll(re)) {
      if (re === REL_RUN && !EXTENSION.test(m[0])) continue;
      const s = { start: m.index, end: m.index + m[0].length };
      if (urls.some((u) => overlaps(u, s)) || out.some((o) => overlaps(o, s))) continue;
      out.push(s);
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

const PATH_KEY = /(?:^|[_-])(?:path|paths|file|files|filename|filepath|dir|dirs|directory|cwd|folder|root)$/i;
const CAMEL_PATH_KEY = /[a-z](?:Path|Paths|File|Files|Filename|Dir|Directory|Folder|Root)$/;

/** A tool-input string that is a path as a whole: under a path-like key (file_path, cwd …) and without
 *  whitespace, or a string that is exactly one path. */
export function isPathValue(key: string | undefined, value: string): boolean {
  if (value === '' || value.length > 4096 || /\s/.test(value)) return false;
  if (key !== undefined && (PATH_KEY.test(key) || CAMEL_PATH_KEY.test(key))) return true;
  const spans = pathSpans(value);
  return spans.length === 1 && spans[0].start === 0 && spans[0].end === value.length;
}
