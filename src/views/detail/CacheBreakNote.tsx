import { useShallow } from 'zustand/react/shallow';
import { fmtUsd, type TimelinePoint } from '../../protocol/index.ts';
import { useStore } from '../../state/store.ts';
import { fmtTokens } from '../common/format.ts';
import { causeWords } from '../timeline/timeline-model.ts';
import { useTimelineUi } from '../timeline/timeline-ui.ts';
import { usePoints } from '../timeline/use-points.ts';

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
  const { breaks, runId, thread, request } = useStore(
    useShallow((s) => ({
      breaks: s.run.result?.breaks,
      runId: s.run.result?.runId,
      thread: s.view.thread,
      request: s.view.request,
    })),
  );
  const picked = useTimelineUi((s) => s.picked);
  const rows = (breaks ?? []).filter((b) => b.thread === thread);
  const sim =
    picked?.source === 'simulated' && picked.thread === thread
      ? rows.find((b) => b.source === 'simulated' && b.request === picked.request)
      : undefined;
  const here = sim ? [] : rows.filter((b) => b.source === 'observed' && b.messageIndex === message);
  const first = picked?.source === 'observed' && picked.thread === thread ? picked.request : request;
  here.sort((a, b) => Number(b.request === first) - Number(a.request === first) || a.request - b.request);
  // Where the prefix stopped is in the break's point, asked of the engine (it shows when it arrives).
  const full = usePoints(runId, here[0] ? [here[0].point] : []);
  if (sim) {
    const b = sim;
    return (
      <div
        className="detail-cache-break"
        data-testid="detail-cache-break"
        data-request={sim.request}
        data-source="simulated"
      >
        <div>
          <strong>
            ◆ Simulated break at request {sim.request}: {causeWords(b.cause)}
          </strong>{' '}
          <span className="num muted">
            (≈{fmtTokens(b.tokens)} tokens re-written{b.usd !== null ? `, ≈${fmtUsd(b.usd)}` : ''}, estimated)
          </span>
        </div>
        <div>{b.detail}</div>
      </div>
    );
  }
  const b = here[0];
  if (!b) return null;
  const brk = full?.get(b.point)?.point.observedBreak;
  return (
    <div
      className="detail-cache-break"
      data-testid="detail-cache-break"
      data-request={b.request}
      data-source="observed"
    >
      <div>
        <strong>
          ▼ The cache stopped matching here at request {b.request}: {causeWords(b.cause)}
        </strong>{' '}
        <span className="num muted">
          ({fmtTokens(b.tokens)} billed tokens re-written{b.usd !== null ? `; ≈${fmtUsd(b.usd)}` : ''})
        </span>
        {here.length > 1 && (
          <span className="muted">
            {' '}
            · also at requests{' '}
            {here
              .slice(1)
              .map((x) => x.request)
              .join(', ')}
          </span>
        )}
      </div>
      <div className="dcb-where">{brk ? whereWords(brk, message) : ''}</div>
      <ul>
        {b.evidence.map((e) => (
          <li key={e}>{e}</li>
        ))}
      </ul>
    </div>
  );
}
