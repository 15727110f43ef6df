// A head/tail cut of a text without line units (line-units.ts) counted from the last cut of the same text: a space
// between two non-whitespace characters is a piece boundary in both encodings (the piece before ends at the
// non-space, the next starts with the space; bpe.ts cuts long texts there too), so a cut's count is the count of
// the text before such a space near the head, plus the middle (the head's last words, the marker, the tail's first
// words), plus the count of the text from such a space near the tail on. The two outer counts are kept per text
// (CutAnchors) and moved to the next cut's boundaries by counting only the text between: a drag of tier2Cap then
// tokenizes what the step adds or removes and the middle, not the whole cut.

import { isWhitespace } from './line-units.ts';

/** Where the last cut of a text was split into exactly counted parts: the prefix [0, head) and the suffix
 *  [tail, end), each ending or starting at a piece boundary, with their token counts. */
export type CutAnchors = { head: number; headTokens: number; tail: number; tailTokens: number };

/** How far from the cut a boundary is looked for (a run without spaces — CJK text — then counts from 0 or to the
 *  end, as a whole count would). */
const REACH = 256;

/** Whether `text[i]` is a space between two characters that are not whitespace (JavaScript's `\s`: a space between
 *  two ideographic spaces is inside the piece `\s+(?!\S)` makes), and not before a low surrogate. */
function boundaryAt(text: string, i: number): boolean {
  if (text.charCodeAt(i) !== 0x20 || i === 0 || i + 1 >= text.length) return false;
  const after = text.charCodeAt(i + 1);
  return !isWhitespace(text.charCodeAt(i - 1)) && !isWhitespace(after) && !(after >= 0xdc00 && after <= 0xdfff);
}

/**
 * The token count of `cut` = text[0, head) + marker + text[tail, end), and the anchors to keep for the next cut of
 * `text`. `prev`: the anchors of an earlier cut of the same text (undefined: the first). `count` counts a text
 * exactly.
 */
export function countCut(
  text: string,
  cut: string,
  head: number,
  tail: number,
  count: (s: string) => number,
  prev: CutAnchors | undefined,
): { tokens: number; anchors: CutAnchors } {
  // A boundary before the head whose next character is still in the head, and one after the tail whose previous
  // character is in the tail: both are then boundaries of the cut text too (the characters around them are kept).
  let a = 0;
  for (let i = head - 2; i > 0 && i >= head - REACH; i--)
    if (boundaryAt(text, i)) {
      a = i;
      break;
    }
  let b = text.length;
  for (let i = tail + 1; i + 1 < text.length && i <= tail + REACH; i++)
    if (boundaryAt(text, i)) {
      b = i;
      break;
    }
  const headTokens = prefixTokens(text, a, count, prev);
  const tailTokens = suffixTokens(text, b, count, prev);
  const middle = cut.slice(a, cut.length - (text.length - b));
  return { tokens: headTokens + count(middle) + tailTokens, anchors: { head: a, headTokens, tail: b, tailTokens } };
}

/** Tokens of text[0, a), from the earlier anchor when there is one (the text between two boundaries counted). */
function prefixTokens(text: string, a: number, count: (s: string) => number, prev: CutAnchors | undefined): number {
  if (a === 0) return 0;
  if (!prev || prev.head === 0) return count(text.slice(0, a));
  if (prev.head === a) return prev.headTokens;
  return a > prev.head
    ? prev.headTokens + count(text.slice(prev.head, a))
    : prev.headTokens - count(text.slice(a, prev.head));
}

/** Tokens of text[b, end), likewise. */
function suffixTokens(text: string, b: number, count: (s: string) => number, prev: CutAnchors | undefined): number {
  if (b === text.length) return 0;
  if (!prev || prev.tail === text.length) return count(text.slice(b));
  if (prev.tail === b) return prev.tailTokens;
  return b < prev.tail
    ? prev.tailTokens + count(text.slice(b, prev.tail))
    : prev.tailTokens - count(text.slice(prev.tail, b));
}
