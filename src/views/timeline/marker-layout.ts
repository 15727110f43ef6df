// Where the break markers go: observed ▼ and simulated ◆ each in a row of their own above the chart, markers
// closer than a glyph merged into a cluster (its count drawn, its breaks listed on hover; zooming in separates
// them), and each item's hit interval — from half-way to its left neighbour to half-way to its right one, at most
// a few pixels past its glyph — so the pointer always names the nearest marker and no two overlap.

/** Markers nearer than this (px) share a cluster. */
const CLUSTER_PX = 11;
/** How far past a glyph's centre its hit area reaches at most (px). */
const REACH = 9;

export type Placed<T> = {
  /** The breaks it stands for (one, or a cluster's), in position order. */
  members: T[];
  /** Glyph centre, and the hit interval [x0, x1). */
  x: number;
  x0: number;
  x1: number;
};

/** Markers of one row, laid out from their centres (`xOf`); `marks` in position order. */
export function layoutRow<T>(marks: readonly T[], xOf: (m: T) => number): Placed<T>[] {
  const groups: { members: T[]; xs: number[] }[] = [];
  for (const m of marks) {
    const x = xOf(m);
    const last = groups[groups.length - 1];
    // A marker joins the cluster when it is near its last member, while the cluster spans under three glyphs (a
    // row of breaks on every request makes clusters side by side, not one across the chart).
    if (last && x - last.xs[last.xs.length - 1] < CLUSTER_PX && x - last.xs[0] < 3 * CLUSTER_PX) {
      last.members.push(m);
      last.xs.push(x);
    } else groups.push({ members: [m], xs: [x] });
  }
  const placed = groups.map((g) => {
    const lo = g.xs[0];
    const hi = g.xs[g.xs.length - 1];
    return { members: g.members, x: (lo + hi) / 2, x0: lo - REACH, x1: hi + REACH };
  });
  for (let i = 1; i < placed.length; i++) {
    const a = placed[i - 1];
    const b = placed[i];
    if (a.x1 > b.x0) {
      const mid = (a.x1 - REACH + b.x0 + REACH) / 2;
      a.x1 = mid;
      b.x0 = mid;
    }
  }
  return placed;
}

/** The item whose hit interval holds x, if any. */
export function itemAt<T>(row: readonly Placed<T>[], x: number): Placed<T> | undefined {
  let lo = 0;
  let hi = row.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const p = row[mid];
    if (x < p.x0) hi = mid - 1;
    else if (x >= p.x1) lo = mid + 1;
    else return p;
  }
  return undefined;
}
