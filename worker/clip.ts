// What the detail pane shows of a huge value: strings longer than CLIP_CHARS keep their head, and arrays
// longer than CLIP_ITEMS their first items, with a visible note of how much is not shown — so Monaco lays out
// a 10 MB tool result or a 20,000-edit tool input in tens of milliseconds instead of blocking the page for
// half a second. Only the view is cut: the transcript, its counts and exports keep every byte.

import { grouped } from '../src/lib/digits.ts';

export const CLIP_CHARS = 200_000;
export const CLIP_ITEMS = 2_000;
const HEAD = 100_000;

/** `s` cut to its first HEAD characters (never inside a surrogate pair) plus a note, when over CLIP_CHARS. */
export function clipText(s: string): string {
  if (s.length <= CLIP_CHARS) return s;
  let end = HEAD;
  const c = s.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  const rest = s.length - end;
  return `${s.slice(0, end)} … [${grouped(rest)} more characters not shown in the viewer; the transcript keeps them]`;
}

function clipItems(a: unknown[]): unknown[] {
  if (a.length <= CLIP_ITEMS) return a;
  const rest = a.length - CLIP_ITEMS;
  return [
    ...a.slice(0, CLIP_ITEMS),
    `… [${grouped(rest)} more items not shown in the viewer; the transcript keeps them]`,
  ];
}

/** Pretty JSON of `value` with every long string and long array clipped. */
export function clippedJson(value: unknown): string {
  return JSON.stringify(
    value,
    (_k, v: unknown) => (typeof v === 'string' ? clipText(v) : Array.isArray(v) ? clipItems(v) : v),
    2,
  );
}
