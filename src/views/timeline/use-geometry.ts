// The chart's geometry for the requests in view: pixel columns (by request, or by real time across threads), the
// x ticks under them, the y scale with its ticks, and the x of a request's position (markers, selection).
import { useMemo } from 'react';
import type { RunResult } from '../../protocol/index.ts';
import { type ChartRows, chartRows, LANE, PAD_L, PAD_R } from './chart-layout.ts';
import { type Column, columnAtX, columnsAt, columnsOf } from './columns.ts';
import type { DrawnPoint } from './points.ts';
import { type Gap, type Tick, timeScale } from './time-scale.ts';
import { niceTicks, type Scope, yRange } from './timeline-model.ts';

export type Geometry = {
  cols: Column[];
  /** Column of each position in view. */
  colOf: Int32Array;
  plotW: number;
  top: number;
  ticks: number[];
  y: (v: number) => number;
  xTicks: Tick[];
  /** Long pauses drawn as breaks (time axis only). */
  gaps: Gap[];
  /** 'request' (one thread), 'time' (every thread, UTC) or '#' (every thread, some requests without a time). */
  axis: 'request' | 'time' | '#';
  /** Centre x of a position's column. */
  xOf: (pos: number) => number;
  /** The column under an x, or null outside the plot. */
  colAt: (x: number) => number | null;
  rows: ChartRows;
};

/** Every label of the request axis at least this far apart (px). */
const LABEL_PX = 90;

export function useGeometry(
  points: readonly DrawnPoint[],
  lines: RunResult['lines'],
  width: number,
  scope: Scope,
  chartH: number,
): Geometry {
  return useMemo(() => {
    const plotW = Math.max(10, width - PAD_L - PAD_R);
    const { top, ticks } = niceTicks(yRange(points, lines), chartH < 100 ? 3 : 4);
    const y = (v: number) => LANE + chartH - (Math.min(v, top) / top) * chartH;
    const timed = scope === 'all' && points.length > 1 && points.every((p) => p.time !== undefined);
    let cols: Column[];
    let colOf: Int32Array;
    let xTicks: Tick[] = [];
    let gaps: Gap[] = [];
    if (timed) {
      const scale = timeScale(
        points.map((p) => p.time ?? 0),
        PAD_L,
        plotW,
      );
      ({ cols, colOf } = columnsAt(points, scale.xs, PAD_L + plotW, Math.max(1, Math.min(12, plotW / points.length))));
      xTicks = scale.ticks;
      gaps = scale.gaps;
    } else {
      ({ cols, colOf } = columnsOf(points, PAD_L, plotW));
      const n = points.length;
      const every = Math.max(1, Math.ceil(n / Math.max(1, Math.floor(plotW / LABEL_PX))));
      for (let pos = 0; pos < n; pos += every) {
        const c = cols[colOf[pos]];
        xTicks.push({ x: c.x + c.w / 2, label: scope === 'thread' ? String(points[pos].index) : `#${pos}` });
      }
    }
    const xOf = (pos: number) => {
      const c = cols[colOf[Math.max(0, Math.min(colOf.length - 1, pos))]];
      return c ? c.x + c.w / 2 : PAD_L;
    };
    const colAt = (x: number) => (x < PAD_L - 4 || x > PAD_L + plotW + 4 ? null : columnAtX(cols, x));
    return {
      cols,
      colOf,
      plotW,
      top,
      ticks,
      y,
      xTicks,
      gaps,
      axis: scope === 'thread' ? 'request' : timed ? 'time' : '#',
      xOf,
      colAt,
      rows: chartRows(chartH),
    };
  }, [points, lines, width, scope, chartH]);
}
