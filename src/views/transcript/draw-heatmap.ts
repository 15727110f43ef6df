// Drawing of the whole-transcript token strip: one band per message (or the largest message of each
// pixel row when there are more messages than pixels), colored with the shared heat scale, the
// selected message as a line and the list's viewport as a frame. Pure canvas code, no React.
import type { Row } from '../../protocol/index.ts';
import { heatLevel } from '../common/heat.ts';

export type HeatmapStyle = { bg: string; frame: string; frameFill: string; selection: string; pairing: string };

/** Tallest band of one message: a short transcript fills the top of the strip, like a minimap. */
export const MAX_BAND = 8;

/** Height of the strip actually used by n messages on a panel of height h. */
export function usedHeight(n: number, h: number): number {
  return Math.min(h, n * MAX_BAND);
}

/** y range [y0, y1) of message position i of n on a panel of height h. */
export function bandOf(i: number, n: number, h: number): [number, number] {
  const u = usedHeight(n, h);
  const y0 = Math.floor((i * u) / n);
  return [y0, Math.max(y0 + 1, Math.floor(((i + 1) * u) / n))];
}

/** Message position under pixel row y (the last one below the used strip). */
export function positionAt(y: number, n: number, h: number): number {
  const u = usedHeight(n, h);
  return Math.max(0, Math.min(n - 1, Math.floor((y / u) * n)));
}

export function drawHeatmap(
  ctx: CanvasRenderingContext2D,
  w: number,
  h: number,
  rows: readonly Row[],
  opts: {
    style: HeatmapStyle;
    viewport: { first: number; last: number } | null;
    selected: number | null;
    marked: ReadonlySet<number>;
  },
): void {
  const n = rows.length;
  ctx.fillStyle = opts.style.bg;
  ctx.fillRect(0, 0, w, h);
  if (n === 0) return;
  let max = 0;
  for (const r of rows) if (r.tokens > max) max = r.tokens;
  const logMax = Math.log1p(max);
  const level = (t: number) => (logMax > 0 ? Math.log1p(t) / logMax : 0);
  const barW = w - 4;
  if (n <= usedHeight(n, h)) {
    for (let i = 0; i < n; i++) {
      const [y0, y1] = bandOf(i, n, h);
      ctx.fillStyle = heatLevel(level(rows[i].tokens));
      ctx.fillRect(0, y0, barW, y1 - y0);
    }
  } else {
    const peak = new Float64Array(h);
    for (let i = 0; i < n; i++) {
      const y = Math.min(h - 1, Math.floor((i * h) / n));
      if (rows[i].tokens > peak[y]) peak[y] = rows[i].tokens;
    }
    for (let y = 0; y < h; y++) {
      ctx.fillStyle = heatLevel(level(peak[y]));
      ctx.fillRect(0, y, barW, 1);
    }
  }
  ctx.fillStyle = opts.style.pairing;
  for (const i of opts.marked) {
    const [y0, y1] = bandOf(i, n, h);
    ctx.fillRect(w - 3, y0, 3, Math.max(2, y1 - y0));
  }
  if (opts.viewport) {
    const [y0] = bandOf(opts.viewport.first, n, h);
    const [, y1] = bandOf(Math.min(n - 1, opts.viewport.last), n, h);
    ctx.fillStyle = opts.style.frameFill;
    ctx.fillRect(0, y0, w, y1 - y0);
    ctx.strokeStyle = opts.style.frame;
    ctx.lineWidth = 1.5;
    ctx.strokeRect(0.75, y0 + 0.75, w - 1.5, Math.max(2, y1 - y0 - 1.5));
  }
  if (opts.selected !== null && opts.selected < n) {
    const [y0, y1] = bandOf(opts.selected, n, h);
    ctx.fillStyle = opts.style.selection;
    ctx.fillRect(0, Math.floor((y0 + y1) / 2) - 1, w, 2);
  }
}
