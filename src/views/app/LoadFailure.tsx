import { useStore } from '../../state/store.ts';

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
      </span>
      <button type="button" className="icon" aria-label="Dismiss" title="Dismiss" onClick={() => dismiss(null)}>
        ×
      </button>
    </div>
  );
}
