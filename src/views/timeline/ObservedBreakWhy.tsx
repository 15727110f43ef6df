import { type CachePattern, fmtUsd, type TimelinePoint } from '../../protocol/index.ts';
import { fmtTokens } from '../common/format.ts';

type Brk = NonNullable<TimelinePoint['observedBreak']>;

const MAX_EVIDENCE = 2;

/** Where an observed break's cached prefix ended, what it cost, the evidence its cause rests on, and the
 *  recurring finding it belongs to. */
export function ObservedBreakWhy({ brk, pattern }: { brk: Brk; pattern: CachePattern | undefined }) {
  const d = brk.divergence;
  // The divergence sentence above already says where the prefix ended; the card stays short (the detail pane
  // lists everything).
  const evidence = brk.evidence.filter((e) => !e.startsWith('the cached prefix ended at'));
  return (
    <>
      {d && (
        <div className="num" data-testid="break-divergence" data-message-index={d.messageIndex}>
          {d.tokens === 0 ? (
            'Nothing was read from cache (observed); re-written: '
          ) : (
            <>
              Cache matched through {d.tokens.toLocaleString('en-US')} tokens (observed), stopping{' '}
              {d.region === 'unlogged-prefix'
                ? `before message ${d.messageIndex}'s logged content`
                : `in message ${d.messageIndex}, block ${d.blockIndex}`}{' '}
              <span className="muted">±{fmtTokens(d.uncertaintyTokens)} (estimated)</span>; re-written after it:{' '}
            </>
          )}
          {brk.tokensLost.toLocaleString('en-US')} tokens{brk.usd !== null ? `, ≈${fmtUsd(brk.usd)}` : ''}.
        </div>
      )}
      {pattern && (
        <div className="tl-hc-pattern" data-testid="break-pattern">
          <strong>Recurring:</strong> {pattern.text}
        </div>
      )}
      {evidence.length > 0 && (
        <ul className="tl-hc-evidence" data-testid="break-evidence">
          {evidence.slice(0, MAX_EVIDENCE).map((e) => (
            <li key={e}>{e}</li>
          ))}
          {evidence.length > MAX_EVIDENCE && (
            <li className="muted">+{evidence.length - MAX_EVIDENCE} more: click to list them in the detail pane</li>
          )}
        </ul>
      )}
    </>
  );
}
