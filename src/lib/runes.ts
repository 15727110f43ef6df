// Rune (Unicode code point) helpers. SPEC §4 measures thresholds, previews and cuts in runes and
// requires every cut to be rune-safe: never split a surrogate pair.

/** A high surrogate, and a surrogate pair (code units: no `u` flag). */
const HIGH = /[\uD800-\uDBFF]/;
const PAIR = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;

/** Number of code points in `s` (surrogate pairs count once). The regex engine scans faster than a charCodeAt loop
 *  (2–4× on texts of the logs, and a one-byte string holds no surrogate at all), and most texts have no pair. */
export function runeCount(s: string): number {
  if (!HIGH.test(s)) return s.length;
  let n = s.length;
  PAIR.lastIndex = 0;
  while (PAIR.test(s)) n--;
  return n;
}

/** UTF-16 offset just after the first `runes` code points of `s` (clamped to s.length). */
function runeOffset(s: string, runes: number): number {
  if (runes <= 0) return 0;
  let i = 0;
  let r = 0;
  while (i < s.length && r < runes) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      i += d >= 0xdc00 && d <= 0xdfff ? 2 : 1;
    } else i++;
    r++;
  }
  return i;
}

/** The first `runes` code points of `s`. */
export function headRunes(s: string, runes: number): string {
  return s.slice(0, runeOffset(s, runes));
}

/** UTF-16 offset where the last `runes` code points of `s` start (0 when `s` has no more), read from the end. */
export function tailRunesStart(s: string, runes: number): number {
  let i = s.length;
  for (let r = 0; r < runes && i > 0; r++) {
    const c = s.charCodeAt(i - 1);
    // A low surrogate after a high one ends a pair (the same pairing a forward read makes).
    if (c >= 0xdc00 && c <= 0xdfff && i >= 2) {
      const h = s.charCodeAt(i - 2);
      i -= h >= 0xd800 && h <= 0xdbff ? 2 : 1;
    } else i--;
  }
  return i;
}

/** The last `runes` code points of `s`. */
export function tailRunes(s: string, runes: number): string {
  if (runes <= 0) return '';
  const total = runeCount(s);
  if (runes >= total) return s;
  return s.slice(runeOffset(s, total - runes));
}

/** Byte length of `s` encoded as UTF-8, without allocating. */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}
