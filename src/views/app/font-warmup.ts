// Warm the browser's font matching while the page is idle after start. The first time a family, weight,
// style or script is laid out, Chromium asks its font service to match it (25 ms for one face on this
// machine); left alone, that cost lands in the first frame after a large log loads, the frame that is
// already the longest. One hidden line per face the stylesheet uses, laid out once, moves it to idle time.

/** Scripts and symbols transcripts and our marks use: Latin, Greek, Cyrillic, CJK, Hangul, arrows, emoji. */
const SAMPLE = 'Aa0 ΣΩ жЯ ↳ → ≈ ✎ ✂ ⌫ ⚠ ✓ ✕ ▼ ◆ ↑ … 日本語の文 中文 한국어 😀';
const FAMILIES = ['var(--ui)', 'var(--mono)'];
const WEIGHTS = ['400', '500', '600', '700'];
const STYLES = ['normal', 'italic'];

export function warmFonts(doc: Document = document): void {
  const box = doc.createElement('div');
  box.setAttribute('aria-hidden', 'true');
  Object.assign(box.style, { position: 'absolute', left: '-10000px', top: '0', visibility: 'hidden' });
  for (const fontFamily of FAMILIES)
    for (const fontWeight of WEIGHTS)
      for (const fontStyle of STYLES) {
        const line = doc.createElement('div');
        Object.assign(line.style, { fontFamily, fontWeight, fontStyle, fontSize: '12px', whiteSpace: 'nowrap' });
        line.textContent = SAMPLE;
        box.append(line);
      }
  doc.body.append(box);
  void box.offsetWidth; // lay it out now: shaping the text matches every face and fallback
  box.remove();
}

/** Run `fn` when the page is idle (or soon, where requestIdleCallback is missing). */
export function whenIdle(fn: () => void, timeout = 2000): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => fn(), { timeout });
  else setTimeout(fn, 200);
}

/** Code points already laid out by warmGlyphs (the browser keeps their fallback fonts from then on). */
const warmed = new Set<number>();

/** Lay out, in hidden lines of `className`, the characters of `texts` that the primary font may lack
 *  (beyond Latin), a few dozen per task. Without a font for them Chromium asks its font service for a
 *  fallback per character (0.15 ms each here): 300 distinct CJK characters in the first rows of a log put
 *  45 ms into the frame that shows them. Warmed here in small tasks first, that frame only shapes text. */
export async function warmGlyphs(texts: Iterable<string>, className: string, perTask = 40): Promise<void> {
  const fresh: string[] = [];
  for (const t of texts)
    for (const ch of t) {
      const cp = ch.codePointAt(0) ?? 0;
      if (cp < 0x250 || warmed.has(cp)) continue;
      warmed.add(cp);
      fresh.push(ch);
    }
  for (let i = 0; i < fresh.length; i += perTask) {
    const box = document.createElement('div');
    box.setAttribute('aria-hidden', 'true');
    box.className = className;
    Object.assign(box.style, { position: 'absolute', left: '-10000px', top: '0', visibility: 'hidden' });
    box.textContent = fresh.slice(i, i + perTask).join(' ');
    document.body.append(box);
    void box.offsetWidth;
    box.remove();
    await new Promise((r) => setTimeout(r, 0));
  }
}
