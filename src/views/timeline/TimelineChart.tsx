import { type MouseEvent, memo, useMemo } from 'react';
import type { RunResult, TimelinePoint } from '../../../worker/api.ts';
import { fmtTime, fmtTokens } from '../common/format.ts';
import { BandSlices, CacheRowSlices } from './ColumnSlices.tsx';
import { AXIS, CH, HEIGHT, LANE, PAD_L, PAD_R, ROW, Y_OBS, Y_SIM } from './chart-layout.ts';
import {
  type BreakMark,
  type Column,
  columnOfPos,
  columnsOf,
  type LineKey,
  niceTicks,
  type Scope,
  yRange,
} from './timeline-model.ts';

export { HEIGHT } from './chart-layout.ts';

const LINE_ORDER: LineKey[] = ['window', 'hardcap', 'trigger', 'landing'];
/** Individual markers up to this many breaks; beyond, one merged path (still hoverable by column). */
const MAX_MARKERS = 400; // above this, one merged tick per pixel column: thousands of marker elements would stall the page

export type Geometry = {
  cols: Column[];
  plotW: number;
  top: number;
  ticks: number[];
  y: (v: number) => number;
};

export function useGeometry(points: readonly TimelinePoint[], lines: RunResult['lines'], width: number): Geometry {
  return useMemo(() => {
    const plotW = Math.max(10, width - PAD_L - PAD_R);
    const { top, ticks } = niceTicks(yRange(points, lines));
    const y = (v: number) => LANE + CH - (Math.min(v, top) / top) * CH;
    return { cols: columnsOf(points, PAD_L, plotW), plotW, top, ticks, y };
  }, [points, lines, width]);
}

type StaticProps = {
  points: readonly TimelinePoint[];
  geo: Geometry;
  order: string[];
  map: Map<string, string>;
  lines: RunResult['lines'];
  scope: Scope;
  hasObserved: boolean;
  breaks: readonly BreakMark[];
};

/** Bars, reference lines, cache rows and axes: redrawn only when the run or the width changes. */
const StaticLayer = memo(function StaticLayer({
  points,
  geo,
  order,
  map,
  lines,
  scope,
  hasObserved,
  breaks,
}: StaticProps) {
  const { cols, y, ticks, plotW } = geo;
  const lineLabels = useMemo(() => placeLineLabels(lines, geo), [lines, geo]);
  const xTicks = useMemo(() => {
    const n = points.length;
    if (n === 0) return [];
    const every = Math.max(1, Math.ceil(n / Math.max(1, Math.floor(plotW / 90))));
    const out: { x: number; label: string }[] = [];
    for (let pos = 0; pos < n; pos += every) {
      const c = cols[columnOfPos(pos, n, cols.length)];
      const p = points[pos];
      const label = scope === 'thread' ? String(p.index) : fmtTime(p.time) || `#${pos}`;
      out.push({ x: c.x + c.w / 2, label });
    }
    return out;
  }, [points, cols, plotW, scope]);

  const right = PAD_L + plotW;
  return (
    <g>
      {ticks.map((t) => (
        <g key={t} className="tl-grid">
          <line x1={PAD_L} x2={right} y1={y(t)} y2={y(t)} />
          <text x={PAD_L - 6} y={y(t) + 3.5} textAnchor="end">
            {tickLabel(t)}
          </text>
        </g>
      ))}
      <BandSlices cols={cols} points={points} order={order} map={map} y={y} top={geo.top} />
      {breaks.length <= 80 &&
        breaks.map((b) => {
          const c = cols[columnOfPos(b.pos, points.length, cols.length)];
          return (
            <line
              key={`${b.kind}-${b.pos}`}
              className={`tl-rule tl-rule-${b.kind}`}
              x1={c.x + c.w / 2}
              x2={c.x + c.w / 2}
              y1={LANE}
              y2={Y_SIM + ROW}
            />
          );
        })}
      {lineLabels.map((l) => (
        <g key={l.key} className={`tl-ref tl-ref-${l.key}`}>
          {l.inRange && <line x1={PAD_L} x2={right} y1={l.y} y2={l.y} />}
          <text x={right + 6} y={l.labelY + 3.5}>
            {l.inRange ? '' : '↑ '}
            {l.key} {fmtTokens(l.value)}
          </text>
        </g>
      ))}
      <text className="tl-row-label" x={PAD_L - 6} y={Y_OBS + ROW - 1} textAnchor="end">
        observed
      </text>
      <text className="tl-row-label" x={PAD_L - 6} y={Y_SIM + ROW - 1} textAnchor="end">
        simulated ≈
      </text>
      <rect className="tl-row-bg" x={PAD_L} y={Y_OBS} width={plotW} height={ROW} />
      <rect className="tl-row-bg" x={PAD_L} y={Y_SIM} width={plotW} height={ROW} />
      {!hasObserved && (
        <text className="tl-row-empty" x={PAD_L + 6} y={Y_OBS + ROW - 1.5}>
          no usage in this log
        </text>
      )}
      <CacheRowSlices cols={cols} />
      <g className="tl-axis">
        <line x1={PAD_L} x2={right} y1={LANE + CH} y2={LANE + CH} />
        {xTicks.map((t) => (
          <text key={`${t.x}`} x={t.x} y={HEIGHT - 5} textAnchor="middle">
            {t.label}
          </text>
        ))}
        <text x={PAD_L - 6} y={HEIGHT - 5} textAnchor="end">
          {scope === 'thread' ? 'request' : 'time'}
        </text>
      </g>
    </g>
  );
});

