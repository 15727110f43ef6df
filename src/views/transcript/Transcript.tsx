import { useVirtualizer } from '@tanstack/react-virtual';
import { useDeferredValue, useEffect, useMemo, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { Row } from '../../protocol/index.ts';
import { threadRows, useStore } from '../../state/store.ts';
import { rangeSpan, withinSpan } from './range-rows.ts';
import { notesFor } from './row-notes.ts';
import { matchesOf, shownRows } from './search.ts';
import { TierLegend } from './TierLegend.tsx';
import { TranscriptRow } from './TranscriptRow.tsx';
import { TranscriptToolbar } from './TranscriptToolbar.tsx';
import { useTranscriptUi } from './transcript-ui.ts';
import { blockWindow, positionBlock, useWindowNotes } from './use-notes.ts';
import { useWarmRows } from './use-warm-rows.ts';

const ROW_HEIGHT = 22;

/** The messages of the current thread: a virtualized list of dense rows. */
export function Transcript() {
  const {
    rows: latestRows,
    thread,
    result: latest,
    search,
    selected,
    scrollTo,
    status,
    loaded,
    range,
  } = useStore(
    useShallow((s) => ({
      range: s.view.range,
      loaded: s.transcript.summary,
      rows: threadRows(s),
      thread: s.view.thread,
      result: s.run.result,
      search: s.view.search,
      selected: s.view.message,
      scrollTo: s.view.scrollTo,
      status: s.transcript.status,
    })),
  );
  // Big results render in a background (interruptible) pass, so no single main-thread task grows long.
  const result = useDeferredValue(latest);
  const viewFirst = useTranscriptUi((s) => s.viewport?.first ?? 0);
  const deferredRows = useDeferredValue(latestRows);
  const rows = useWarmRows(deferredRows, viewFirst);
  // Which thread the rows on screen belong to (they follow the thread a render or two late).
  const owner = useRef(new WeakMap<readonly Row[], string>());
  if (latestRows) owner.current.set(latestRows, thread);
  const filter = useTranscriptUi((s) => s.filter);
  const setViewport = useTranscriptUi((s) => s.setViewport);
  const parentRef = useRef<HTMLDivElement>(null);
  // The timeline's zoom: only the messages of the requests in range.
  const span = useMemo(() => rangeSpan(result?.timeline, thread, range), [result, thread, range]);
  const shown = useMemo(
    () => (rows ? withinSpan(shownRows(rows, search, filter), rows.length, span, selected) : null),
    [rows, search, filter, span, selected],
  );
  const matchSet = useMemo(
    () => (rows && search.trim() && !filter ? new Set(matchesOf(rows, search)) : null),
    [rows, search, filter],
  );
  const logMax = useMemo(() => Math.log1p(rows?.reduce((m, r) => Math.max(m, r.tokens), 0) ?? 0), [rows]);
  const count = shown ? shown.length : (rows?.length ?? 0);
  const v = useVirtualizer({
    count,
    getScrollElement: () => parentRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 16,
  });

  // A new thread (or a new load) starts at the top; rows replaced by exact counts keep their place.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the thread or the file changes
  useEffect(() => {
    if (parentRef.current) parentRef.current.scrollTop = 0;
  }, [thread, loaded, span?.from, span?.to]);
  // A new file starts without the previous file's search.
  useEffect(() => {
    if (loaded) useStore.getState().viewActions.setSearch('');
  }, [loaded]);

  // Scroll a requested message into view (centered when it is far away).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per request (nonce)
  useEffect(() => {
    if (!scrollTo || !rows) return;
    const pos = shown ? shown.indexOf(scrollTo.index) : scrollTo.index;
    if (pos < 0 || pos >= count) return;
    const el = parentRef.current;
    const top = pos * ROW_HEIGHT;
    const near = el && top >= el.scrollTop - ROW_HEIGHT * 4 && top <= el.scrollTop + el.clientHeight + ROW_HEIGHT * 4;
    v.scrollToIndex(pos, { align: near ? 'auto' : 'center' });
  }, [scrollTo?.nonce]);

  const items = v.getVirtualItems();
  // The rows rendered (the viewport and the overscan) ask the engine for their notes; see use-notes.ts.
  const lo = items.length > 0 ? (shown ? shown[items[0].index] : items[0].index) : 0;
  const hi = items.length > 0 ? (shown ? shown[items[items.length - 1].index] : items[items.length - 1].index) : -1;
  // Filtered (search), the rows on screen can be far apart: then just their messages are asked for, those of the
  // filtered rows' blocks of positions.
  const at = shown && items.length > 0 ? positionBlock(items[0].index, items[items.length - 1].index, count) : null;
  const picked = shown && at ? shown.slice(at.from, at.to) : [];
  const only = picked.length > 0 && picked[picked.length - 1] - picked[0] + 1 > picked.length ? picked : undefined;
  const want = only ? { from: only[0], to: only[only.length - 1] + 1 } : blockWindow(lo ?? 0, hi ?? -1);
  const win = useWindowNotes(rows ? result?.runId : undefined, thread, want.from, want.to, only);
  const notes = useMemo(() => notesFor(result, thread, rows, win.notes), [result, thread, rows, win.notes]);
  const staleNotes = win.notes !== null && win.notes.runId !== result?.runId;
  const el = parentRef.current;
  const firstPos = el ? Math.min(count - 1, Math.floor(el.scrollTop / ROW_HEIGHT)) : 0;
  const lastPos = el ? Math.min(count - 1, Math.ceil((el.scrollTop + el.clientHeight) / ROW_HEIGHT) - 1) : 0;
  const first = shown ? (shown[firstPos] ?? 0) : firstPos;
  const last = shown ? (shown[lastPos] ?? first) : lastPos;
  useEffect(() => {
    if (count > 0) setViewport(first, Math.max(first, last));
  }, [first, last, count, setViewport]);

  return (
    <div className="transcript">
      <TranscriptToolbar />
      <div className="row header-row" aria-hidden="true">
        <span className="c-index">#</span>
        <span className="c-role">role</span>
        <span className="c-tools">tool</span>
        <span className="c-bar" />
        <span
          className="c-tokens"
          title="Counted: Tierscope’s tokenizer over each message as logged (not billed; the timeline shows the billed usage per request)"
        >
          tokens
        </span>
        <span className="c-tiers">tier</span>
        <span className="c-marks">marks</span>
        <span className="c-preview">preview</span>
      </div>
      <div
        ref={parentRef}
        className="rows"
        role="listbox"
        aria-label="Messages"
        data-testid="transcript-rows"
        data-thread={thread}
        data-count={rows?.length ?? 0}
        // The deferred passes have caught up and the notes of the rows shown are this run's: the rows and marks
        // shown are the thread's latest (tests wait on it).
        data-current={deferredRows === latestRows && result === latest && win.current}
        data-rows-thread={rows ? owner.current.get(rows) : undefined}
      >
        {/* The scroll element stays mounted while a file loads: a new one would make the virtualizer measure
            it synchronously (a forced layout of the freshly rendered page, 60–100 ms on a 20 MB log). */}
        {!rows && (
          <div className="empty muted">{status === 'loading' ? 'Loading…' : status === 'error' ? '' : 'No rows.'}</div>
        )}
        {rows && count === 0 && <div className="empty muted">No rows match “{search}”.</div>}
        <div className="rows-inner" style={{ height: v.getTotalSize() }}>
          {items.map((it) => {
            const idx = shown ? shown[it.index] : it.index;
            const row = rows?.[idx];
            if (!row) return null;
            return (
              <TranscriptRow
                key={row.index}
                row={row}
                notes={notes.get(row.index)}
                staleNotes={staleNotes}
                scale={logMax > 0 ? Math.log1p(row.tokens) / logMax : 0}
                selected={selected === row.index}
                match={matchSet?.has(row.index) ?? false}
                top={it.start}
                height={it.size}
              />
            );
          })}
        </div>
      </div>
      <div className="transcript-footer">
        <TierLegend />
        <span className="num muted footer-pos">
          {count > 0 ? `${first}–${Math.max(first, last)} of ${rows?.length ?? 0}` : `0 of ${rows?.length ?? 0}`}
          {shown ? ` · ${shown.length} shown` : ''}
        </span>
        {span && range && (
          <span className="footer-range" data-testid="transcript-range" data-from={span.from} data-to={span.to}>
            requests {range.from}–{range.to}
            <button
              type="button"
              className="link"
              title="Show every message (resets the timeline's zoom)"
              onClick={() => useStore.getState().viewActions.setTimelineRange(null)}
            >
              show all
            </button>
          </span>
        )}
      </div>
    </div>
  );
}
