import { useMemo, useState } from 'react';
import { type BreakCause, type BreakRow, type CacheFindings, fmtUsd } from '../../protocol/index.ts';
import { fmtTokens } from '../common/format.ts';
import { responseMessageAt, type Timeline } from '../timeline/points.ts';
import { causeWords } from '../timeline/timeline-model.ts';
import { pickBreak } from '../timeline/timeline-ui.ts';
import { useLayout } from './layout-state.ts';

type Group = { cause: BreakCause; count: number; tokens: number; usd: number | null; top: BreakRow };

const LEAD: Record<CacheFindings['advice'][number]['kind'], (n: number) => string> = {
  'one-hour-ttl': () => 'advice',
  'recurring-rewrite': (n) => `recurring rewrite ×${n}`,
  'stable-prefix': (n) => `stable prefix ×${n}`,
};

const addUsd = (a: number | null, b: number | null) => (a === null && b === null ? null : (a ?? 0) + (b ?? 0));

/** Observed breaks by cause, costliest first (the breaks the log proves; the replay's are in the table). */
function groupsOf(rows: readonly BreakRow[]): Group[] {
  const by = new Map<string, Group>();
  for (const r of rows) {
    if (r.source !== 'observed') continue;
    const g = by.get(r.cause);
    if (!g) by.set(r.cause, { cause: r.cause, count: 1, tokens: r.tokens, usd: r.usd, top: r });
    else {
      g.count++;
      g.tokens += r.tokens;
      g.usd = addUsd(g.usd, r.usd);
      if ((r.usd ?? -1) > (g.top.usd ?? -1)) g.top = r;
    }
  }
  return [...by.values()].sort((a, b) => (b.usd ?? -1) - (a.usd ?? -1) || b.tokens - a.tokens);
}

/**
 * The answer at a glance, as a sentence: how many observed breaks, what they re-wrote and cost, by cause (each a
 * link to its costliest break: the timeline, the transcript and the table follow), and the advice they support
 * with its dollars; "more" unfolds every piece of advice and recurring finding in place.
 */
export function WhyItFell({
  findings,
  breaks,
  timeline,
}: {
  findings: CacheFindings;
  breaks: readonly BreakRow[];
  timeline: Timeline;
}) {
  const [open, setOpen] = useState(false);
  const showBreaks = useLayout((s) => s.showBreaks);
  const groups = useMemo(() => groupsOf(breaks), [breaks]);
  if (groups.length === 0) return null;
  const count = groups.reduce((n, g) => n + g.count, 0);
  const tokens = groups.reduce((n, g) => n + g.tokens, 0);
  const usd = groups.reduce<number | null>((a, g) => addUsd(a, g.usd), null);
  const top = findings.advice[0];
  const go = (r: BreakRow) => {
    pickBreak({ ...r, responseMessage: responseMessageAt(timeline, r.point) });
    showBreaks();
  };
  const extra = findings.advice.length - 1 + findings.patterns.length;
  const more = top !== undefined || extra > 0;
  return (
    <div className={`why-line${open ? ' why-open' : ''}`} data-testid="why-line">
      <span className="stat-label">why it fell</span>
      <span className="why-text" data-testid="why-it-fell" data-kind={top?.kind ?? ''}>
        <span className="num">
          ▼ {count} observed {count === 1 ? 'break' : 'breaks'} re-wrote {fmtTokens(tokens)} billed tokens
          {usd !== null ? `, ≈${fmtUsd(usd)}` : ''}:
        </span>{' '}
        {groups.map((g, i) => (
          <span key={g.cause}>
            {i > 0 && <span className="muted"> · </span>}
            <button
              type="button"
              className="link why-cause"
              data-testid="why-cause"
              data-cause={g.cause}
              title={`Select the costliest of these breaks (request ${g.top.request}) on the timeline, in the transcript and in the table`}
              onClick={() => go(g.top)}
            >
              {causeWords(g.cause)} ×{g.count}
            </button>
            {g.usd !== null && <span className="num muted"> ≈{fmtUsd(g.usd)}</span>}
          </span>
        ))}
        {top && (
          <>
            <span className="muted"> — </span>
            <strong className="why-lead">{LEAD[top.kind](top.breaks.length)}</strong>: {top.text}
          </>
        )}
      </span>
      <span className="why-actions">
        {more && (
          <button type="button" className="link" aria-expanded={open} onClick={() => setOpen(!open)}>
            {open ? 'less' : extra > 0 ? `more (${extra})` : 'more'}
          </button>
        )}
        <button type="button" className="link" data-testid="why-breaks" onClick={showBreaks}>
          all breaks ›
        </button>
      </span>
      {open && (
        <ul className="why-more">
          {findings.advice.slice(1).map((a) => (
            <li key={a.text}>
              <strong>{LEAD[a.kind](a.breaks.length)}</strong>: {a.text}
            </li>
          ))}
          {findings.patterns.map((p) => (
            <li key={p.text}>
              <strong>recurring</strong>: {p.text}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
