// The thread switcher (left panel): main, sidechains by title, side calls folded into one group, each with its
// message count and recorded dollars. A list of thousands of threads (a hostile link) draws only the rows in view.
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { fmtUsd, type ThreadInfo } from '../../protocol/index.ts';
import { useStore } from '../../state/store.ts';
import { useFixedRows } from '../common/fixed-rows.ts';
import { visibleText } from '../common/visible-text.ts';
import { threadOrder } from './navigation.ts';

/** `several`: more than one main thread (Inspect samples), where "main ·" would only crowd out their titles. */
function label(t: ThreadInfo, several: boolean): string {
  if (t.kind === 'main' && t.title && t.title !== t.id)
    return several ? visibleText(t.title) : `main · ${visibleText(t.title)}`;
  if (t.kind === 'main') return several ? t.id : 'main';
  return visibleText(t.title ?? t.id.replace(/^(sidechain|agent|side-call):/, ''));
}

/** A thread's recorded dollars (requests and responses billed apart), from the last run; undefined before. */
type ThreadUsd = Map<string, { usd: number; apartUsd: number; unpriced: number }>;

function usdTitle(c: { usd: number; apartUsd: number; unpriced: number } | undefined): string {
  if (!c) return '';
  const apart = c.apartUsd > 0 ? `, incl. ${fmtUsd(c.apartUsd)} billed apart (rewound branches, usage-only calls)` : '';
  const unpriced = c.unpriced > 0 ? `; ${c.unpriced} response(s) without a price left out` : '';
  return `\nrecorded ${fmtUsd(c.usd)} (observed usage at list prices${apart})${unpriced}`;
}

function Item({
  t,
  current,
  several,
  onPick,
  usd,
}: {
  t: ThreadInfo;
  current: boolean;
  several: boolean;
  onPick: (id: string) => void;
  usd: ThreadUsd | undefined;
}) {
  const c = usd?.get(t.id);
  return (
    <button
      type="button"
      data-testid="thread-item"
      data-thread-id={t.id}
      data-kind={t.kind}
      aria-pressed={current}
      className={`thread kind-${t.kind}`}
      title={`${t.id}${t.title ? ` — ${t.title}` : ''}\n${t.messages} messages, ${t.requests} requests${usdTitle(c)}`}
      onClick={() => onPick(t.id)}
    >
      <span className="thread-dot" aria-hidden="true">
        {current ? '●' : '○'}
      </span>
      <span className="thread-name">{label(t, several)}</span>
      {c && (
        <span className="thread-usd num" data-testid="thread-cost">
          {fmtUsd(c.usd)}
        </span>
      )}
      <span className="thread-count num">{t.messages}</span>
    </button>
  );
}

/** One row of the list: a thread, or the side-call group's header. */
type Row = { thread: ThreadInfo } | { group: true };

/** Lists up to this many rows are drawn whole; longer ones (a link or log of thousands of threads drew them all,
 *  issue 19 item 10: 1 s of main thread for 10,000) draw only the rows in view. */
const DRAW_ALL = 200;
const ROW_HEIGHT = 24;

/** The thread switcher: main, the sidechains (sub-agents) by title, side calls folded into one group. */
export function ThreadList() {
  const { threads, current, byThread } = useStore(
    useShallow((s) => ({
      threads: s.transcript.summary?.threads,
      current: s.view.thread,
      byThread: s.run.result?.totals.cost.recorded?.byThread,
    })),
  );
  const usd: ThreadUsd | undefined = useMemo(() => byThread && new Map(byThread.map((b) => [b.thread, b])), [byThread]);
  const setThread = useStore((s) => s.viewActions.setThread);
  const [open, setOpen] = useState(false);
  const groups = useMemo(() => {
    const ordered = threadOrder(threads ?? []);
    const sideCalls = ordered.filter((t) => t.kind === 'side-call');
    const others = ordered.filter((t) => t.kind !== 'side-call');
    return {
      sideCalls,
      others,
      several: others.filter((t) => t.kind === 'main').length > 1,
      sideRequests: sideCalls.reduce((n, t) => n + t.requests, 0),
    };
  }, [threads]);
  if (!threads) return <nav className="thread-list" />;
  const { sideCalls, others, several, sideRequests } = groups;
  const currentIsSide = sideCalls.some((t) => t.id === current);
  const expanded = open || currentIsSide;
  const sideUsd = usd && sideCalls.reduce((n, t) => n + (usd.get(t.id)?.usd ?? 0), 0);
  const rows: Row[] = others.map((t) => ({ thread: t }));
  if (sideCalls.length > 0) rows.push({ group: true });
  if (expanded) for (const t of sideCalls) rows.push({ thread: t });
  const draw = (r: Row) =>
    'group' in r ? (
      <button
        key="side-call-group"
        type="button"
        className="thread group"
        data-testid="side-call-group"
        aria-expanded={expanded}
        onClick={() => setOpen(!open)}
        title="Side calls: title generation, quota probes and other helper requests outside the conversation"
      >
        <span className="thread-dot" aria-hidden="true">
          {expanded ? '▾' : '▸'}
        </span>
        <span className="thread-name">side calls ×{sideCalls.length}</span>
        {sideUsd !== undefined && (
          <span className="thread-usd num" data-testid="side-call-cost" title="recorded dollars of every side call">
            {fmtUsd(sideUsd)}
          </span>
        )}
        <span className="thread-count num" title="requests">
          {sideRequests}
        </span>
      </button>
    ) : (
      <Item
        key={r.thread.id}
        t={r.thread}
        current={r.thread.id === current}
        several={several}
        onPick={setThread}
        usd={usd}
      />
    );
  return (
    <nav className="thread-list" aria-label="Threads" data-testid="thread-list">
      <div className="panel-title">
        Threads <span className="muted num">{threads.length}</span>
        <span className="panel-hint">msgs</span>
      </div>
      {rows.length <= DRAW_ALL ? (
        <div className="thread-scroll">{rows.map(draw)}</div>
      ) : (
        <LongList rows={rows} draw={draw} current={current} />
      )}
    </nav>
  );
}

/** A long thread list: only the rows in view (and a few around them) are in the page; the current thread is
 *  scrolled into view when it changes (t / T, a link's thread). */
function LongList({ rows, draw, current }: { rows: Row[]; draw: (r: Row) => ReactNode; current: string }) {
  const { parent, v } = useFixedRows(rows.length, ROW_HEIGHT);
  const at = rows.findIndex((r) => 'thread' in r && r.thread.id === current);
  useEffect(() => {
    if (at >= 0) v.scrollToIndex(at, { align: 'auto' });
  }, [at, v]);
  return (
    <div className="thread-scroll" ref={parent} data-testid="thread-scroll" data-rows={rows.length}>
      <div style={{ height: v.getTotalSize(), position: 'relative' }}>
        {v.getVirtualItems().map((item) => (
          <div
            key={item.key}
            style={{
              position: 'absolute',
              top: 0,
              left: 0,
              right: 0,
              height: ROW_HEIGHT,
              transform: `translateY(${item.start}px)`,
            }}
          >
            {draw(rows[item.index])}
          </div>
        ))}
      </div>
    </div>
  );
}
