import { useShallow } from 'zustand/react/shallow';
import { fmtUsd, type TimelinePoint } from '../../protocol/index.ts';
import { useStore } from '../../state/store.ts';
import { fmtTokens } from '../common/format.ts';
import { causeWords } from '../timeline/timeline-model.ts';
import { useTimelineUi } from '../timeline/timeline-ui.ts';

type Observed = NonNullable<TimelinePoint['observedBreak']>;

/** Where an observed break's cached prefix ended, in words: inside a message, or before its logged content. */
function whereWords(b: Observed, message: number): string {
  const d = b.divergence;
  if (!d) return '';
  if (d.region === 'unlogged-prefix')
    return d.tokens === 0
      ? `Nothing was read from cache: the whole prompt was written again, from the system prompt and tools on (the log does not hold them: ≈${fmtTokens(d.unloggedTokens)} tokens before message ${message}).`
      : `The cache matched ${d.tokens.toLocaleString('en-US')} tokens and stopped before message ${message}'s logged content: in the system prompt, tools or context the log does not hold (≈${fmtTokens(d.unloggedTokens)} tokens).`;
  return `The cache matched ${d.tokens.toLocaleString('en-US')} tokens and stopped in message ${d.messageIndex}, block ${d.blockIndex} (±${fmtTokens(d.uncertaintyTokens)}, estimated).`;
}

/**
 * In the detail pane: the cache breaks whose cached prefix ended at the selected message — the break picked on
 * the timeline or in the table first (observed or simulated), then the selected request's — with where the prefix
 * stopped in words, what it cost, and the evidence each cause rests on.
 */
export function CacheBreakNote({ message }: { message: number }) {
  const { timeline, thread, request } = useStore(
    useShallow((s) => ({ timeline: s.run.result?.timeline, thread: s.view.thread, request: s.view.request })),
  );
  const picked = useTimelineUi((s) => s.picked);
  const pts = (timeline ?? []).filter((p) => p.thread === thread);
  const sim =
    picked?.source === 'simulated' && picked.thread === thread
      ? pts.find((p) => p.index === picked.request && p.cacheBreak)
      : undefined;
  if (sim?.cacheBreak) {
    const b = sim.cacheBreak;
    return (
      <div
        className="detail-cache-break"
        data-testid="detail-cache-break"
        data-request={sim.index}
        data-source="simulated"
      >
        <div>
          <strong>
            ◆ Simulated break at request {sim.index}: {causeWords(b.cause)}
          </strong>{' '}
          <span className="num muted">
            (≈{fmtTokens(b.tokensLost)} tokens re-written{b.usd !== null ? `, ≈${fmtUsd(b.usd)}` : ''}, estimated)
          </span>
        </div>
        <div>{b.detail}</div>
      </div>
    );
  }
  const here = pts.filter((p) => p.observedBreak?.divergence?.messageIndex === message);
  if (here.length === 0) return null;
  const first = picked?.source === 'observed' && picked.thread === thread ? picked.request : request;
  here.sort((a, b) => Number(b.index === first) - Number(a.index === first) || a.index - b.index);
  const p = here[0];
  const b = p.observedBreak;
  if (!b) return null;
  return (
    <div className="detail-cache-break" data-testid="detail-cache-break" data-request={p.index} data-source="observed">
      <div>
        <strong>
          ▼ The cache stopped matching here at request {p.index}: {causeWords(b.cause)}
        </strong>{' '}
        <span className="num muted">
          ({fmtTokens(b.tokensLost)} billed tokens re-written{b.usd !== null ? `; ≈${fmtUsd(b.usd)}` : ''})
        </span>
        {here.length > 1 && (
          <span className="muted">
            {' '}
            · also at requests{' '}
            {here
              .slice(1)
              .map((x) => x.index)
              .join(', ')}
          </span>
        )}
      </div>
      <div className="dcb-where">{whereWords(b, message)}</div>
      <ul>
        {b.evidence.map((e) => (
          <li key={e}>{e}</li>
        ))}
      </ul>
    </div>
  );
}
