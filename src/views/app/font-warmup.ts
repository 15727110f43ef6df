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
  for (const fontFamily of FAMILIES)
    for (const fontWeight of WEIGHTS)
      for (const fontStyle of STYLES) {
        const line = doc.createElement('div');
        Object.assign(line.style, { fontFamily, fontWeight, fontStyle, fontSize: '12px', whiteSpace: 'nowrap' });
        line.textContent = SAMPLE;
        box.append(line);
      }
  layOutHidden(box);
}

/** Lay `box` out once, off screen and invisible, and take it away: shaping its text matches every face and
 *  fallback font it needs, and the browser keeps them. */
function layOutHidden(box: HTMLElement): void {
  box.setAttribute('aria-hidden', 'true');
  Object.assign(box.style, { position: 'absolute', left: '-10000px', top: '0', visibility: 'hidden' });
  box.ownerDocument.body.append(box);
  void box.offsetWidth;
  box.remove();
}

/** Run `fn` when the page is idle (or soon, where requestIdleCallback is missing). */
export function whenIdle(fn: () => void, timeout = 2000): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => fn(), { timeout });
  else setTimeout(fn, 200);
}

/** Code points already laid out by warmGlyphs (the browser keeps their fallback fonts from then on). */
const warmed = new Set<number>();
/** Calls run one after another: a later call must not pass characters an earlier one has yet to lay out. */
let queue: Promise<void> = Promise.resolve();

/** Lay out, in hidden lines of `className`, the characters of `texts` that the primary font may lack
 *  (beyond Latin), a few dozen per task. Without a font for them Chromium asks its font service for a
 *  fallback per character (0.15 ms each here): 300 distinct CJK characters in the first rows of a log put
 *  45 ms into the frame that shows them. Warmed here in small tasks first, that frame only shapes text. */
export function warmGlyphs(texts: Iterable<string>, className: string, perTask = 40): Promise<void> {
  queue = queue.then(async () => {
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
      box.className = className;
      box.textContent = fresh.slice(i, i + perTask).join(' ');
      layOutHidden(box);
      await new Promise((r) => setTimeout(r, 0));
    }
  });
  return queue;
}
