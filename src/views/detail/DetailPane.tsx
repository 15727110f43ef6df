import { lazy, Suspense, useEffect, useMemo, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { EventRow, RunResult } from '../../protocol/index.ts';
import { engine } from '../../state/engine-client.ts';
import { threadRows, useStore } from '../../state/store.ts';
import type { ViewState } from '../../state/types.ts';
import { useColorScheme } from '../app/use-color-scheme.ts';
import { useWindowNotes } from '../transcript/use-notes.ts';
import { CacheBreakNote } from './CacheBreakNote.tsx';
import { DetailHeader } from './DetailHeader.tsx';
import { DetailStart } from './DetailStart.tsx';
import { useEventDiff, useEventRow, useMessageDetail } from './use-detail.ts';

const DetailEditor = lazy(() => import('./DetailEditor.tsx').then((m) => ({ default: m.DetailEditor })));
const DiffView = lazy(() => import('./DiffView.tsx').then((m) => ({ default: m.DiffView })));

const TABS: { id: ViewState['detailTab']; label: string }[] = [
  { id: 'raw', label: 'Raw' },
  { id: 'normalized', label: 'Normalized' },
  { id: 'diff', label: 'Diff' },
];

/** The selected event's row, fetched with the run it was picked (or followed) in. */
type Picked = { runId: number; row: EventRow };

/** Event ids are per run: after a re-run, follow the selected event to its new id in the engine (or let it go). */
function useFollowEvent(result: RunResult | undefined, event: number | null, picked: Picked | null): void {
  const prev = useRef(result);
  useEffect(() => {
    const old = prev.current;
    prev.current = result;
    if (!old || !result || old === result || event === null) return;
    const select = useStore.getState().viewActions.selectEvent;
    const was = picked && picked.row.id === event ? picked.row : undefined;
    if (!was) {
      select(null);
      return;
    }
    const { id: _id, ...like } = was;
    void engine()
      .findEvent(result.runId, like)
      .then((now) => {
        // null: the engine has run again (this effect runs again when that result lands); a newer pick wins.
        if (!now || useStore.getState().view.event !== event) return;
        if (now.id !== event) select(now.id);
      });
  }, [result, event, picked]);
}

/** The selected message: a readable header, then its source (Raw / Normalized) or a rewrite's diff. */
export function DetailPane() {
  const { thread, message, event, tab, rows, result, loadKey } = useStore(
    useShallow((s) => ({
      thread: s.view.thread,
      message: s.view.message,
      event: s.view.event,
      tab: s.view.detailTab,
      rows: threadRows(s),
      result: s.run.result,
      loadKey: s.transcript.summary ? `${s.transcript.summary.fileName}|${s.transcript.summary.loadMs}` : '',
    })),
  );
  const { setDetailTab, selectEvent } = useStore((s) => s.viewActions);
  const scheme = useColorScheme();
  const row = message !== null ? rows?.[message] : undefined;
  const detail = useMessageDetail(thread, row ? row.index : null, loadKey);
  const diff = useEventDiff(event, result?.runId);
  // The selected event's row, kept until the next one lands (the run it came with is what the follow needs).
  const evRow = useEventRow(event, result?.runId);
  const picked = useRef<Picked | null>(null);
  if (evRow?.value && result && evRow.key === `${result.runId}|${event}`)
    picked.current = { runId: result.runId, row: evRow.value };
  const ev = picked.current && picked.current.row.id === event ? picked.current.row : undefined;
  useFollowEvent(result, event, picked.current);
  // The selected message's tool results and rewrites in this run (a window of one message).
  const at = row ? row.index : 0;
  const win = useWindowNotes(row ? result?.runId : undefined, thread, at, at + 1);

  // Selecting another message leaves a diff that belongs to a different one.
  const lastMessage = useRef(message);
  useEffect(() => {
    if (lastMessage.current === message) return;
    lastMessage.current = message;
    const st = useStore.getState();
    const e = st.view.event !== null && picked.current?.row.id === st.view.event ? picked.current.row : undefined;
    if (e && (e.messageIndex !== message || e.thread !== thread)) {
      selectEvent(null);
      if (st.view.detailTab === 'diff') setDetailTab('raw');
    }
  }, [message, thread, selectEvent, setDetailTab]);

  // The rewrite the Diff tab opens when none is picked: the message's first, or the hard-cap drop that removed it.
  const firstEvent = useMemo(() => {
    if (!row || !win.current || !win.notes) return null;
    const w = win.notes;
    const own = w.events.find((e) => e.messageIndex === row.index);
    let drop: EventRow | undefined;
    for (const e of [...w.events, ...w.drops])
      if (
        e.action === 'drop' &&
        e.messageIndex <= row.index &&
        (e.lastMessageIndex ?? e.messageIndex) >= row.index &&
        (!drop || e.id < drop.id)
      )
        drop = e;
    return (own ?? drop)?.id ?? null;
  }, [row, win]);
  const d = detail?.value;
  // The Diff tab needs a selected rewrite; without one the source is shown.
  const shown = tab === 'diff' && event === null ? 'raw' : tab;
  const source = shown === 'normalized' || !d?.raw ? d?.normalized : d.raw;
  const showDiff = shown === 'diff';
  return (
    <div className="detail" data-testid="detail-pane">
      <div className="panel-title">
        Detail
        {row && <span className="panel-hint">Enter opens · Esc closes the diff</span>}
      </div>
      {!row && !ev && <DetailStart />}
      {row && <DetailHeader row={row} window={win} />}
      {row && <CacheBreakNote message={row.index} />}
      {(row || ev) && (
        <>
          <div className="tabs" role="tablist">
            {TABS.map((t) => (
              <button
                key={t.id}
                type="button"
                role="tab"
                data-testid={`detail-tab-${t.id}`}
                aria-selected={shown === t.id}
                disabled={t.id === 'diff' && event === null && firstEvent === null}
                title={
                  t.id === 'diff' && event === null && firstEvent === null
                    ? 'The pipeline did not rewrite this message in this run'
                    : undefined
                }
                onClick={() => {
                  if (t.id === 'diff' && event === null && firstEvent !== null) selectEvent(firstEvent);
                  setDetailTab(t.id);
                }}
              >
                {t.label}
              </button>
            ))}
            <span className="tab-note muted">
              {showDiff && diff?.value
                ? diff.value.title
                : d && !d.raw && shown === 'raw'
                  ? (d.rawNote ?? `no line-based source${d.path ? ` (${d.path})` : ''}: normalized shown`)
                  : d
                    ? [d.line > 0 ? `line ${d.line}${shown === 'raw' ? ' as written' : ''}` : '', d.path ?? '']
                        .filter(Boolean)
                        .join(' · ')
                    : ''}
            </span>
          </div>
          <div className="editor-wrap">
            <Suspense fallback={<div className="empty muted">Loading editor…</div>}>
              {showDiff && diff?.value && (
                <DiffView before={diff.value.before} after={diff.value.after} scheme={scheme} />
              )}
              {showDiff && diff && !diff.value && (
                <div className="empty muted">This rewrite is no longer part of the current run.</div>
              )}
              {!showDiff && source !== undefined && <DetailEditor value={source} language="json" scheme={scheme} />}
              {!showDiff && detail?.error && <div className="empty error-text">{detail.error}</div>}
            </Suspense>
          </div>
        </>
      )}
    </div>
  );
}
