import { memo } from 'react';
import type { EventRow, TimelinePoint } from '../../../worker/api.ts';
import { useStore } from '../../state/store.ts';
import { fmtTokens } from '../common/format.ts';
import { eventLine } from './TimelineHover.tsx';
import { type BreakMark, causeWords } from './timeline-model.ts';

type Props = {
  points: readonly TimelinePoint[];
  breaks: readonly BreakMark[];
  events: readonly EventRow[];
  selectedPos: number | null;
  /** The config's minimum, or null: each model's own (cache-rules.ts). */
  minCacheable: number | null;
  onPick: (pos: number) => void;
};

const MAX_CHIPS = 6;

/**
 * Under the chart: with nothing selected, where the cache fell and why (the largest breaks, in words);
 * with a request selected, its breaks and the rewrite events behind them (click one for its diff).
 */
export const BreakStrip = memo(function BreakStrip({
  points,
  breaks,
  events,
  selectedPos,
  minCacheable,
  onPick,
}: Props) {
  const selectEvent = useStore((s) => s.viewActions.selectEvent);
  const selectMessage = useStore((s) => s.viewActions.selectMessage);
  const sel = selectedPos !== null ? points[selectedPos] : undefined;
  if (sel) {
    const own = breaks.filter((b) => b.pos === selectedPos);
    const evs = sel.eventIds
      .map((id) => events[id])
      .filter((e): e is EventRow => e !== undefined)
      .sort((a, b) => a.position - b.position);
    return (
      <div className="tl-strip" data-testid="timeline-selection">
        <span className="tl-strip-label">Request {sel.index}</span>
        {own.length === 0 && <span className="muted">no cache break</span>}
        {own.map((b) => (
          <span key={b.kind} className={`tl-strip-break tl-hc-${b.kind}`}>
            {b.kind === 'observed' ? '▼' : '◆'} {b.detail}{' '}
            <span className="num muted">
              ({b.kind === 'simulated' ? '≈' : ''}
              {fmtTokens(b.tokensLost)} tokens)
            </span>
          </span>
        ))}
        {evs.length > 0 && <span className="muted">· rewrites:</span>}
        {evs.slice(0, 12).map((e) => (
          <button
            type="button"
            key={e.id}
            className="tl-chip num"
            title={`${eventLine(e)}${e.detail ? ` — ${e.detail}` : ''}. Opens the before/after diff.`}
            onClick={() => {
              if (e.messageIndex >= 0) selectMessage(e.messageIndex, true);
              selectEvent(e.id);
            }}
          >
            {e.stage}
            {e.tier ? ` t${e.tier}` : ''} {e.action} m{e.messageIndex >= 0 ? e.messageIndex : 'Σ'}
          </button>
        ))}
        {evs.length > 12 && <span className="muted">+{evs.length - 12} more</span>}
      </div>
    );
  }
  if (breaks.length === 0) {
    const reads = points.some((p) => p.simulated.cacheRead > 0 || (p.observed?.cacheRead ?? 0) > 0);
    return (
      <div className="tl-strip">
        <span className="muted">
          {reads
            ? 'No cache breaks: every request read the previous prefix from cache.'
            : `No cache reads and no breaks: no prompt reached ${minCacheable === null ? "its model's cacheable minimum" : `the ${minCacheable.toLocaleString('en-US')}-token cacheable minimum`}.`}
        </span>
      </div>
    );
  }
  const top = [...breaks].sort((a, b) => b.tokensLost - a.tokensLost).slice(0, MAX_CHIPS);
  top.sort((a, b) => a.pos - b.pos || a.kind.localeCompare(b.kind));
  return (
    <div className="tl-strip">
      <span className="tl-strip-label">Cache fell at</span>
      {top.map((b) => (
        <button
          type="button"
          key={`${b.kind}-${b.pos}`}
          className={`tl-chip tl-hc-${b.kind}`}
          title={b.detail}
          onClick={() => onPick(b.pos)}
        >
          {b.kind === 'observed' ? '▼' : '◆'} #{b.point.index} {causeWords(b.cause)}{' '}
          <span className="num">
            −{b.kind === 'simulated' ? '≈' : ''}
            {fmtTokens(b.tokensLost)}
          </span>
        </button>
      ))}
      {breaks.length > top.length && <span className="muted">+{breaks.length - top.length} more</span>}
    </div>
  );
});
