import { type CachePattern, fmtUsd, type TimelinePoint } from '../../../worker/api.ts';
import { fmtTokens } from '../common/format.ts';

type Brk = NonNullable<TimelinePoint['observedBreak']>;

const MAX_EVIDENCE = 5;

/** Where an observed break's cached prefix ended, what it cost, the evidence its cause rests on, and the
 *  recurring finding it belongs to. */
export function ObservedBreakWhy({ brk, pattern }: { brk: Brk; pattern: CachePattern | undefined }) {
  const d = brk.divergence;
  return (
    <>
      {d && (
        <div className="num" data-testid="break-divergence" data-message-index={d.messageIndex}>
          Cache matched through {fmtTokens(d.tokens)} tokens (observed), stopping{' '}
          {d.region === 'unlogged-prefix'
            ? `before message ${d.messageIndex}'s logged content (inside ≈${fmtTokens(d.unloggedTokens)} tokens of system prompt, tools and injected context)`
            : `in message ${d.messageIndex}, block ${d.blockIndex}`}{' '}
          <span className="muted">±{fmtTokens(d.uncertaintyTokens)} (estimated)</span>; everything after it was
          re-written: {fmtTokens(brk.tokensLost)} tokens{brk.usd !== null ? `, ≈${fmtUsd(brk.usd)}` : ''}.
        </div>
      )}
      {brk.evidence.length > 0 && (
        <ul className="tl-hc-evidence" data-testid="break-evidence">
          {brk.evidence.slice(0, MAX_EVIDENCE).map((e) => (
            <li key={e}>{e}</li>
          ))}
          {brk.evidence.length > MAX_EVIDENCE && (
            <li className="muted">+{brk.evidence.length - MAX_EVIDENCE} more (detail pane)</li>
          )}
        </ul>
      )}
      {pattern && (
        <div className="tl-hc-pattern" data-testid="break-pattern">
          <strong>Recurring:</strong> {pattern.text}
        </div>
      )}
    </>
  );
}
