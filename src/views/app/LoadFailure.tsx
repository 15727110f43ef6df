import { useStore } from '../../state/store.ts';
import { visibleText } from '../common/visible-text.ts';

/** Parse issues of the failed load listed at most (the rest are counted). */
const ISSUES = 5;

/** A load that failed while another analysis stayed on screen: what it was, why, and that nothing else changed. */
export function LoadFailure() {
  const failure = useStore((s) => s.transcript.failure);
  const shown = useStore((s) => s.transcript.summary?.fileName);
  const dismiss = useStore((s) => s.viewActions.noteFailure);
  if (!failure) return null;
  return (
    <div className="load-failure" data-testid="load-failure" role="alert">
      <span>
        <span className="error-text">
          Could not open {failure.name}: {failure.error}
        </span>
        {shown && <span className="muted"> Still showing {shown}.</span>}
        {failure.issues && failure.issues.length > 0 && (
          <ul className="load-failure-issues" data-testid="load-failure-issues">
            {failure.issues.slice(0, ISSUES).map((i, k) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: issues have no identity beyond their position
              <li key={k}>
                {i.line > 0 ? `line ${i.line}: ` : ''}
                {visibleText(i.message)}
              </li>
            ))}
            {failure.issues.length > ISSUES && <li className="muted">{failure.issues.length - ISSUES} more</li>}
          </ul>
        )}
      </span>
      <button type="button" className="icon" aria-label="Dismiss" title="Dismiss" onClick={() => dismiss(null)}>
        ×
      </button>
    </div>
  );
}
