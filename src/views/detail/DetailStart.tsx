import { useShallow } from 'zustand/react/shallow';
import { fmtUsd } from '../../protocol/index.ts';
import { useStore } from '../../state/store.ts';
import { fmtTokens } from '../common/format.ts';
import { responseMessageAt } from '../timeline/points.ts';
import { causeWords } from '../timeline/timeline-model.ts';
import { pickBreak } from '../timeline/timeline-ui.ts';

/** The detail pane before anything is selected: how to read the screen, and the costliest break to start from. */
export function DetailStart() {
  const { breaks, timeline } = useStore(
    useShallow((s) => ({ breaks: s.run.result?.breaks, timeline: s.run.result?.timeline })),
  );
  const top = [...(breaks ?? [])]
    .filter((b) => b.source === 'observed')
    .sort((a, b) => (b.usd ?? -1) - (a.usd ?? -1) || b.tokens - a.tokens)[0];
  return (
    <div className="empty muted detail-start" data-testid="detail-start">
      <p>
        Select a row (click, j/k) to see its source JSON, what happened to its tool results, and the rewrites behind
        them.
      </p>
      <ul>
        <li>▼ on the timeline: where the log’s own cache read fell. ◆: where this preset’s replay would break it.</li>
        <li>Hover a marker for why and what it cost; click it to open the message where the cached prefix stopped.</li>
        <li>Drag over the chart (or scroll on it) to zoom; the transcript and the breaks table follow.</li>
      </ul>
      {top && (
        <button
          type="button"
          className="detail-start-break"
          data-testid="detail-start-break"
          onClick={() => pickBreak({ ...top, responseMessage: responseMessageAt(timeline, top.point) })}
        >
          Start with the costliest break: ▼ request {top.request} · {causeWords(top.cause)} · {fmtTokens(top.tokens)}{' '}
          billed tokens{top.usd !== null ? ` · ≈${fmtUsd(top.usd)}` : ''}
        </button>
      )}
    </div>
  );
}
