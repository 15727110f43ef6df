// Pixel columns of the cache timeline: the shown requests folded into at most one column per pixel (the tallest
// request of a column stands for it; cache sums are pooled), either spread evenly (one thread, by request) or at
// their x on a time scale (every thread by time), with the map from a request's position to its column and the
// column under an x for hit-testing.
import type { DrawnPoint } from './points.ts';

export type Column = {
  /** Shown positions [from, to) folded into this column. */
  from: number;
  to: number;
  /** The request drawn for the column (the tallest). */
  rep: number;
  x: number;
  w: number;
  obs: { read: number; write: number; prompt: number } | null;
  sim: { read: number; write: number; prompt: number };
};

export type Columns = { cols: Column[]; colOf: Int32Array };

function column(points: readonly DrawnPoint[], from: number, to: number, x: number, w: number): Column {
  let rep = from;
  let obs: Column['obs'] = null;
  const sim = { read: 0, write: 0, prompt: 0 };
  for (let i = from; i < to; i++) {
    const p = points[i];
    if (p.estimateOut > points[rep].estimateOut) rep = i;
    if (p.observed) {
      obs ??= { read: 0, write: 0, prompt: 0 };
      obs.read += p.observed.cacheRead;
      obs.write += p.observed.cacheWrite;
      obs.prompt += p.observed.prompt;
    }
    sim.read += p.simulated.cacheRead;
    sim.write += p.simulated.cacheWrite;
    sim.prompt += p.simulated.prompt;
  }
  return { from, to, rep, x, w, obs, sim };
}

function indexOf(cols: readonly Column[], n: number): Int32Array {
  const colOf = new Int32Array(n);
  cols.forEach((c, k) => {
    colOf.fill(k, c.from, c.to);
  });
  return colOf;
}

/** The shown points spread evenly over [x0, x0 + width], folded into at most `width` columns. */
export function columnsOf(points: readonly DrawnPoint[], x0: number, width: number): Columns {
  const n = points.length;
  if (n === 0 || width <= 0) return { cols: [], colOf: new Int32Array(0) };
  const count = Math.min(n, Math.max(1, Math.floor(width)));
  const step = width / count;
  const cols: Column[] = [];
  for (let c = 0; c < count; c++) {
    const from = Math.floor((c * n) / count);
    const to = Math.max(from + 1, Math.floor(((c + 1) * n) / count));
    cols.push(column(points, from, to, x0 + c * step, step));
  }
  return { cols, colOf: indexOf(cols, n) };
}

/** The shown points at their own x (ascending, a time scale's), folded per pixel; a bar starts at its x and is as
 *  wide as the room to the next one, up to `maxW`. */
export function columnsAt(points: readonly DrawnPoint[], xs: Float64Array, end: number, maxW: number): Columns {
  const n = points.length;
  const cols: Column[] = [];
  let from = 0;
  while (from < n) {
    const px = Math.floor(xs[from]);
    let to = from + 1;
    while (to < n && Math.floor(xs[to]) === px) to++;
    const next = to < n ? xs[to] : end;
    const w = Math.max(1, Math.min(maxW, next - xs[from]));
    cols.push(column(points, from, to, xs[from], w));
    from = to;
  }
  return { cols, colOf: indexOf(cols, n) };
}

/** The column whose span holds x (or the nearest within `slack` px), if any. */
export function columnAtX(cols: readonly Column[], x: number, slack = 3): number | null {
  let lo = 0;
  let hi = cols.length - 1;
  let best = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cols[mid].x <= x) {
      best = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  const c = cols[best];
  if (c && x < c.x + c.w) return best;
  // Between bars: the nearer edge, within the slack.
  const left = c ? x - (c.x + c.w) : Number.POSITIVE_INFINITY;
  const right = cols[best + 1] ? cols[best + 1].x - x : Number.POSITIVE_INFINITY;
  if (Math.min(left, right) > slack) return null;
  return left <= right ? best : best + 1;
}
