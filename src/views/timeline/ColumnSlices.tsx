// The chart's per-column marks — category bands with the recorded input's edge, and the observed and
// simulated cache rows — as SVG paths built in slices of columns. Each slice is its own memoized component,
// so React's background render yields between slices instead of building every path of a large log in one
// task (one 57 ms task for a 20 MB log before; SPEC §9 allows none over 100 ms).
import { memo } from 'react';
import { categoryColor } from '../common/heat.ts';
import { ROW } from './chart-layout.ts';
import type { Column } from './columns.ts';
import type { DrawnPoint } from './points.ts';
import { estimateIn, OTHER_RESULTS, stackOf } from './timeline-model.ts';

/** Columns per slice: a few ms of path building each on a slow machine. */
const SLICE = 150;

function ranges(n: number): [number, number][] {
  const out: [number, number][] = [];
  for (let from = 0; from < n; from += SLICE) out.push([from, Math.min(n, from + SLICE)]);
  return out;
}

/** Fill of a category band (also the legend's and the hover card's swatch); merged small tools are gray. */
export function bandColor(k: string): string {
  return k === OTHER_RESULTS ? '#9aa0aa' : categoryColor(k);
}

const bandWidth = (c: Column) => Math.max(0.5, c.w - (c.w >= 4 ? 1 : 0));

type BandProps = {
  cols: readonly Column[];
  points: readonly DrawnPoint[];
  order: string[];
  map: Map<string, string>;
  y: (v: number) => number;
  top: number;
};

/** Stacked category bands per column, and the recorded input's top edge where more was recorded than sent. */
export function BandSlices(props: BandProps) {
  return ranges(props.cols.length).map(([from, to]) => <BandSlice key={from} {...props} from={from} to={to} />);
}

const BandSlice = memo(function BandSlice({
  cols,
  points,
  order,
  map,
  y,
  top,
  from,
  to,
}: BandProps & { from: number; to: number }) {
  const d = new Map<string, string[]>(order.map((k) => [k, []]));
  const rec: string[] = [];
  for (let i = from; i < to; i++) {
    const c = cols[i];
    const p = points[c.rep];
    const stack = stackOf(p, map);
    const w = bandWidth(c);
    let acc = 0;
    for (const k of order) {
      const v = stack.get(k) ?? 0;
      if (v <= 0) continue;
      const y1 = y(acc);
      const y2 = y(acc + v);
      acc += v;
      d.get(k)?.push(`M${c.x.toFixed(1)} ${y2.toFixed(1)}h${w.toFixed(1)}V${y1.toFixed(1)}h${(-w).toFixed(1)}z`);
    }
    const ein = estimateIn(p);
    // The recorded input's top edge (and its drop to what is sent); above the range only the edge shows.
    if (ein > p.estimateOut + 0.5)
      rec.push(
        `M${c.x.toFixed(1)} ${y(ein).toFixed(1)}h${w.toFixed(1)}${ein > top ? '' : `V${y(p.estimateOut).toFixed(1)}`}`,
      );
  }
  return (
    <g>
      {order.map((k) => {
        const path = d.get(k)?.join('');
        return path ? <path key={k} d={path} fill={bandColor(k)} /> : null;
      })}
      {rec.length > 0 && <path d={rec.join('')} className="tl-recorded" />}
    </g>
  );
});

/** Cache reads and writes as a share of each column's prompt: the observed row and the simulated row. */
export function CacheRowSlices({ cols, yObs, ySim }: { cols: readonly Column[]; yObs: number; ySim: number }) {
  return ranges(cols.length).map(([from, to]) => (
    <CacheRowSlice key={from} cols={cols} from={from} to={to} yObs={yObs} ySim={ySim} />
  ));
}

const CacheRowSlice = memo(function CacheRowSlice({
  cols,
  from,
  to,
  yObs: Y_OBS,
  ySim: Y_SIM,
}: {
  cols: readonly Column[];
  from: number;
  to: number;
  yObs: number;
  ySim: number;
}) {
  const obsRead: string[] = [];
  const obsWrite: string[] = [];
  const simRead: string[] = [];
  const simWrite: string[] = [];
  const bar = (out: string[], c: Column, top: number, frac: number, at: number) => {
    if (frac <= 0) return;
    const w = bandWidth(c);
    out.push(
      `M${c.x.toFixed(1)} ${(top + ROW * at).toFixed(2)}h${w.toFixed(1)}v${(ROW * frac).toFixed(2)}h${(-w).toFixed(1)}z`,
    );
  };
  for (let i = from; i < to; i++) {
    const c = cols[i];
    if (c.obs && c.obs.prompt > 0) {
      const r = c.obs.read / c.obs.prompt;
      bar(obsRead, c, Y_OBS, r, 0);
      bar(obsWrite, c, Y_OBS, Math.min(1 - r, c.obs.write / c.obs.prompt), r);
    }
    if (c.sim.prompt > 0) {
      const r = Math.min(1, c.sim.read / c.sim.prompt);
      bar(simRead, c, Y_SIM, r, 0);
      bar(simWrite, c, Y_SIM, Math.min(1 - r, c.sim.write / c.sim.prompt), r);
    }
  }
  return (
    <g>
      <path className="tl-read" d={obsRead.join('')} />
      <path className="tl-write" d={obsWrite.join('')} />
      <path className="tl-read" d={simRead.join('')} />
      <path className="tl-write" d={simWrite.join('')} />
    </g>
  );
});
