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
