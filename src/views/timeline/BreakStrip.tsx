import { memo } from 'react';
import { type EventRow, fmtUsd } from '../../protocol/index.ts';
import { useStore } from '../../state/store.ts';
import { useLayout } from '../app/layout-state.ts';
import { fmtTokens } from '../common/format.ts';
import type { DrawnPoint } from './points.ts';
import { eventLine, eventName } from './TimelineHover.tsx';
import { type BreakMark, causeWords } from './timeline-model.ts';
import { pickMark } from './timeline-ui.ts';
import { usePoints } from './use-points.ts';

type Props = {
  points: readonly DrawnPoint[];
  breaks: readonly BreakMark[];
  /** The run the points are of (the selected one's rewrites are asked of the engine). */
  runId: number;
  selectedPos: number | null;
  /** The config's minimum, or null: each model's own (cache-rules.ts). */
  minCacheable: number | null;
};

/** Chips per source: the observed ones the log proves come first, the replay's apart after them. */
const CHIPS = { observed: 4, simulated: 2 };

/** Largest dollars first (tokens when there is no price). */
function byCost(a: BreakMark, b: BreakMark): number {
  return (b.usd ?? -1) - (a.usd ?? -1) || b.tokensLost - a.tokensLost;
}

function Chip({ b }: { b: BreakMark }) {
  const sim = b.source === 'simulated';
  return (
    <button
      type="button"
      className={`tl-chip tl-hc-${b.source}`}
      data-testid="break-chip"
      data-source={b.source}
      data-request={b.point.index}
      title={`${b.detail} — selects the request and the message where the cached prefix ended`}
      onClick={() => pickMark(b)}
    >
      {sim ? '◆' : '▼'} #{b.point.index} {causeWords(b.cause)}{' '}
      <span className="num">
        −{sim ? '≈' : ''}
        {fmtTokens(b.tokensLost)}
        {b.usd !== null ? ` ≈${fmtUsd(b.usd)}` : ''}
      </span>
    </button>
  );
}

/**
 * Under the chart: with nothing selected, where the cache fell and why (the costliest observed breaks, then the
 * simulated ones apart), and the way to every break in the table; with a request selected, its breaks and the
 * rewrite events behind them (click one for its diff).
 */
export const BreakStrip = memo(function BreakStrip({ points, breaks, runId, selectedPos, minCacheable }: Props) {
  const selectEvent = useStore((s) => s.viewActions.selectEvent);
  const selectMessage = useStore((s) => s.viewActions.selectMessage);
  const showBreaks = useLayout((s) => s.showBreaks);
  const sel = selectedPos !== null ? points[selectedPos] : undefined;
  const details = usePoints(runId, sel ? [sel.k] : []);
  if (sel) {
    const own = breaks.filter((b) => b.pos === selectedPos);
    // The request's rewrites, in order, once its detail has arrived.
    const evs: EventRow[] = (details?.get(sel.k)?.events ?? []).slice().sort((a, b) => a.position - b.position);
    return (
      <div className="tl-strip" data-testid="timeline-selection">
        <span className="tl-strip-label">Request {sel.index}</span>
        {own.length === 0 && <span className="muted">no cache break</span>}
        {own.map((b) => (
          <span key={b.source} className={`tl-strip-break tl-hc-${b.source}`}>
            {b.source === 'observed' ? '▼' : '◆'} {b.detail}{' '}
            <span className="num muted">
              ({b.source === 'simulated' ? '≈' : ''}
              {fmtTokens(b.tokensLost)} tokens{b.usd !== null ? `, ≈${fmtUsd(b.usd)}` : ''})
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
            {eventName(e, ' t')} m{e.messageIndex >= 0 ? e.messageIndex : 'Σ'}
          </button>
        ))}
        {evs.length > 12 && <span className="muted">+{evs.length - 12} more</span>}
        <button
          type="button"
          className="link tl-strip-clear"
          title="Back to where the cache fell"
          onClick={() => useStore.getState().viewActions.selectRequest(null)}
        >
          clear
        </button>
      </div>
    );
  }
  if (breaks.length === 0) {
    const reads = points.some((p) => p.simulated.cacheRead > 0 || (p.observed?.cacheRead ?? 0) > 0);
    return (
      <div className="tl-strip">
        <span className="muted">
          {reads
            ? 'No cache breaks here: every request read the previous prefix from cache.'
            : `No cache reads and no breaks: no prompt reached ${minCacheable === null ? "its model's cacheable minimum" : `the ${minCacheable.toLocaleString('en-US')}-token cacheable minimum`}.`}
        </span>
      </div>
    );
  }
  const obs = breaks.filter((b) => b.source === 'observed').sort(byCost);
  const sim = breaks.filter((b) => b.source === 'simulated').sort(byCost);
  return (
    <div className="tl-strip">
      <span className="tl-strip-label">Cache fell at</span>
      <span className="tl-chips">
        {obs.slice(0, CHIPS.observed).map((b) => (
          <Chip key={`o${b.pos}`} b={b} />
        ))}
        {obs.length > 0 && sim.length > 0 && <span className="tl-strip-sep" aria-hidden="true" />}
        {sim.length > 0 && <span className="muted tl-strip-sub">simulated:</span>}
        {sim.slice(0, CHIPS.simulated).map((b) => (
          <Chip key={`s${b.pos}`} b={b} />
        ))}
      </span>
      <button type="button" className="tl-all-breaks" data-testid="show-breaks" onClick={showBreaks}>
        {breaks.length === 1 ? 'the break' : `all ${breaks.length} breaks`} in the table ›
      </button>
    </div>
  );
});
