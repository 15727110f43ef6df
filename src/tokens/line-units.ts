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
function isWhitespace(c: number): boolean {
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

/** Calls `unit` with each part of `text` between safe cuts, in order (their concatenation is `text`). */
export function forEachLineUnit(text: string, unit: (part: string) => void): void {
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i + 1 < text.length; i = text.indexOf('\n', i + 1)) {
    let j = i + 1;
    let next = text.charCodeAt(j);
    // Skip the line's indentation: a run of whitespace without another line break.
    while (next !== 0x0a && next !== 0x0d && isWhitespace(next) && j + 1 < text.length) next = text.charCodeAt(++j);
    if (isWhitespace(next) || next === 0x2f) continue;
    unit(text.slice(start, i + 1));
    start = i + 1;
  }
  unit(start === 0 ? text : text.slice(start));
}
