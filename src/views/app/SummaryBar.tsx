import { useShallow } from 'zustand/react/shallow';
import { useStore } from '../../state/store.ts';
import { fmtPct } from '../common/format.ts';
import { pointCount } from '../timeline/points.ts';
import { CostStat } from './CostStat.tsx';
import { IdleReason } from './IdleReason.tsx';
import { Stat } from './Stat.tsx';
import { TokenStats } from './TokenStats.tsx';
import { WhyItFell } from './WhyItFell.tsx';

const NO_USAGE = 'The log records no cache usage (no usage / cached-token fields), so there is no observed hit rate.';

/** The answer at a glance: billed tokens, counted tokens before → after the pipeline, the self-check, hit rates,
 *  dollars by model, pairing, re-fetches; under them why the hit rate fell (a sentence with its dollars) and, when
 *  the pipeline did nothing, why. */
export function SummaryBar() {
  const { r, requests, status, error } = useStore(
    useShallow((s) => ({
      r: s.run.result,
      requests: s.transcript.summary?.counts.requests,
      status: s.run.status,
      error: s.run.error,
    })),
  );
  const t = r?.totals;
  const cal = r?.calibration.find((c) => c.samples > 0) ?? r?.calibration[0];
  const calTitle = r?.calibration
    .map(
      (c) =>
        `${c.thread}: ×${c.factor.toFixed(2)} from ${c.samples} request(s) with usage; prefix ${c.prefixTokens} tokens (${c.prefixSource})`,
    )
    .join('\n');
  const obsHit = t?.observed?.hitRate;
  return (
    <div data-testid="summary-bar" className="summary-bar" data-run-status={status} data-run-id={r?.runId ?? 0}>
      {t && (
        <>
          <TokenStats r={r} />
          <Stat label="requests">{(requests ?? pointCount(r.timeline)).toLocaleString('en-US')}</Stat>
          <Stat
            label="hit rate"
            title="Prompt-cache hit rate: cache reads / prompt tokens, observed in the log → simulated"
          >
            <span data-testid="stat-hit-rate-observed" title={obsHit == null ? NO_USAGE : 'observed in the log'}>
              {fmtPct(obsHit)}
            </span>
            {' → '}
            <span data-testid="stat-hit-rate-simulated" title="simulated for the replayed (rewritten) prompts">
              ≈{fmtPct(t.simulated.hitRate)}
            </span>
          </Stat>
          <CostStat cost={t.cost} />
          <Stat
            label="pairing"
            title={`Tool-use / tool-result pairing problems ${r.settings.provider} would reject (errors) or flag (warnings), in the recorded input and after each stage`}
            tone={t.pairingErrors > 0 ? 'bad' : t.pairingWarnings > 0 ? 'warn' : 'good'}
          >
            <span data-testid="stat-pairing">
              {t.pairingErrors === 0 && t.pairingWarnings === 0
                ? 'ok'
                : `${t.pairingErrors} err · ${t.pairingWarnings} warn`}
            </span>
          </Stat>
          <Stat
            label="re-fetches"
            title={`${t.refetches} repeated tool call(s) in total; ${t.refetchesAfterPipeline} after the pipeline had stubbed, cleared, summarised or dropped the first result (${t.refetchTokens.toLocaleString('en-US')} tokens re-read)`}
            tone={t.refetchesAfterPipeline > 0 ? 'warn' : undefined}
          >
            <span data-testid="stat-refetches">{t.refetchesAfterPipeline}</span>
            <span className="muted"> of {t.refetches}</span>
          </Stat>
          {cal && (
            <Stat label="" title={calTitle} className="stat-calibration">
              <span className="muted">{cal.samples > 0 ? `calibrated ×${cal.factor.toFixed(2)}` : 'uncalibrated'}</span>
            </Stat>
          )}
        </>
      )}
      {!t && status !== 'running' && <span className="muted">No analysis yet.</span>}
      <span className="run-state" data-testid="run-state" aria-live="polite">
        {status === 'running' && (
          <span className="running">
            <span className="spinner" aria-hidden="true" /> re-running…
          </span>
        )}
        {status === 'ready' && r && <span className="muted num">run {Math.round(r.ms)} ms</span>}
        {status === 'error' && <span className="error-text">run failed: {error}</span>}
      </span>
      {r && (r.idle || r.breaks.some((b) => b.source === 'observed')) && (
        <div className="findings">
          <WhyItFell findings={r.cacheFindings} breaks={r.breaks} timeline={r.timeline} />
          {r.idle && <IdleReason idle={r.idle} />}
        </div>
      )}
    </div>
  );
}
