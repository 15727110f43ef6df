import { type MouseEvent, useCallback, useDeferredValue, useMemo, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useStore } from '../../state/store.ts';
import { BreakStrip } from './BreakStrip.tsx';
import { HEIGHT, TimelineChart, useGeometry } from './TimelineChart.tsx';
import { TimelineHover } from './TimelineHover.tsx';
import { TimelineLegend } from './TimelineLegend.tsx';
import { type BreakMark, breaksOf, columnOfPos, groupCategories, type Scope, shownPoints } from './timeline-model.ts';
import { useWidth } from './use-width.ts';
import './timeline.css';

type Hover = { col: number; x: number; y: number; only?: BreakMark };

/** Where the cache hit rate fell and why: context per request by category, cache rows, break markers. */
export function CacheTimeline() {
  const {
    result: latest,
    thread,
    request,
    threadInfo,
    running,
  } = useStore(
    useShallow((s) => ({
      result: s.run.result,
      thread: s.view.thread,
      request: s.view.request,
      threadInfo: s.transcript.summary?.threads,
      running: s.run.status === 'running',
    })),
  );
  // Big results render in a background (interruptible) pass, so no single main-thread task grows long.
  const result = useDeferredValue(latest);
  const [scope, setScope] = useState<Scope>('thread');
  const threads = threadInfo?.length ?? 0;
  const titles = useMemo(() => new Map((threadInfo ?? []).map((t) => [t.id, t.title ?? t.id])), [threadInfo]);
  const [hover, setHover] = useState<Hover | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const width = useWidth(box);

  const timeline = result?.timeline;
  const points = useMemo(() => (timeline ? shownPoints(timeline, scope, thread) : []), [timeline, scope, thread]);
  const { order, map } = useMemo(() => groupCategories(points), [points]);
  const breaks = useMemo(() => breaksOf(points), [points]);
  const lines = result?.lines ?? { window: 0, trigger: 0, landing: 0, hardcap: 0 };
  const geo = useGeometry(points, result?.lines ?? lines, width);
  const hasObserved = useMemo(() => points.some((p) => p.observed), [points]);
  const hasRecorded = useMemo(() => points.some((p) => p.inputTokens > p.outputTokens), [points]);
  const selectedPos = useMemo(() => {
    if (request === null) return null;
    const i = points.findIndex((p) => p.thread === thread && p.index === request);
    return i < 0 ? null : i;
  }, [points, thread, request]);

  const onPick = useCallback(
    (pos: number) => {
      const p = points[pos];
      if (!p) return;
      const va = useStore.getState().viewActions;
      if (p.thread !== useStore.getState().view.thread) va.setThread(p.thread);
      va.selectRequest(p.index);
      va.selectMessage(p.responseMessage, true);
    },
    [points],
  );
  // A break marker selects its request and the message where the cache stopped matching (observed: the
  // divergence point; simulated: the first rewrite inside the old prefix), else the request's response.
  const onPickBreak = useCallback(
    (b: BreakMark) => {
      onPick(b.pos);
      if (b.messageIndex !== null) useStore.getState().viewActions.selectMessage(b.messageIndex, true);
    },
    [onPick],
  );
  // The card hangs under the chart, next to the pointer, so it never hides the bars being read.
  const place = useCallback((e: MouseEvent) => {
    const r = box.current?.getBoundingClientRect();
    return { x: e.clientX - (r?.left ?? 0), y: HEIGHT + 2 };
  }, []);
  const onHoverCol = useCallback(
    (col: number | null, e: MouseEvent) => {
      setHover((h) => (col === null ? null : h?.only && h.col === col ? h : { col, ...place(e) }));
    },
    [place],
  );
  const onHoverBreak = useCallback(
    (b: BreakMark | null, e: MouseEvent) => {
      if (!b) return setHover(null);
      setHover({ col: columnOfPos(b.pos, points.length, geo.cols.length), only: b, ...place(e) });
    },
    [points.length, geo.cols.length, place],
  );

  const cal = result?.calibration.find((c) => c.thread === thread);
  const hovCol = hover ? geo.cols[hover.col] : undefined;
  const hovBreaks = hovCol
    ? hover?.only
      ? [hover.only]
      : breaks.filter((b) => b.pos >= hovCol.from && b.pos < hovCol.to)
    : [];

  return (
    <section data-testid="cache-timeline" className="cache-timeline" aria-busy={running}>
      <div className="tl-head">
        <span className="panel-title">Cache timeline</span>
        <span className="muted num">
          {points.length} requests{scope === 'thread' ? ` · ${titles.get(thread) ?? thread}` : ' · all threads'}
          {cal && cal.factor !== 1 ? ` · ≈ calibrated ×${cal.factor.toFixed(2)}` : ''}
        </span>
        {threads > 1 && (
          <fieldset className="tl-scope" aria-label="Requests shown">
            <button type="button" aria-pressed={scope === 'thread'} onClick={() => setScope('thread')}>
              This thread
            </button>
            <button type="button" aria-pressed={scope === 'all'} onClick={() => setScope('all')}>
              All threads by time
            </button>
          </fieldset>
        )}
        <TimelineLegend order={order} hasRecorded={hasRecorded} />
      </div>
      <div className="tl-body" ref={box}>
        {!result && (
          <div className="tl-empty muted">{running ? 'Replaying…' : 'Load a transcript to see its cache.'}</div>
        )}
        {result && points.length === 0 && <div className="tl-empty muted">This thread made no requests.</div>}
        {result && points.length > 0 && width > 0 && (
          <TimelineChart
            points={points}
            geo={geo}
            order={order}
            map={map}
            lines={lines}
            scope={scope}
            hasObserved={hasObserved}
            breaks={breaks}
            selectedPos={selectedPos}
            hoverCol={hover?.col ?? null}
            onPick={onPick}
            onPickBreak={onPickBreak}
            onHoverCol={onHoverCol}
            onHoverBreak={onHoverBreak}
            width={width}
          />
        )}
        {result && hover && hovCol && (
          <TimelineHover
            col={hovCol}
            points={points}
            breaks={hovBreaks}
            events={result.events}
            patterns={result.cacheFindings.patterns}
            map={map}
            titles={titles}
            x={hover.x}
            y={hover.y}
            containerWidth={width}
          />
        )}
      </div>
      {result && points.length > 0 && (
        <BreakStrip
          points={points}
          breaks={breaks}
          events={result.events}
          selectedPos={selectedPos}
          minCacheable={result.settings.config.cache.minCacheable}
          onPick={onPick}
        />
      )}
    </section>
  );
}
