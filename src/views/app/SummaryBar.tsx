import { useStore } from '../../state/store.ts';
import { fmtPct, fmtTokens } from '../common/format.ts';

export function SummaryBar() {
  const r = useStore((s) => s.run.result);
  return (
    <div data-testid="summary-bar" className="summary-bar">
      {r && (
        <>
          <span className="num">{fmtTokens(r.totals.tokensIn)} tokens</span>
          <span data-testid="stat-hit-rate-observed">{fmtPct(r.totals.observed?.hitRate)}</span>
          <span data-testid="stat-hit-rate-simulated">{fmtPct(r.totals.simulated.hitRate)}</span>
        </>
      )}
    </div>
  );
}