/** Axis label: "≈40k", "≈2.5k", "≈1.2M" (values are calibrated estimates). */
function tickLabel(t: number): string {
  if (t === 0) return '0';
  if (t >= 1e6) return `≈${+(t / 1e6).toFixed(2)}M`;
  if (t >= 1e3) return `≈${+(t / 1e3).toFixed(1)}k`;
  return `≈${t}`;
}

type LineLabel = { key: LineKey; value: number; y: number; labelY: number; inRange: boolean };

/** Reference lines with labels pushed apart (≥ 11 px); lines above the range are listed at the top. */
function placeLineLabels(lines: RunResult['lines'], geo: Geometry): LineLabel[] {
  const out: LineLabel[] = LINE_ORDER.map((key) => ({
    key,
    value: lines[key],
    y: geo.y(lines[key]),
    labelY: geo.y(lines[key]),
    inRange: lines[key] <= geo.top,
  })).sort((a, b) => b.value - a.value);
  let next = LANE - 4;
  for (const l of out) {
    l.labelY = Math.max(l.inRange ? l.y : LANE + 4, next + 11);
    next = l.labelY;
  }
  return out;
}

type MarkerProps = {
  breaks: readonly BreakMark[];
  geo: Geometry;
  n: number;
  onPick: (b: BreakMark) => void;
  onHover: (b: BreakMark | null, e: MouseEvent) => void;
};

/** One `cache-break` marker per break: observed ▼ (filled), simulated ◆; side by side when both. */
const Markers = memo(function Markers({ breaks, geo, n, onPick, onHover }: MarkerProps) {
  const both = useMemo(() => {
    const seen = new Map<number, number>();
    for (const b of breaks) seen.set(b.pos, (seen.get(b.pos) ?? 0) + 1);
    return seen;
  }, [breaks]);
  const merged = useMemo(() => {
    const d = { observed: [] as string[], simulated: [] as string[] };
    if (breaks.length <= MAX_MARKERS) return d;
    // One tick per pixel column and kind.
    const seen = new Set<string>();
    for (const b of breaks) {
      const c = geo.cols[columnOfPos(b.pos, n, geo.cols.length)];
      const key = `${b.kind}${c.x}`;
      if (seen.has(key)) continue;
      seen.add(key);
      d[b.kind].push(`M${(c.x + c.w / 2).toFixed(1)} ${b.kind === 'observed' ? 2 : 10}v6`);
    }
    return d;
  }, [breaks, geo, n]);
  if (breaks.length > MAX_MARKERS)
    return (
      <g className="tl-merged-marks">
        <path className="tl-merged-observed" d={merged.observed.join('')} />
        <path className="tl-merged-simulated" d={merged.simulated.join('')} />
      </g>
    );
  return (
    <g>
      {breaks.map((b) => {
        const c = geo.cols[columnOfPos(b.pos, n, geo.cols.length)];
        const shift = (both.get(b.pos) ?? 1) > 1 ? (b.kind === 'observed' ? -5 : 5) : 0;
        const cx = c.x + c.w / 2 + shift;
        const cy = LANE / 2;
        return (
          // biome-ignore lint/a11y/useSemanticElements: an SVG marker cannot be a <button>
          <g
            key={`${b.kind}-${b.pos}`}
            data-testid="cache-break"
            data-request={b.point.index}
            data-thread={b.point.thread}
            data-cause={b.cause}
            data-kind={b.kind}
            className={`tl-mark tl-mark-${b.kind}`}
            role="button"
            tabIndex={0}
            aria-label={`${b.kind} cache break at request ${b.point.index}: ${b.detail}`}
            onClick={(e) => {
              e.stopPropagation();
              onPick(b);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter' || e.key === ' ') onPick(b);
            }}
            onMouseEnter={(e) => onHover(b, e)}
            onMouseMove={(e) => onHover(b, e)}
            onMouseLeave={(e) => onHover(null, e)}
          >
            <rect x={cx - 6} y={0} width={12} height={LANE} className="tl-hit" />
            {b.kind === 'observed' ? (
              <path d={`M${cx - 5} ${cy - 4}h10l-5 8z`} />
            ) : (
              <path d={`M${cx} ${cy - 5}l4.5 5l-4.5 5l-4.5 -5z`} />
            )}
          </g>
        );
      })}
    </g>
  );
});

