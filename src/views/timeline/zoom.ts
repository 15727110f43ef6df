// Zoom arithmetic for the cache timeline, on positions in the shown list of requests (inclusive ranges):
// zoom in or out around an anchor (wheel, keys), pan, the range a dragged brush covers, and the breadcrumb trail
// of nested ranges (Firefox Profiler's committed ranges). Pure, so every gesture is a tested function.

export type PosRange = { from: number; to: number };

/** Fewest requests a zoomed range shows. */
export const MIN_SPAN = 2;

/** A range inside [0, n−1] of at least MIN_SPAN requests (or all of them when there are fewer). */
export function clampRange(r: PosRange, n: number): PosRange {
  if (n <= 0) return { from: 0, to: 0 };
  const span = Math.min(n, Math.max(MIN_SPAN, r.to - r.from + 1));
  const from = Math.max(0, Math.min(n - span, Math.round(r.from)));
  return { from, to: from + span - 1 };
}

/** Whether a range shows every request (the same as no zoom). */
export function isFull(r: PosRange, n: number): boolean {
  return r.from <= 0 && r.to >= n - 1;
}

/** Zoom by `factor` (< 1 in, > 1 out) keeping `anchor` (a fractional position) where it is on screen. */
export function zoomAround(r: PosRange, n: number, anchor: number, factor: number): PosRange {
  const span = r.to - r.from + 1;
  const next = Math.max(MIN_SPAN, Math.min(n, Math.round(span * factor)));
  if (next === span) return factor < 1 ? clampRange({ from: r.from + 1, to: r.to - 1 }, n) : widen(r, n);
  const share = span > 0 ? (anchor - r.from) / span : 0.5;
  return clampRange({ from: anchor - share * next, to: anchor - share * next + next - 1 }, n);
}

function widen(r: PosRange, n: number): PosRange {
  return clampRange({ from: r.from - 1, to: r.to + 1 }, n);
}

/** Move the range by `delta` positions, keeping its span. */
export function pan(r: PosRange, n: number, delta: number): PosRange {
  const span = r.to - r.from;
  const from = Math.max(0, Math.min(n - 1 - span, r.from + Math.round(delta)));
  return { from, to: from + span };
}

/** The range of the columns a brush from x0 to x1 touches (`posAt` gives the position under an x). */
export function brushRange(x0: number, x1: number, posAt: (x: number) => number | null, n: number): PosRange | null {
  const a = posAt(Math.min(x0, x1));
  const b = posAt(Math.max(x0, x1));
  if (a === null || b === null) return null;
  return clampRange({ from: Math.min(a, b), to: Math.max(a, b) }, n);
}

/** The breadcrumb trail after the range became `next`: kept up to an ancestor it returns to, extended by a range
 *  inside the last one, otherwise started again. The first crumb is always the whole list. */
export function trailAfter(trail: readonly PosRange[], next: PosRange, n: number): PosRange[] {
  const all = { from: 0, to: Math.max(0, n - 1) };
  const base = trail.length > 0 && trail[0].from === 0 && trail[0].to === all.to ? trail : [all];
  if (isFull(next, n)) return [all];
  const at = base.findIndex((r) => r.from === next.from && r.to === next.to);
  if (at >= 0) return base.slice(0, at + 1);
  for (let i = base.length - 1; i >= 0; i--) {
    const r = base[i];
    if (next.from >= r.from && next.to <= r.to) return [...base.slice(0, i + 1), next];
  }
  return [all, next];
}
