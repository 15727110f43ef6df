import { useShallow } from 'zustand/react/shallow';
import { useStore } from '../../state/store.ts';
import { fmtTokens } from '../common/format.ts';
import { causeWords } from '../timeline/timeline-model.ts';

/** In the detail pane: the observed cache breaks whose cached prefix ended at the selected message, with the
 *  evidence each cause rests on (the selected request's first). */
export function CacheBreakNote({ message }: { message: number }) {
  const { timeline, thread, request } = useStore(
    useShallow((s) => ({ timeline: s.run.result?.timeline, thread: s.view.thread, request: s.view.request })),
  );
  const here = (timeline ?? []).filter(
    (p) => p.thread === thread && p.observedBreak?.divergence?.messageIndex === message,
  );
  if (here.length === 0) return null;
  here.sort((a, b) => Number(b.index === request) - Number(a.index === request) || a.index - b.index);
  const p = here[0];
  const b = p.observedBreak;
  if (!b) return null;
  return (
    <div className="detail-cache-break" data-testid="detail-cache-break" data-request={p.index}>
      <div>
        <strong>
          ▼ The cache stopped matching here at request {p.index}: {causeWords(b.cause)}
        </strong>{' '}
        <span className="num muted">({fmtTokens(b.tokensLost)} tokens re-written, observed)</span>
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
      <ul>
        {b.evidence.map((e) => (
          <li key={e}>{e}</li>
        ))}
      </ul>
    </div>
  );
}
