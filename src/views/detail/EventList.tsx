import type { EventRow } from '../../protocol/index.ts';
import { useStore } from '../../state/store.ts';
import { fmtTokens } from '../common/format.ts';

/** The rewrite events touching a message; clicking one shows its before/after diff. */
export function EventList({ events }: { events: readonly EventRow[] }) {
  const current = useStore((s) => s.view.event);
  const selectEvent = useStore((s) => s.viewActions.selectEvent);
  return (
    <ol className="event-list">
      {events.map((e) => (
        <li key={e.id}>
          <button
            type="button"
            data-testid="rewrite-event"
            data-event-id={e.id}
            aria-pressed={current === e.id}
            className="event"
            title={e.detail ?? `${e.stage} ${e.action}`}
            onClick={() => selectEvent(e.id)}
          >
            <span className="num ev-req">req {e.request}</span>
            <span className="ev-what">
              {e.stage} · {e.action}
              {e.tier ? ` · tier ${e.tier}` : ''}
            </span>
            <span className="num ev-size">
              {fmtTokens(e.charsBefore)} → {fmtTokens(e.charsAfter)} ch
            </span>
            <span className="num ev-tok">−{fmtTokens(Math.max(0, e.tokensBefore - e.tokensAfter))} tok</span>
          </button>
        </li>
      ))}
    </ol>
  );
}
