import { type PointerEvent, useEffect, useRef, useState } from 'react';
import { BreakMarkers, type MarkerRows } from './BreakMarkers.tsx';
import { ChartLayer, type LayerProps } from './ChartLayer.tsx';
import { CompactionMarkers } from './CompactionMarkers.tsx';
import { AXIS, LANE, LANE_ROW } from './chart-layout.ts';
import { itemAt, type Placed } from './marker-layout.ts';
import type { BreakMark, CompactionMark } from './timeline-model.ts';

/** What is under the pointer: a break marker (or cluster) before a column. */
export type Hit = { kind: 'marker'; item: Placed<BreakMark> } | { kind: 'col'; col: number };

type Props = LayerProps & {
  rows: MarkerRows;
  compactions: readonly CompactionMark[];
  selectedPos: number | null;
  selectedBreak: string | null;
  hover: Hit | null;
  width: number;
  onHover: (hit: Hit | null, x: number) => void;
  /** A click: a column's request, or a marker (a cluster zooms in). */
  onPick: (hit: Hit) => void;
  /** A drag over the plot: zoom to the requests between x0 and x1. */
  onBrush: (x0: number, x1: number) => void;
  /** Wheel or trackpad: zoom by `factor` around x (pinch and vertical wheel), or pan by `dx` pixels. */
  onWheel: (x: number, factor: number, dx: number) => void;
  onKey: (e: React.KeyboardEvent) => void;
};

const DRAG_PX = 4;

/** Listen to `el`'s wheel events for `wheel.current`; returns the removal. Made outside the component: a listener
 *  made in a render's effect keeps that render's scope (its props: the first run's points and result) alive for
 *  as long as it is installed. */
function listenWheel(el: HTMLElement, wheel: { current: Props['onWheel'] }): () => void {
  const on = (e: WheelEvent) => {
    const x = e.clientX - el.getBoundingClientRect().left;
    const scale = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1;
    const dy = e.deltaY * scale;
    const dx = (e.shiftKey ? e.deltaY : e.deltaX) * scale;
    if (Math.abs(dx) > Math.abs(dy) || e.shiftKey) {
      e.preventDefault();
      wheel.current(x, 1, dx);
    } else if (dy !== 0) {
      e.preventDefault();
      wheel.current(x, Math.exp(dy * (e.ctrlKey ? 0.01 : 0.002)), 0);
    }
  };
  el.addEventListener('wheel', on, { passive: false });
  return () => el.removeEventListener('wheel', on);
}

/** The chart, its markers and the pointer: hit-testing (markers first), click, drag-to-zoom, wheel. */
export function TimelineChart(props: Props) {
  const { geo, rows, hover, width } = props;
  const ref = useRef<HTMLDivElement>(null);
  const [brush, setBrush] = useState<{ x0: number; x1: number } | null>(null);
  const down = useRef<{ x: number; id: number } | null>(null);
  const local = (e: { clientX: number; clientY: number }) => {
    const r = ref.current?.getBoundingClientRect();
    return { x: e.clientX - (r?.left ?? 0), y: e.clientY - (r?.top ?? 0) };
  };
  const hitAt = (x: number, y: number): Hit | null => {
    if (y < LANE) {
      const row = y < LANE_ROW ? rows.observed : rows.simulated;
      const item = itemAt(row, x);
      if (item) return { kind: 'marker', item };
    }
    const col = geo.colAt(x);
    return col === null ? null : { kind: 'col', col };
  };

  // A wheel listener that may cancel the page's scroll (React's onWheel is passive).
  const wheel = useRef(props.onWheel);
  wheel.current = props.onWheel;
  useEffect(() => (ref.current ? listenWheel(ref.current, wheel) : undefined), []);

  const onDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0 || (e.target as Element).closest('button')) return;
    down.current = { x: local(e).x, id: e.pointerId };
  };
  const onMove = (e: PointerEvent<HTMLDivElement>) => {
    const { x, y } = local(e);
    const d = down.current;
    if (d && (e.buttons & 1) === 1 && (brush || Math.abs(x - d.x) >= DRAG_PX)) {
      if (!brush) e.currentTarget.setPointerCapture(d.id);
      setBrush({ x0: d.x, x1: x });
      props.onHover(null, x);
      return;
    }
    props.onHover(hitAt(x, y), x);
  };
  const onUp = (e: PointerEvent<HTMLDivElement>) => {
    const d = down.current;
    down.current = null;
    if (!d) return;
    const { x, y } = local(e);
    if (brush) {
      setBrush(null);
      if (Math.abs(brush.x1 - brush.x0) >= DRAG_PX) props.onBrush(brush.x0, x);
      return;
    }
    const hit = hitAt(x, y);
    if (hit) props.onPick(hit);
  };

  const sel = props.selectedPos !== null ? geo.cols[geo.colOf[props.selectedPos]] : undefined;
  const hov = hover?.kind === 'col' ? geo.cols[hover.col] : undefined;
  const HEIGHT = geo.rows.height;
  const bandH = HEIGHT - LANE - AXIS;
  return (
    <div
      ref={ref}
      className={`tl-plot${brush ? ' tl-brushing' : ''}`}
      data-testid="timeline-plot"
      role="slider"
      tabIndex={0}
      aria-label="Requests: context size stacked by category, cache reads and breaks (← → select, drag or + − zoom, 0 resets)"
      aria-valuemin={0}
      aria-valuemax={Math.max(0, props.points.length - 1)}
      aria-valuenow={props.selectedPos ?? 0}
      onKeyDown={props.onKey}
      onPointerDown={onDown}
      onPointerMove={onMove}
      onPointerUp={onUp}
      onPointerCancel={() => {
        down.current = null;
        setBrush(null);
      }}
      onPointerLeave={(e) => {
        if (!down.current) props.onHover(null, local(e).x);
      }}
    >
      {/* biome-ignore lint/a11y/noSvgWithoutTitle: labelled by the slider around it; a <title> would pop a native tooltip over the hover card */}
      <svg className="tl-svg" width={width} height={HEIGHT}>
        <ChartLayer
          points={props.points}
          geo={geo}
          order={props.order}
          map={props.map}
          lines={props.lines}
          hasObserved={props.hasObserved}
          breaks={props.breaks}
        />
        <BreakMarkers
          rows={rows}
          total={props.breaks.length}
          selected={props.selectedBreak}
          onKey={(item) => props.onPick({ kind: 'marker', item })}
        />
      </svg>
      <CompactionMarkers marks={props.compactions} geo={geo} />
      {/* Selection, hover and brush sit above the chart in their own elements, so moving them never repaints it. */}
      {sel && (
        <div
          className="tl-band tl-selected"
          style={{ left: sel.x - 1, top: LANE, width: Math.max(3, sel.w + 2), height: bandH }}
        />
      )}
      {hov && (
        <div
          className="tl-band tl-hover"
          style={{ left: hov.x - 1, top: LANE, width: Math.max(2, hov.w + 1), height: bandH }}
        />
      )}
      {brush && (
        <div
          className="tl-band tl-brush"
          data-testid="timeline-brush"
          style={{
            left: Math.min(brush.x0, brush.x1),
            top: 0,
            width: Math.abs(brush.x1 - brush.x0),
            height: HEIGHT - AXIS,
          }}
        />
      )}
    </div>
  );
}
