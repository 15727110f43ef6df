import { lazy, Suspense, useEffect, useMemo, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { EventRow, RunResult } from '../../protocol/index.ts';
import { threadRows, useStore } from '../../state/store.ts';
import type { ViewState } from '../../state/types.ts';
import { useColorScheme } from '../app/use-color-scheme.ts';
import { CacheBreakNote } from './CacheBreakNote.tsx';
import { DetailHeader } from './DetailHeader.tsx';
import { DetailStart } from './DetailStart.tsx';
import { useEventDiff, useMessageDetail } from './use-detail.ts';

const DetailEditor = lazy(() => import('./DetailEditor.tsx').then((m) => ({ default: m.DetailEditor })));
const DiffView = lazy(() => import('./DiffView.tsx').then((m) => ({ default: m.DiffView })));

const TABS: { id: ViewState['detailTab']; label: string }[] = [
  { id: 'raw', label: 'Raw' },
  { id: 'normalized', label: 'Normalized' },
  { id: 'diff', label: 'Diff' },
];

function sameEvent(a: EventRow, b: EventRow): boolean {
  return (
    a.thread === b.thread &&
    a.request === b.request &&
    a.stage === b.stage &&
    a.action === b.action &&
    a.messageIndex === b.messageIndex &&
    a.blockIndex === b.blockIndex &&
    a.toolUseId === b.toolUseId
  );
}

/** Event ids are per run: after a re-run, follow the selected event to its new id (or let it go). */
function useFollowEvent(result: RunResult | undefined, event: number | null): void {
  const prev = useRef(result);
  useEffect(() => {
    const old = prev.current;
    prev.current = result;
    if (!old || !result || old === result || event === null) return;
    const was = old.events[event];
    const now = was ? result.events.find((e) => sameEvent(e, was)) : undefined;
    if (now?.id !== event) useStore.getState().viewActions.selectEvent(now ? now.id : null);
  }, [result, event]);
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
  useFollowEvent(result, event);
  const row = message !== null ? rows?.[message] : undefined;
  const detail = useMessageDetail(thread, row ? row.index : null, loadKey);
  const diff = useEventDiff(event, result?.runId);
  const ev = event !== null ? result?.events[event] : undefined;

  // Selecting another message leaves a diff that belongs to a different one.
  const lastMessage = useRef(message);
  useEffect(() => {
    if (lastMessage.current === message) return;
    lastMessage.current = message;
    const st = useStore.getState();
    const e = st.view.event !== null ? st.run.result?.events[st.view.event] : undefined;
    if (e && (e.messageIndex !== message || e.thread !== thread)) {
      selectEvent(null);
      if (st.view.detailTab === 'diff') setDetailTab('raw');
    }
  }, [message, thread, selectEvent, setDetailTab]);

  // The rewrite the Diff tab opens when none is picked: the message's first, or the hard-cap drop that removed it.
  const firstEvent = useMemo(() => {
    if (!row || !result) return null;
    const own = result.events.find((e) => e.thread === thread && e.messageIndex === row.index);
    const drop = result.events.find(
      (e) =>
        e.thread === thread &&
        e.action === 'drop' &&
        e.messageIndex <= row.index &&
        (e.lastMessageIndex ?? e.messageIndex) >= row.index,
    );
    return (own ?? drop)?.id ?? null;
  }, [row, result, thread]);
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
      {row && <DetailHeader row={row} />}
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
