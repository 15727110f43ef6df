import { memo, useMemo } from 'react';
import type { RunResult } from '../../protocol/index.ts';
import { fmtTokens } from '../common/format.ts';
import { BandSlices, CacheRowSlices } from './ColumnSlices.tsx';
import { LANE, PAD_L, ROW } from './chart-layout.ts';
import type { DrawnPoint } from './points.ts';
import { pauseWords } from './time-scale.ts';
import type { BreakMark, LineKey } from './timeline-model.ts';
import type { Geometry } from './use-geometry.ts';

const LINE_ORDER: LineKey[] = ['window', 'hardcap', 'trigger', 'landing'];
/** Dashed rules down the chart at each break up to this many in view. */
const MAX_RULES = 80;

export type LayerProps = {
  points: readonly DrawnPoint[];
  geo: Geometry;
  order: string[];
  map: Map<string, string>;
  lines: RunResult['lines'];
  hasObserved: boolean;
  breaks: readonly BreakMark[];
};

const AXIS_WORDS: Record<Geometry['axis'], string> = { request: 'request', time: 'UTC', '#': 'by time' };

/** Bars, reference lines, cache rows, pauses and axes: redrawn only when the requests in view or the width change. */
export const ChartLayer = memo(function ChartLayer({
  points,
  geo,
  order,
  map,
  lines,
  hasObserved,
  breaks,
}: LayerProps) {
  const { cols, y, ticks, plotW } = geo;
  const { yObs: Y_OBS, ySim: Y_SIM, height: HEIGHT } = geo.rows;
  const lineLabels = useMemo(() => placeLineLabels(lines, geo), [lines, geo]);
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
      {breaks.length <= MAX_RULES &&
        breaks.map((b) => {
          const x = geo.xOf(b.pos);
          return (
            <line
              key={`${b.source}-${b.pos}`}
              className={`tl-rule tl-rule-${b.source}`}
              x1={x}
              x2={x}
              y1={b.source === 'observed' ? LANE / 2 : LANE}
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
      <CacheRowSlices cols={cols} yObs={Y_OBS} ySim={Y_SIM} />
      {geo.gaps.map((g) => (
        <g key={g.x} className="tl-gap">
          <rect x={g.x + 3} y={LANE} width={g.w - 6} height={Y_SIM + ROW - LANE} />
          <text x={g.x + g.w / 2} y={HEIGHT - 5} textAnchor="middle">
            {pauseWords(g.ms)}
          </text>
        </g>
      ))}
      <g className="tl-axis">
        <line x1={PAD_L} x2={right} y1={y(0)} y2={y(0)} />
        {geo.xTicks.map((t) => (
          <text key={`${t.x}`} x={t.x} y={HEIGHT - 5} textAnchor={geo.axis === 'time' ? 'start' : 'middle'}>
            {t.label}
          </text>
        ))}
        <text x={PAD_L - 6} y={HEIGHT - 5} textAnchor="end">
          {AXIS_WORDS[geo.axis]}
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
