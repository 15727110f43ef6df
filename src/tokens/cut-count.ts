// A head/tail cut of a text without line units (line-units.ts) counted from the last cut of the same text: the text
// is split at piece boundaries both encodings share (boundaryAt), so a cut's count is the count of the text before
// such a boundary near the head, plus the middle (the head's last piece or words, the marker, the tail's first),
// plus the count of the text from such a boundary near the tail on. The two outer counts are kept per text
// (CutAnchors) and moved to the next cut's boundaries by counting only the text between: a drag of tier2Cap then
// tokenizes what the step adds or removes and the middle, not the whole cut.

import { isWhitespace } from './line-units.ts';

/** Where the last cut of a text was split into exactly counted parts: [from, head), ending at a piece boundary, and
 *  [tail, to), starting at one, with their token counts. A text cut whole is split from 0 and to its end; a text
 *  counted by line units (line-units.ts) from the start of the unit holding the head's end and to the end of the
 *  last unit holding tail text. head = from and tail = to: no anchor on that side. */
export type CutAnchors = {
  from: number;
  head: number;
  headTokens: number;
  tail: number;
  to: number;
  tailTokens: number;
};

/** How far from the cut a boundary is looked for (a run without spaces — CJK text — then counts from 0 or to the
 *  end, as a whole count would). */
const REACH = 256;

const LETTER = /\p{L}/u;
const NUMBER = /\p{N}/u;
const MARK = /\p{M}/u;

/** A character's class as the encodings' pre-tokenizer patterns read it: 1 letter, 2 number, 3 whitespace, 0 any
 *  other (punctuation, symbols, marks), -1 a surrogate (not classed: never beside a boundary found here). */
function classOf(c: number): number {
  if (c < 0x80) {
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a)) return 1;
    if (c >= 0x30 && c <= 0x39) return 2;
    return isWhitespace(c) ? 3 : 0;
  }
  if (c >= 0xd800 && c <= 0xdfff) return -1;
  if (isWhitespace(c)) return 3;
  const s = String.fromCharCode(c);
  return LETTER.test(s) ? 1 : NUMBER.test(s) ? 2 : 0;
}

/**
 * Whether a piece of both encodings starts at `text[i]`, whatever comes before i − 1 or after i + 1:
 * - a space between two characters that are not whitespace (JavaScript's `\s`: a space between two ideographic
 *   spaces is inside the piece `\s+(?!\S)` makes), and not before a low surrogate;
 * - after a letter, anything but a letter, a mark or an apostrophe (a letter piece — `\p{L}+` in cl100k_base,
 *   letters and marks with an optional `'s`-like suffix in o200k_base — ends at its last letter; no other piece
 *   holds a letter): a number, whitespace, punctuation such as "、" in CJK text;
 * - after a number, anything but a number (`\p{N}{1,3}` is the only piece that holds one).
 * Neither pattern looks behind, and the one look-ahead (`\s+(?!\S)`) ends a whitespace piece, so the pieces
 * before i and from i are the same counted apart as counted together.
 */
function boundaryAt(text: string, i: number): boolean {
  if (i === 0 || i >= text.length) return false;
  const c = text.charCodeAt(i);
  if (c === 0x20 && i + 1 < text.length) {
    const after = text.charCodeAt(i + 1);
    if (!isWhitespace(text.charCodeAt(i - 1)) && !isWhitespace(after) && !(after >= 0xdc00 && after <= 0xdfff))
      return true;
  }
  const before = classOf(text.charCodeAt(i - 1));
  if (before !== 1 && before !== 2) return false;
  const at = classOf(c);
  if (at === -1 || at === before) return false;
  if (before === 2) return true;
  return at !== 0 || (c !== 0x27 && !MARK.test(String.fromCharCode(c)));
}

/** The piece boundary nearest before `head` whose next character is still in the head, after `from` and within
 *  REACH; `from` when there is none. */
function headBoundary(text: string, from: number, head: number): number {
  for (let i = head - 2; i > from && i >= head - REACH; i--) if (boundaryAt(text, i)) return i;
  return from;
}

/** The piece boundary nearest after `start` (at least one character past it, which is in the tail) and before
 *  `to`, within REACH of `start`; `to` when there is none. */
function tailBoundary(text: string, start: number, to: number): number {
  for (let i = start + 1; i < to && i <= start + REACH; i++) if (boundaryAt(text, i)) return i;
  return to;
}

/** Counts the parts of `cut` = text[0, head) + marker + text[tail, end) (the whole cut from 0, or its line units),
 *  each from the anchors of the text's last cut (`prev`; undefined: the first) where the part holds the head's end
 *  or tail text; `count` counts a text exactly. `anchors()` then gives the anchors to keep for the text's next
 *  cut. */
export function cutCounter(
  text: string,
  cut: string,
  head: number,
  tail: number,
  count: (s: string) => number,
  prev: CutAnchors | undefined,
): { part: (s: string, start: number) => number; anchors: () => CutAnchors } {
  /** Where the tail's text starts in `cut`. */
  const tailAt = cut.length - (text.length - tail);
  const made: CutAnchors = { from: 0, head: 0, headTokens: 0, tail: text.length, to: text.length, tailTokens: 0 };
  const part = (s: string, start: number): number => {
    const end = start + s.length;
    let lo = 0;
    let hi = s.length;
    let n = 0;
    if (start < head && end > head) {
      // The part holds the head's end: text[start, a) is counted from the last cut's anchor.
      const a = headBoundary(text, start, head);
      if (a > start) {
        const k = prefixTokens(text, start, a, count, prev);
        Object.assign(made, { from: start, head: a, headTokens: k });
        n += k;
        lo = a - start;
      }
    }
    if (end > tailAt) {
      // The part holds tail text, text[from, to): text[b, to) is counted from the last cut's anchor.
      const from = Math.max(start, tailAt) - tailAt + tail;
      const to = end - tailAt + tail;
      const b = tailBoundary(text, from, to);
      if (b < to) {
        const k = suffixTokens(text, b, to, count, prev);
        Object.assign(made, { tail: b, to, tailTokens: k });
        n += k;
        hi = s.length - (to - b);
      }
    }
    if (lo < hi) n += count(s.slice(lo, hi));
    return n;
  };
  return { part, anchors: () => made };
}

/** Tokens of text[from, a), from the earlier anchor when it starts at `from` too (the text between two boundaries
 *  counted). */
function prefixTokens(
  text: string,
  from: number,
  a: number,
  count: (s: string) => number,
  prev: CutAnchors | undefined,
): number {
  if (!prev || prev.from !== from || prev.head === from) return count(text.slice(from, a));
  if (prev.head === a) return prev.headTokens;
  return a > prev.head
    ? prev.headTokens + count(text.slice(prev.head, a))
    : prev.headTokens - count(text.slice(a, prev.head));
}

/** Tokens of text[b, to), likewise. */
function suffixTokens(
  text: string,
  b: number,
  to: number,
  count: (s: string) => number,
  prev: CutAnchors | undefined,
): number {
  if (!prev || prev.to !== to || prev.tail === to) return count(text.slice(b, to));
  if (prev.tail === b) return prev.tailTokens;
  return b < prev.tail
    ? prev.tailTokens + count(text.slice(b, prev.tail))
    : prev.tailTokens - count(text.slice(prev.tail, b));
}
