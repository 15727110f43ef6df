import { type CacheFindings, fmtUsd } from '../../../worker/api.ts';
import { Stat } from './Stat.tsx';

/** The summary bar's "why it fell": the advice the observed breaks support, largest dollar effect first; the
 *  card's title lists every piece of advice and the recurring findings. */
export function WhyItFell({ findings }: { findings: CacheFindings }) {
  const top = findings.advice[0];
  if (!top) return null;
  const title = [
    'Why the cache hit rate fell — advice from the observed breaks (dollars estimated at list prices):',
    ...findings.advice.map((a) => `• ${a.text}`),
    ...(findings.patterns.length > 0 ? ['Recurring:', ...findings.patterns.map((p) => `• ${p.text}`)] : []),
  ].join('\n');
  return (
    <Stat label="why it fell" title={title} tone="warn">
      <span data-testid="why-it-fell" data-kind={top.kind} className="why-it-fell">
        {top.kind === 'one-hour-ttl'
          ? '1-hour TTL'
          : top.kind === 'recurring-rewrite'
            ? `recurring rewrite ×${top.breaks.length}`
            : `stable prefix ×${top.breaks.length}`}
        {top.usd !== null && <span className="muted"> ≈{fmtUsd(top.usd)}</span>}
        {findings.advice.length > 1 && <span className="muted"> +{findings.advice.length - 1}</span>}
      </span>
    </Stat>
  );
}
