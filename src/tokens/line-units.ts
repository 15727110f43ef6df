// Where a text may be cut so that its token count is the sum of its parts' counts: right after a "\n" followed by a
// run of whitespace holding no "\r" or "\n" (often empty) and then a character that is neither whitespace nor "/"
// — the line break before a "     1\t" of a numbered file listing qualifies. In both encodings' pre-tokenizer
// patterns (o200k_base, cl100k_base) no piece runs across such a point: a piece reaching the "\n" is a newline run
// (`\s*[\r\n]+`, tried before the other whitespace pieces, ends at the last newline of its run) or punctuation's
// optional trailing newlines (which stop at anything but "\r", "\n" or "/"); a letter piece cannot start with
// "\n"; nothing looks behind — and BPE merges stay inside pieces. So a long text is counted line by line, each
// line once (tokenizer.ts): the texts the pipeline makes from log text (truncations, summaries) share most lines.

/** Texts at least this long are counted line by line (each line once, tokenizer.ts), and the counting pool
 *  returns their lines' counts (count-pool.ts). */
export const BY_LINES = 1024;

/** JavaScript's `\s` (the patterns' whitespace class). */
export function isWhitespace(c: number): boolean {
  return (
    (c >= 0x09 && c <= 0x0d) ||
    c === 0x20 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** Whether `i` (just after a "\n") is a safe cut of `text`: the whitespace after it holds no line break and ends at
 *  a character that is neither whitespace nor "/". */
function safeAt(text: string, i: number): boolean {
  let next = text.charCodeAt(i);
  // Skip the line's indentation: a run of whitespace without another line break.
  while (next !== 0x0a && next !== 0x0d && isWhitespace(next) && i + 1 < text.length) next = text.charCodeAt(++i);
  return !(isWhitespace(next) || next === 0x2f);
}

/** Calls `unit` with each part of `text` between safe cuts and where it starts, in order (their concatenation is
 *  `text`). */
export function forEachLineUnit(text: string, unit: (part: string, start: number) => void): void {
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i + 1 < text.length; i = text.indexOf('\n', i + 1)) {
    if (!safeAt(text, i + 1)) continue;
    unit(text.slice(start, i + 1), start);
    start = i + 1;
  }
  unit(start === 0 ? text : text.slice(start), start);
}

/**
 * The line-unit counts of `cut`, which is `text` with [head, tail) replaced by a marker (a head/tail truncation
 * the caller made already), from the counts
 * of `text`'s own units: the units wholly before the head's last line and after the tail's first are kept as they
 * are, and only the part between — that line, the marker, that line — is cut into units and counted (`count`,
 * with where each unit starts in `cut`). Only the kept head and tail are scanned. undefined when `units` cannot be
 * `text`'s. The sum of the result is the exact count of the cut text.
 */
export function cutUnits(
  text: string,
  units: ArrayLike<number>,
  head: number,
  tail: number,
  cut: string,
  count: (part: string, start: number) => number,
): Uint32Array | undefined {
  if (head > tail || tail > text.length) return undefined;
  // Safe cuts before the head's end, ascending: the units ending there are kept, but for the last ones whose start
  // is no safe cut of the cut text (their indentation runs into the marker).
  const before: number[] = [];
  for (let i = text.indexOf('\n'); i !== -1 && i + 1 < head; i = text.indexOf('\n', i + 1))
    if (safeAt(text, i + 1)) before.push(i + 1);
  let a = before.length;
  while (a > 0 && !safeAt(cut, before[a - 1])) a--;
  const from = a > 0 ? before[a - 1] : 0;
  // Safe cuts after the tail's start, from the end: the units after the first of them are kept as they are.
  let after = 0;
  let to = text.length;
  const last = text.length < 2 ? -1 : text.lastIndexOf('\n', text.length - 2);
  for (let i = last; i !== -1 && i >= tail; i = i === 0 ? -1 : text.lastIndexOf('\n', i - 1)) {
    if (safeAt(text, i + 1)) {
      after++;
      to = i + 1;
    }
  }
  if (before.length + after + 1 > units.length) return undefined;
  const middle = cut.slice(from, cut.length - (text.length - to));
  const made: number[] = [];
  forEachLineUnit(middle, (part, start) => {
    made.push(count(part, from + start));
  });
  const out = new Uint32Array(a + made.length + after);
  for (let k = 0; k < a; k++) out[k] = units[k];
  out.set(made, a);
  for (let k = 0; k < after; k++) out[a + made.length + k] = units[units.length - after + k];
  return out;
}