type ChartProps = StaticProps & {
  selectedPos: number | null;
  hoverCol: number | null;
  onPick: (pos: number) => void;
  /** A break marker clicked: its request, and the message where its cached prefix ended. */
  onPickBreak: (b: BreakMark) => void;
  onHoverCol: (col: number | null, e: MouseEvent) => void;
  onHoverBreak: (b: BreakMark | null, e: MouseEvent) => void;
  width: number;
};

export function TimelineChart(props: ChartProps) {
  const { geo, points, selectedPos, hoverCol, width } = props;
  const n = points.length;
  const colAt = (e: MouseEvent<HTMLDivElement>): number | null => {
    const r = e.currentTarget.getBoundingClientRect();
    const x = e.clientX - r.left;
    if (x < PAD_L || x > PAD_L + geo.plotW || geo.cols.length === 0) return null;
    return Math.min(geo.cols.length - 1, Math.floor(((x - PAD_L) / geo.plotW) * geo.cols.length));
  };
  const sel = selectedPos !== null && n > 0 ? geo.cols[columnOfPos(selectedPos, n, geo.cols.length)] : undefined;
  const hov = hoverCol !== null ? geo.cols[hoverCol] : undefined;
  return (
    <div
      className="tl-plot"
      role="slider"
      tabIndex={0}
      aria-label="Requests: context size stacked by category, cache reads and breaks (← → select a request)"
      aria-valuemin={0}
      aria-valuemax={Math.max(0, n - 1)}
      aria-valuenow={selectedPos ?? 0}
      onKeyDown={(e) => {
        const step = e.key === 'ArrowLeft' ? -1 : e.key === 'ArrowRight' ? 1 : 0;
        if (step === 0 || n === 0) return;
        e.preventDefault();
        props.onPick(Math.max(0, Math.min(n - 1, (selectedPos ?? (step > 0 ? -1 : n)) + step)));
      }}
      onMouseMove={(e) => props.onHoverCol(colAt(e), e)}
      onMouseLeave={(e) => props.onHoverCol(null, e)}
      onClick={(e) => {
        const c = colAt(e);
        if (c === null) return;
        const col = geo.cols[c];
        const brk = props.breaks.find((b) => b.pos >= col.from && b.pos < col.to);
        props.onPick(brk ? brk.pos : col.rep);
      }}
    >
      {/* biome-ignore lint/a11y/noSvgWithoutTitle: labelled by the slider around it; a <title> would pop a native tooltip over the hover card */}
      <svg className="tl-svg" width={width} height={HEIGHT}>
        <StaticLayer
          points={points}
          geo={geo}
          order={props.order}
          map={props.map}
          lines={props.lines}
          scope={props.scope}
          hasObserved={props.hasObserved}
          breaks={props.breaks}
        />
        <Markers breaks={props.breaks} geo={geo} n={n} onPick={props.onPickBreak} onHover={props.onHoverBreak} />
      </svg>
      {/* Selection and hover sit above the chart in their own elements, so moving them never repaints it. */}
      {sel && (
        <div
          className="tl-band tl-selected"
          style={{ left: sel.x - 1, top: LANE, width: Math.max(3, sel.w + 2), height: HEIGHT - LANE - AXIS }}
        />
      )}
      {hov && (
        <div
          className="tl-band tl-hover"
          style={{ left: hov.x - 1, top: LANE, width: Math.max(2, hov.w + 1), height: HEIGHT - LANE - AXIS }}
        />
      )}
    </div>
  );
}
