// The timeline's gestures and marker layout as functions: zoom around the pointer keeps the request under it in
// place, panning keeps the span, a brush covers the columns it touches, breadcrumbs nest and pop; markers closer
// than a glyph cluster, hit intervals never overlap and name the nearest marker; the time axis draws a long pause
// as a narrow break and never lets two labels collide.
import { describe, expect, it } from 'vitest';
import { itemAt, layoutRow } from '../../../src/views/timeline/marker-layout.ts';
import { pauseWords, timeScale } from '../../../src/views/timeline/time-scale.ts';
import {
  brushRange,
  clampRange,
  isFull,
  MIN_SPAN,
  pan,
  trailAfter,
  zoomAround,
} from '../../../src/views/timeline/zoom.ts';

describe('zoom', () => {
  it('zooms around an anchor, keeping it at the same share of the view', () => {
    const r = zoomAround({ from: 0, to: 199 }, 200, 150, 0.5);
    expect(r.to - r.from + 1).toBe(100);
    expect((150 - r.from) / 100).toBeCloseTo(0.75, 1);
    // Out again: back to everything, never past the ends.
    expect(zoomAround(r, 200, 150, 4)).toEqual({ from: 0, to: 199 });
    // A factor too small to change the span still moves one step in.
    expect(zoomAround({ from: 10, to: 13 }, 200, 11, 0.9)).toEqual({ from: 11, to: 12 });
    expect(zoomAround({ from: 11, to: 12 }, 200, 11, 0.1).to - 11 + 1).toBeGreaterThanOrEqual(MIN_SPAN);
  });

  it('pans with the span kept and clamps at the ends', () => {
    expect(pan({ from: 10, to: 19 }, 100, 5)).toEqual({ from: 15, to: 24 });
    expect(pan({ from: 10, to: 19 }, 100, -50)).toEqual({ from: 0, to: 9 });
    expect(pan({ from: 10, to: 19 }, 100, 500)).toEqual({ from: 90, to: 99 });
  });

  it('takes the columns a brush touches, in either direction', () => {
    const posAt = (x: number) => (x < 0 || x > 100 ? null : Math.floor(x / 10));
    expect(brushRange(25, 61, posAt, 10)).toEqual({ from: 2, to: 6 });
    expect(brushRange(61, 25, posAt, 10)).toEqual({ from: 2, to: 6 });
    expect(brushRange(-5, 50, posAt, 10)).toBeNull();
    expect(clampRange({ from: 4, to: 4 }, 10)).toEqual({ from: 4, to: 5 });
    expect(isFull({ from: 0, to: 9 }, 10)).toBe(true);
  });

  it('keeps breadcrumbs of nested ranges and pops back to an ancestor', () => {
    let t = trailAfter([], { from: 0, to: 99 }, 100);
    expect(t).toEqual([{ from: 0, to: 99 }]);
    t = trailAfter(t, { from: 20, to: 80 }, 100);
    t = trailAfter(t, { from: 40, to: 50 }, 100);
    expect(t).toHaveLength(3);
    expect(trailAfter(t, { from: 20, to: 80 }, 100)).toHaveLength(2);
    // A range outside the last one branches from the nearest crumb that holds it.
    expect(trailAfter(t, { from: 60, to: 70 }, 100)).toEqual([
      { from: 0, to: 99 },
      { from: 20, to: 80 },
      { from: 60, to: 70 },
    ]);
    expect(trailAfter(t, { from: 0, to: 99 }, 100)).toEqual([{ from: 0, to: 99 }]);
    // A new list (another thread) starts over.
    expect(trailAfter(t, { from: 3, to: 5 }, 10)).toEqual([
      { from: 0, to: 9 },
      { from: 3, to: 5 },
    ]);
  });
});

describe('marker layout', () => {
  it('clusters markers closer than a glyph and gives every item its own hit interval', () => {
    const xs = [100, 105, 112, 140, 160, 400];
    const row = layoutRow(xs, (x) => x);
    expect(row.map((p) => p.members)).toEqual([[100, 105, 112], [140], [160], [400]]);
    for (let i = 1; i < row.length; i++) expect(row[i - 1].x1).toBeLessThanOrEqual(row[i].x0);
    // The pointer names the nearest item, and nothing far from every glyph.
    expect(itemAt(row, 148)?.members).toEqual([140]);
    expect(itemAt(row, 152)?.members).toEqual([160]);
    expect(itemAt(row, 118)?.members).toEqual([100, 105, 112]);
    expect(itemAt(row, 300)).toBeUndefined();
    expect(itemAt(row, 395)?.members).toEqual([400]);
    // Each marker's own centre hits it (what a pointer on the glyph, or a test's hover, does).
    for (const p of row) expect(itemAt(row, p.x)).toBe(p);
    // A break on every pixel makes clusters side by side, each under three glyphs wide.
    const dense = layoutRow(
      Array.from({ length: 1000 }, (_, i) => i * 0.5),
      (x) => x,
    );
    expect(dense.length).toBeGreaterThan(10);
    for (const p of dense) expect(p.x1 - p.x0).toBeLessThan(3 * 11 + 2 * 9 + 1);
  });
});

describe('time scale', () => {
  const H = 3_600_000;
  it('draws a long pause as a narrow break and keeps the rest linear', () => {
    const t0 = Date.UTC(2025, 11, 6, 12, 7);
    const times = [t0, t0 + 60_000, t0 + 120_000, t0 + 19 * H, t0 + 19 * H + 60_000];
    const s = timeScale(times, 80, 1000);
    expect(s.gaps).toHaveLength(1);
    expect(s.gaps[0].ms).toBe(19 * H - 120_000);
    expect(pauseWords(s.gaps[0].ms)).toBe('19 h');
    // Linear inside a stretch: equal minutes, equal pixels.
    expect(s.xs[1] - s.xs[0]).toBeCloseTo(s.xs[2] - s.xs[1]);
    expect(s.xs[4] - s.xs[3]).toBeCloseTo(s.xs[1] - s.xs[0]);
    expect(s.xs[3]).toBeGreaterThan(s.gaps[0].x + s.gaps[0].w - 1);
    expect(s.xs[4]).toBeLessThanOrEqual(1080);
    // The stretch after the pause is labelled with its date, and no two labels are closer than 60 px.
    expect(s.ticks.some((t) => t.label.startsWith('12-07'))).toBe(true);
    for (let i = 1; i < s.ticks.length; i++) expect(s.ticks[i].x - s.ticks[i - 1].x).toBeGreaterThanOrEqual(60);
  });

  it('spreads requests of one instant evenly and handles a single request', () => {
    const s = timeScale([5, 5, 5], 0, 300);
    expect(s.xs[0]).toBeLessThan(s.xs[1]);
    expect(timeScale([5], 0, 300).xs).toHaveLength(1);
  });
});
