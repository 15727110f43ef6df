import { useEffect, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { type BreakRow, fmtUsd } from '../../protocol/index.ts';
import { useStore } from '../../state/store.ts';
import { useFixedRows } from '../common/fixed-rows.ts';
import { fmtTime, fmtTokens } from '../common/format.ts';
import { responseMessageAt } from '../timeline/points.ts';
import { causeWords } from '../timeline/timeline-model.ts';
import { pickBreak, pickedKey, useTimelineUi } from '../timeline/timeline-ui.ts';
import { type BreakSortKey, breakItems, DEFAULT_DIR, type SortDir } from './break-sort.ts';
import './breaks.css';

const ROW_HEIGHT = 22;

const COLUMNS: { key: BreakSortKey | null; label: string; title: string; cls: string }[] = [
  { key: 'request', label: 'request', title: 'Thread and request (0-based per thread)', cls: 'bt-req' },
  { key: 'time', label: 'time', title: 'When the request was sent (UTC)', cls: 'bt-time' },
  { key: 'cause', label: 'cause', title: 'Why the cached prefix stopped matching', cls: 'bt-cause' },
  {
    key: 'tokens',
    label: 'tokens',
    title:
      'Tokens written again instead of read: billed for an observed break (the provider’s usage), estimated (≈) for a simulated one',
    cls: 'bt-num',
  },
  {
    key: 'usd',
    label: 'USD',
    title: 'Those tokens written instead of read, at list prices (estimate)',
    cls: 'bt-num',
  },
  {
    key: null,
    label: 'stopped at',
    title: 'Where the cached prefix ended: the message selected on click',
    cls: 'bt-msg',
  },
  { key: null, label: 'evidence', title: 'What the cause rests on', cls: 'bt-evidence' },
];

const SOURCES = [
  { source: 'observed', glyph: '▼', title: 'Show or hide the breaks the log’s own usage shows' },
  { source: 'simulated', glyph: '◆', title: 'Show or hide the breaks the replay of this preset predicts' },
] as const;

const GROUP_WORDS = {
  observed: '▼ Observed — the log’s usage shows the cache read collapsing',
  simulated: '◆ Simulated — the replay of this preset loses the cached prefix',
} as const;

function where(r: BreakRow): string {
  if (r.messageIndex === null) return '—';
  return r.unlogged ? `before m${r.messageIndex}` : `m${r.messageIndex}`;
}

function evidenceOf(r: BreakRow): string {
  return r.evidence.find((e) => !e.startsWith('the cached prefix ended at')) ?? r.detail;
}

/** Every observed and simulated break of the run, listed apart, sortable, following the timeline's zoom; a click
 *  selects the break on the timeline and its message in the transcript. */
export function BreaksTable() {
  const { breaks, timeline, threads } = useStore(
    useShallow((s) => ({
      breaks: s.run.result?.breaks,
      timeline: s.run.result?.timeline,
      threads: s.transcript.summary?.threads,
    })),
  );
  const { picked, inView } = useTimelineUi(useShallow((s) => ({ picked: s.picked, inView: s.inView })));
  const setRange = useStore((s) => s.viewActions.setTimelineRange);
  const [key, setKey] = useState<BreakSortKey>('usd');
  const [dir, setDir] = useState<SortDir>('desc');
  const [sources, setSources] = useState<ReadonlySet<BreakRow['source']>>(new Set(['observed', 'simulated']));
  const rank = useMemo(() => new Map((threads ?? []).map((t, i) => [t.id, i])), [threads]);
  const titles = useMemo(() => new Map((threads ?? []).map((t) => [t.id, t.title ?? t.id])), [threads]);
  const multi = (threads?.length ?? 0) > 1;
  const all = breaks ?? [];
  const items = useMemo(
    () => breakItems(all, key, dir, rank, { sources, has: inView?.has ?? null }),
    [all, key, dir, rank, sources, inView],
  );
  const counts = useMemo(() => {
    let observed = 0;
    for (const b of all) if (b.source === 'observed') observed++;
    return { observed, simulated: all.length - observed };
  }, [all]);
  const { parent, v } = useFixedRows(items.length, ROW_HEIGHT, 12);
  const pk = pickedKey(picked);

  // A break picked on the timeline scrolls into view here.
  // biome-ignore lint/correctness/useExhaustiveDependencies: follow the picked break only
  useEffect(() => {
    if (!pk) return;
    const at = items.findIndex(
      (it) =>
        it.kind === 'row' &&
        pickedKey({ source: it.row.source, thread: it.row.thread, request: it.row.request }) === pk,
    );
    if (at >= 0) v.scrollToIndex(at, { align: 'auto' });
  }, [pk]);

  const sortBy = (k: BreakSortKey) => {
    if (k === key) setDir(dir === 'asc' ? 'desc' : 'asc');
    else {
      setKey(k);
      setDir(DEFAULT_DIR[k]);
    }
  };
  const toggle = (s: BreakRow['source']) => {
    const next = new Set(sources);
    if (next.has(s)) next.delete(s);
    else next.add(s);
    setSources(next);
  };
  const open = (r: BreakRow) => {
    pickBreak({
      source: r.source,
      thread: r.thread,
      request: r.request,
      messageIndex: r.messageIndex,
      responseMessage: responseMessageAt(timeline, r.point),
    });
  };

  return (
    <div
      className="breaks-panel"
      data-testid="breaks-table"
      data-observed={counts.observed}
      data-simulated={counts.simulated}
    >
      <div className="bt-head">
        {SOURCES.map(({ source, glyph, title }) => (
          <button
            type="button"
            key={source}
            className={`bt-source tl-hc-${source}`}
            aria-pressed={sources.has(source)}
            data-testid={`breaks-count-${source}`}
            title={title}
            onClick={() => toggle(source)}
          >
            {glyph} {counts[source]} {source}
          </button>
        ))}
        {inView && (
          <span className="bt-filter" data-testid="breaks-filter">
            in {inView.label}
            {inView.thread !== null && (
              <button type="button" className="link" title="Show every request again" onClick={() => setRange(null)}>
                show all
              </button>
            )}
          </span>
        )}
        <span className="muted bt-hint">click a row: its request on the timeline, its message in the transcript</span>
      </div>
      <div className={`bt-row bt-header${multi ? ' bt-multi' : ''}`}>
        <span className="bt-src" />
        {COLUMNS.map((c) =>
          c.key ? (
            <button
              type="button"
              key={c.label}
              className={`bt-sort ${c.cls}`}
              title={`${c.title}${key === c.key ? ` (sorted ${dir === 'asc' ? 'ascending' : 'descending'})` : ''}`}
              data-sorted={key === c.key ? dir : undefined}
              onClick={() => sortBy(c.key as BreakSortKey)}
            >
              {c.label}
              {key === c.key ? (dir === 'asc' ? ' ▲' : ' ▼') : ''}
            </button>
          ) : (
            <span key={c.label} className={c.cls} title={c.title}>
              {c.label}
            </span>
          ),
        )}
      </div>
      <div ref={parent} className="bt-rows">
        {items.length === 0 && (
          <div className="empty muted">
            {all.length === 0
              ? 'No cache breaks in this run: every request read the previous prefix from cache.'
              : 'No breaks in view.'}
          </div>
        )}
        <div style={{ height: v.getTotalSize(), position: 'relative' }}>
          {v.getVirtualItems().map((vi) => {
            const it = items[vi.index];
            const style = { transform: `translateY(${vi.start}px)`, height: ROW_HEIGHT };
            if (it.kind === 'group')
              return (
                <div key={`g${it.source}`} className={`bt-group tl-hc-${it.source}`} style={style}>
                  {GROUP_WORDS[it.source]} · {it.count}
                </div>
              );
            const r = it.row;
            const k = pickedKey({ source: r.source, thread: r.thread, request: r.request });
            const est = r.source === 'simulated' ? '≈' : '';
            return (
              <button
                type="button"
                key={k}
                className={`bt-row${multi ? ' bt-multi' : ''}${k === pk ? ' bt-picked' : ''}`}
                style={style}
                data-testid="break-row"
                data-request={r.request}
                data-thread={r.thread}
                data-cause={r.cause}
                data-source={r.source}
                aria-pressed={k === pk}
                onClick={() => open(r)}
              >
                <span className={`bt-src tl-hc-${r.source}`}>{r.source === 'observed' ? '▼' : '◆'}</span>
                <span className="bt-req num" title={`${titles.get(r.thread) ?? r.thread} · request ${r.request}`}>
                  {multi && <span className="bt-thread">{titles.get(r.thread) ?? r.thread}</span>}#{r.request}
                </span>
                <span className="bt-time num">{fmtTime(r.time)}</span>
                <span className="bt-cause" title={r.detail}>
                  {causeWords(r.cause)}
                </span>
                <span className="bt-num num">
                  {est}
                  {fmtTokens(r.tokens)}
                </span>
                <span className="bt-num num">{r.usd === null ? '—' : `≈${fmtUsd(r.usd)}`}</span>
                <span
                  className="bt-msg num"
                  title={r.unlogged ? 'The cached prefix ended before this message: in the system prompt or tools' : ''}
                >
                  {where(r)}
                </span>
                <span className="bt-evidence" title={r.evidence.join('\n')}>
                  {evidenceOf(r)}
                </span>
              </button>
            );
          })}
        </div>
      </div>
    </div>
  );
}
