import type { DayTotal } from '../../protocol/index.ts';
import { fmtDollars, fmtRate } from './session-format.ts';

/** Totals per local day of what the shown sessions billed (each response on its own day), newest first (observed
 *  dollars and hit rate). */
export function DayTotals({ days }: { days: readonly DayTotal[] }) {
  if (days.length === 0) return null;
  return (
    <div className="day-totals" data-testid="day-totals">
      {days.map((d) => (
        <div
          key={d.day}
          className="day-total"
          data-testid="day-total"
          data-day={d.day}
          data-sessions={d.sessions}
          data-requests={d.requests}
          title={`${d.day}: ${d.sessions} sessions, ${d.requests} requests, ${fmtDollars(d.usd)} recorded that day (each response on the day of its own time), hit rate ${fmtRate(d.hitRate)} observed`}
        >
          <span className="day">{d.day}</span>
          <span className="num">{fmtDollars(d.usd)}</span>
          <span className="muted num">
            {d.sessions} {d.sessions === 1 ? 'session' : 'sessions'} · {d.requests} req · hit {fmtRate(d.hitRate)}
          </span>
        </div>
      ))}
    </div>
  );
}
