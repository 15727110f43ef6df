// What the detail pane shows of a huge value: strings longer than CLIP_CHARS keep their head and a visible
// note of how much is not shown, so Monaco lays out a 10 MB tool result in tens of milliseconds instead of
// blocking the page for half a second. Only the view is cut: the transcript, its counts and exports keep
// every byte.

export const CLIP_CHARS = 200_000;
const HEAD = 100_000;

/** `s` cut to its first HEAD characters (never inside a surrogate pair) plus a note, when over CLIP_CHARS. */
export function clipText(s: string): string {
  if (s.length <= CLIP_CHARS) return s;
  let end = HEAD;
  const c = s.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  const rest = s.length - end;
  return `${s.slice(0, end)} … [${rest.toLocaleString('en-US')} more characters not shown in the viewer; the transcript keeps them]`;
}

/** Pretty JSON of `value` with every long string clipped. */
export function clippedJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'string' ? clipText(v) : v), 2);
}
