import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useStore } from '../../state/store.ts';
import type { MarkerRows } from './BreakMarkers.tsx';
import { BreakStrip } from './BreakStrip.tsx';
import { chartHeightFor } from './chart-layout.ts';
import { layoutRow } from './marker-layout.ts';
import { type Hit, TimelineChart } from './TimelineChart.tsx';
import { TimelineHover } from './TimelineHover.tsx';
import { TimelineLegend } from './TimelineLegend.tsx';
import { TimelineRange } from './TimelineRange.tsx';
import { type BreakMark, breaksOf, compactionMarks, groupCategories, shownPoints } from './timeline-model.ts';
import { pickedKey, pickMark, useTimelineUi } from './timeline-ui.ts';
import { useGeometry } from './use-geometry.ts';
import { useWidth, useWindowHeight } from './use-width.ts';
import { brushRange, clampRange, isFull, type PosRange, pan, trailAfter, zoomAround } from './zoom.ts';
import './timeline.css';

/** Where the cache hit rate fell and why: context per request by category, cache rows, break markers; zoomable. */
export function CacheTimeline() {
  const {
    result: latest,
    thread,
    request,
    range,
    threadInfo,
    running,
  } = useStore(
    useShallow((s) => ({
      result: s.run.result,
      thread: s.view.thread,
      request: s.view.request,
      range: s.view.range,
      threadInfo: s.transcript.summary?.threads,
      running: s.run.status === 'running',
    })),
  );
  // Big results render in a background (interruptible) pass, so no single main-thread task grows long.
  const result = useDeferredValue(latest);
  // The first result has arrived but its background pass has not drawn yet: not an empty timeline.
  const drawing = !result && latest != null;
  const { scope, setScope, setInView, picked } = useTimelineUi(
    useShallow((s) => ({ scope: s.scope, setScope: s.setScope, setInView: s.setInView, picked: s.picked })),
  );
  // Every thread by time zooms too, by position in that list (the URL's range is one thread's requests).
  const [allRange, setAllRange] = useState<PosRange | null>(null);
  // A new file starts unzoomed (one thread's zoom is reset by the store).
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when another transcript loads
  useEffect(() => setAllRange(null), [threadInfo]);
  const threads = threadInfo?.length ?? 0;
  const titles = useMemo(() => new Map((threadInfo ?? []).map((t) => [t.id, t.title ?? t.id])), [threadInfo]);
  const [hover, setHover] = useState<{ hit: Hit; x: number } | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const width = useWidth(box);

  const timeline = result?.timeline;
  const all = useMemo(() => (timeline ? shownPoints(timeline, scope, thread) : []), [timeline, scope, thread]);
  const n = all.length;
  const view = useMemo((): PosRange => {
    const full = { from: 0, to: Math.max(0, n - 1) };
    if (scope === 'all') return allRange ? clampRange(allRange, n) : full;
    if (!range || n === 0) return full;
    const from = all.findIndex((p) => p.index >= range.from);
    let to = -1;
    for (let i = n - 1; i >= 0; i--)
      if (all[i].index <= range.to) {
        to = i;
        break;
      }
    return from < 0 || to < from ? full : clampRange({ from, to }, n);
  }, [all, n, scope, range, allRange]);
  const points = useMemo(() => all.slice(view.from, view.to + 1), [all, view]);
  const zoomed = n > 0 && !isFull(view, n);

  const setView = useCallback(
    (r: PosRange | null) => {
      const next = r && !isFull(r, n) ? clampRange(r, n) : null;
      if (scope === 'all') return setAllRange(next);
      const va = useStore.getState().viewActions;
      va.setTimelineRange(next ? { from: all[next.from].index, to: all[next.to].index } : null);
    },
    [scope, n, all],
  );

  // Breadcrumbs: the whole list, then each range zoomed into (back to an ancestor pops the ones after it).
  const [trail, setTrail] = useState<PosRange[]>([]);
  useEffect(() => setTrail((t) => trailAfter(t, view, n)), [view, n]);

  // The breaks table and the transcript follow the range in view.
  useEffect(() => {
    if (!zoomed) return setInView(null);
    const a = points[0];
    const b = points[points.length - 1];
    if (scope === 'thread')
      return setInView({
        label: `requests ${a.index}–${b.index} of ${titles.get(thread) ?? thread}`,
        has: (th, req) => th === thread && req >= a.index && req <= b.index,
        thread,
      });
    const keys = new Set(points.map((p) => `${p.thread}\u0000${p.index}`));
    setInView({ label: 'the zoomed time range', has: (th, req) => keys.has(`${th}\u0000${req}`), thread: null });
  }, [zoomed, points, scope, thread, titles, setInView]);
  useEffect(() => () => setInView(null), [setInView]);

  const { order, map } = useMemo(() => groupCategories(points), [points]);
  const breaks = useMemo(() => breaksOf(points), [points]);
  const compactions = useMemo(() => compactionMarks(result?.compactions ?? [], points), [result, points]);
  const lines = result?.lines ?? { window: 0, trigger: 0, landing: 0, hardcap: 0 };
  const geo = useGeometry(points, lines, width, scope, chartHeightFor(useWindowHeight()));
  const rows = useMemo((): MarkerRows => {
    const x = (b: BreakMark) => geo.xOf(b.pos);
    return {
      observed: layoutRow(
        breaks.filter((b) => b.source === 'observed'),
        x,
      ),
      simulated: layoutRow(
        breaks.filter((b) => b.source === 'simulated'),
        x,
      ),
    };
  }, [breaks, geo]);
  const hasObserved = useMemo(() => points.some((p) => p.observed), [points]);
  const hasRecorded = useMemo(() => points.some((p) => p.inputTokens > p.outputTokens), [points]);
  const selectedPos = useMemo(() => {
    if (request === null) return null;
    const i = points.findIndex((p) => p.thread === thread && p.index === request);
    return i < 0 ? null : i;
  }, [points, thread, request]);

  const pickPos = useCallback(
    (pos: number) => {
      const p = points[pos];
      if (!p) return;
      const va = useStore.getState().viewActions;
      if (p.thread !== useStore.getState().view.thread) va.setThread(p.thread);
      va.selectRequest(p.index);
      va.selectMessage(p.responseMessage, true);
      useTimelineUi.getState().setPicked(null);
    },
    [points],
  );
  /** The position (in the whole list) under an x: the column's first or last request. */
  const posAt = useCallback(
    (x: number, end: boolean) => {
      const c = geo.colAt(x);
      if (c === null) return null;
      const col = geo.cols[c];
      return view.from + (end ? col.to - 1 : col.from);
    },
    [geo, view.from],
  );
  const onPick = useCallback(
    (hit: Hit) => {
      if (hit.kind === 'col') {
        const col = geo.cols[hit.col];
        const brk = breaks.find((b) => b.pos >= col.from && b.pos < col.to);
        return pickPos(brk ? brk.pos : col.rep);
      }
      const m = hit.item.members;
      if (m.length > 1) {
        // A cluster zooms in around its breaks, so they separate.
        const from = view.from + m[0].pos;
        const to = view.from + m[m.length - 1].pos;
        const pad = Math.max(2, Math.round((to - from) * 0.6));
        return setView({ from: from - pad, to: to + pad });
      }
      pickMark(m[0]);
    },
    [geo, breaks, pickPos, setView, view.from],
  );
  const onBrush = useCallback(
    (x0: number, x1: number) => {
      const r = brushRange(x0, x1, (x) => posAt(x, x === Math.max(x0, x1)), n);
      if (r) setView(r);
    },
    [posAt, n, setView],
  );
  const onWheel = useCallback(
    (x: number, factor: number, dx: number) => {
      if (n < 3) return;
      const span = view.to - view.from + 1;
      if (dx !== 0) return setView(pan(view, n, (dx / Math.max(1, geo.plotW)) * span));
      const c = geo.colAt(x);
      const col = c === null ? null : geo.cols[c];
      const anchor = col ? view.from + col.from + (col.to - col.from) / 2 : (view.from + view.to) / 2;
      setView(zoomAround(view, n, anchor, factor));
    },
    [view, n, geo, setView],
  );
  const onKey = useCallback(
    (e: React.KeyboardEvent) => {
      const len = points.length;
      if (len === 0) return;
      const span = view.to - view.from + 1;
      const mid = selectedPos !== null ? view.from + selectedPos : (view.from + view.to) / 2;
      if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
        const step = e.key === 'ArrowLeft' ? -1 : 1;
        e.preventDefault();
        if (e.shiftKey) return setView(pan(view, n, step * Math.max(1, Math.round(span / 4))));
        return pickPos(Math.max(0, Math.min(len - 1, (selectedPos ?? (step > 0 ? -1 : len)) + step)));
      }
      if (e.key === '+' || e.key === '=') setView(zoomAround(view, n, mid, 0.5));
      else if (e.key === '-' || e.key === '_') setView(zoomAround(view, n, mid, 2));
      else if (e.key === '0') setView(null);
      else return;
      e.preventDefault();
      e.stopPropagation();
    },
    [points.length, view, n, selectedPos, pickPos, setView],
  );
  const onHover = useCallback((hit: Hit | null, x: number) => {
    setHover((h) => {
      if (!hit) return null;
      if (
        h &&
        h.hit.kind === hit.kind &&
        (hit.kind === 'col'
          ? h.hit.kind === 'col' && h.hit.col === hit.col
          : h.hit.kind === 'marker' && h.hit.item === hit.item)
      )
        return h;
      return { hit, x };
    });
  }, []);
  // A new set of requests in view (zoom, run, thread): the card of the old one goes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the points change
  useEffect(() => setHover(null), [points]);

  const cal = result?.calibration.find((c) => c.thread === thread);
  const hit = hover?.hit;
  const hovCol = hit ? geo.cols[hit.kind === 'col' ? hit.col : geo.colOf[hit.item.members[0].pos]] : undefined;
  const hovBreaks =
    hit?.kind === 'marker'
      ? hit.item.members
      : hovCol
        ? breaks.filter((b) => b.pos >= hovCol.from && b.pos < hovCol.to)
        : [];

  return (
    <section data-testid="cache-timeline" className="cache-timeline" aria-busy={running || drawing}>
      <div className="tl-head">
        <span className="panel-title">Cache timeline</span>
        <span
          className="muted num tl-count"
          title={
            cal && cal.factor !== 1
              ? `Token sizes are estimates: counted × ${cal.factor.toFixed(2)}, calibrated on this thread's usage`
              : undefined
          }
        >
          {drawing ? loadedRequests(threadInfo, scope === 'thread' ? thread : null) : n} requests
          {scope === 'thread' ? ` · ${titles.get(thread) ?? thread}` : ' · all threads'}
          {cal && cal.factor !== 1 ? ` · ≈×${cal.factor.toFixed(2)}` : ''}
        </span>
        {threads > 1 && (
          <fieldset className="tl-scope" aria-label="Requests shown">
            <button type="button" aria-pressed={scope === 'thread'} onClick={() => setScope('thread')}>
              This thread
            </button>
            <button
              type="button"
              aria-pressed={scope === 'all'}
              onClick={() => {
                // The zoom of one thread's requests does not carry over to every thread's.
                useStore.getState().viewActions.setTimelineRange(null);
                setScope('all');
              }}
            >
              All threads by time
            </button>
          </fieldset>
        )}
        {n > 2 && <TimelineRange all={all} scope={scope} trail={trail} current={view} onGo={setView} />}
        {points.length > 0 && <TimelineLegend order={order} hasRecorded={hasRecorded} breaks={breaks} />}
      </div>
      <div className="tl-body" ref={box}>
        {!result && (
          <div className="tl-empty muted">
            {drawing ? 'Drawing…' : running ? 'Replaying…' : 'Load a transcript to see its cache.'}
          </div>
        )}
        {result && points.length === 0 && <div className="tl-empty muted">This thread made no requests.</div>}
        {result && points.length > 0 && width > 0 && (
          <TimelineChart
            points={points}
            geo={geo}
            order={order}
            map={map}
            lines={lines}
            hasObserved={hasObserved}
            breaks={breaks}
            rows={rows}
            compactions={compactions}
            selectedPos={selectedPos}
            selectedBreak={pickedKey(picked)}
            hover={hover?.hit ?? null}
            width={width}
            onHover={onHover}
            onPick={onPick}
            onBrush={onBrush}
            onWheel={onWheel}
            onKey={onKey}
          />
        )}
        {result && hover && hovCol && (
          <TimelineHover
            col={hovCol}
            points={points}
            breaks={hovBreaks}
            patterns={result.cacheFindings.patterns}
            map={map}
            titles={titles}
            x={hover.x}
            y={geo.rows.height + 2}
            containerWidth={width}
            marker={hit?.kind === 'marker'}
          />
        )}
      </div>
      {result && points.length > 0 && (
        <BreakStrip
          points={points}
          breaks={breaks}
          selectedPos={selectedPos}
          minCacheable={result.settings.config.cache.minCacheable}
        />
      )}
    </section>
  );
}

/** The request count the loaded transcript states (one thread's, or every thread's), shown until the first draw. */
function loadedRequests(threads: readonly { id: string; requests: number }[] | undefined, thread: string | null) {
  return (threads ?? []).reduce((sum, t) => sum + (thread == null || t.id === thread ? t.requests : 0), 0);
}
