import { useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { fmtUsd, type RunResult } from '../../protocol/index.ts';
import { useStore } from '../../state/store.ts';
import { fmtPct, fmtTokens } from '../common/format.ts';

type Numbers = {
  saved: number;
  savedShare: number;
  /** Dollars (estimates, same cache rules): the requests without the pipeline minus with it (null: not computed). */
  savedUsd: number | null;
  withoutUsd: number | null;
  simulatedUsd: number;
  /** The recorded bill of the same requests (observed usage at list prices), for reference. */
  billUsd: number | null;
  risk: number;
  riskTokens: number;
  riskUsd: number | null;
  hit: number;
};

function numbersOf(r: RunResult): Numbers {
  const saved = r.totals.tokensIn - r.totals.tokensAfterPipeline;
  const rec = r.totals.cost.recorded;
  const sim = r.totals.cost.simulated;
  const without = r.totals.cost.withoutPipeline;
  return {
    saved,
    savedShare: r.totals.tokensIn > 0 ? saved / r.totals.tokensIn : 0,
    billUsd: rec ? rec.requestsUsd : null,
    simulatedUsd: sim.requestsUsd,
    withoutUsd: without ? without.requestsUsd : null,
    savedUsd: without ? without.requestsUsd - sim.requestsUsd : null,
    risk: r.refetchRisk.count,
    riskTokens: r.refetchRisk.tokens,
    riskUsd: r.totals.refetchAfterPipelineUsd,
    hit: r.totals.simulated.hitRate,
  };
}

/** The preset's saving in dollars: the same requests simulated without the pipeline and with it. */
function SavedUsd({ n }: { n: Numbers }) {
  if (n.savedUsd === null || n.withoutUsd === null) return null;
  const saving = n.savedUsd >= 0;
  // Under half a hundredth of a cent either way the pipeline changed nothing that is billed.
  const none = Math.abs(n.savedUsd) < 0.00005;
  const bill =
    n.billUsd === null
      ? 'The log records no usage (no bill to compare with).'
      : `Recorded bill of these requests: ${fmtUsd(n.billUsd)} (observed usage at list prices).`;
  return (
    <span
      className="num"
      data-testid="saved-usd"
      title={`Simulated under the provider's cache rules at list prices (estimates): ≈${fmtUsd(n.withoutUsd)} without the pipeline, ≈${fmtUsd(n.simulatedUsd)} with this preset. ${bill}`}
    >
      {none ? (
        <span className="muted">no change to ≈{fmtUsd(n.withoutUsd)}</span>
      ) : (
        <>
          {saving ? 'saves' : 'costs'} ≈<strong>{fmtUsd(Math.abs(n.savedUsd))}</strong>
          <span className="muted"> of ≈{fmtUsd(n.withoutUsd)}</span>
        </>
      )}
    </span>
  );
}

function Delta({ now, before, good }: { now: number; before: number | undefined; good: 'up' | 'down' }) {
  if (before === undefined || Math.round(now) === Math.round(before)) return null;
  const up = now > before;
  const better = good === 'up' ? up : !up;
  return (
    <span className={better ? 'cfg-delta cfg-delta-good' : 'cfg-delta cfg-delta-bad'}>
      {up ? '▲' : '▼'}
      {fmtTokens(Math.abs(now - before))}
    </span>
  );
}

/** The live result next to the knobs: what the pipeline saves and what it risks (after-pipeline re-fetches). */
export function TradeOff() {
  const { result, running, loaded } = useStore(
    useShallow((s) => ({ result: s.run.result, running: s.run.status === 'running', loaded: s.transcript.summary })),
  );
  // Deltas compare runs of the same transcript only (a new load starts over).
  const prev = useRef<{ runId: number; loaded: unknown; n: Numbers; before?: Numbers }>(undefined);
  if (!result) return <div className="cfg-tradeoff muted">{running ? 'Replaying…' : 'No run yet'}</div>;
  const n = numbersOf(result);
  if (prev.current?.runId !== result.runId)
    prev.current = {
      runId: result.runId,
      loaded,
      n,
      before: prev.current?.loaded === loaded ? prev.current?.n : undefined,
    };
  const before = prev.current.before;
  return (
    <div className="cfg-tradeoff" data-testid="config-tradeoff" aria-busy={running}>
      <span title="Tokens the pipeline removed over all requests: recorded input minus what would be sent">
        <span className="muted">tokens saved</span> ≈
        <strong className="num" data-testid="tokens-saved">
          {fmtTokens(n.saved)}
        </strong>{' '}
        <span className="muted num">({fmtPct(n.savedShare)})</span>
        <Delta now={n.saved} before={before?.saved} good="up" /> <SavedUsd n={n} />
      </span>
      <span
        className={n.risk > 0 ? 'cfg-risk cfg-risk-on' : 'cfg-risk'}
        title="Tool calls the agent repeated after the pipeline had stubbed, cleared or summarised the earlier result (the 37.1 failure): tokens paid again, plus a round trip"
      >
        <span className="muted">re-fetch risk</span>{' '}
        <strong className="num" data-testid="refetch-risk">
          {n.risk} {n.risk === 1 ? 'result' : 'results'}
        </strong>{' '}
        <span className="muted num">
          (≈{fmtTokens(n.riskTokens)} tokens
          {n.riskUsd !== null && (
            <>
              , ≈<span data-testid="refetch-risk-usd">{fmtUsd(n.riskUsd)}</span>
            </>
          )}
          )
        </span>
        <Delta now={n.riskTokens} before={before?.riskTokens} good="down" />
      </span>
      <span title="Share of simulated prompt tokens read from cache (estimate)">
        <span className="muted">simulated hit</span> <strong className="num">≈{fmtPct(n.hit)}</strong>
      </span>
      {running && <span className="cfg-running muted">re-running…</span>}
    </div>
  );
}
