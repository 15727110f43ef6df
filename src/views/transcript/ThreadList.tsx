import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { fmtUsd, type ThreadInfo } from '../../../worker/api.ts';
import { useStore } from '../../state/store.ts';
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

/** The thread switcher: main, the sidechains (sub-agents) by title, side calls folded into one group. */
export function ThreadList() {
  const { threads, current, byThread } = useStore(
    useShallow((s) => ({
      threads: s.transcript.summary?.threads,
      current: s.view.thread,
      byThread: s.run.result?.totals.cost.recorded?.byThread,
    })),
  );
  const usd: ThreadUsd | undefined = byThread && new Map(byThread.map((b) => [b.thread, b]));
  const setThread = useStore((s) => s.viewActions.setThread);
  const [open, setOpen] = useState(false);
  if (!threads) return <nav className="thread-list" />;
  const ordered = threadOrder(threads);
  const sideCalls = ordered.filter((t) => t.kind === 'side-call');
  const others = ordered.filter((t) => t.kind !== 'side-call');
  const several = others.filter((t) => t.kind === 'main').length > 1;
  const currentIsSide = sideCalls.some((t) => t.id === current);
  const sideRequests = sideCalls.reduce((n, t) => n + t.requests, 0);
  const sideUsd = usd && sideCalls.reduce((n, t) => n + (usd.get(t.id)?.usd ?? 0), 0);
  return (
    <nav className="thread-list" aria-label="Threads" data-testid="thread-list">
      <div className="panel-title">
        Threads <span className="muted num">{threads.length}</span>
        <span className="panel-hint">msgs</span>
      </div>
      <div className="thread-scroll">
        {others.map((t) => (
          <Item key={t.id} t={t} current={t.id === current} several={several} onPick={setThread} usd={usd} />
        ))}
        {sideCalls.length > 0 && (
          <>
            <button
              type="button"
              className="thread group"
              data-testid="side-call-group"
              aria-expanded={open || currentIsSide}
              onClick={() => setOpen(!open)}
              title="Side calls: title generation, quota probes and other helper requests outside the conversation"
            >
              <span className="thread-dot" aria-hidden="true">
                {open || currentIsSide ? '▾' : '▸'}
              </span>
              <span className="thread-name">side calls ×{sideCalls.length}</span>
              {sideUsd !== undefined && (
                <span
                  className="thread-usd num"
                  data-testid="side-call-cost"
                  title="recorded dollars of every side call"
                >
                  {fmtUsd(sideUsd)}
                </span>
              )}
              <span className="thread-count num" title="requests">
                {sideRequests}
              </span>
            </button>
            {(open || currentIsSide) &&
              sideCalls.map((t) => (
                <Item key={t.id} t={t} current={t.id === current} several={several} onPick={setThread} usd={usd} />
              ))}
          </>
        )}
      </div>
    </nav>
  );
}
