import { useStore } from '../../state/store.ts';

export function LoadStatus() {
  const t = useStore((s) => s.transcript);
  return (
    <div data-testid="load-status" className="load-status">
      {t.status === 'loading' && <progress data-testid="load-progress" value={t.progress?.fraction ?? 0} max={1} />}
      {t.status === 'error' && <span className="error-text">{t.error}</span>}
      {t.status === 'ready' && t.summary && (
        <span>
          {t.summary.format} · {t.summary.counts.messages} messages · {t.summary.counts.requests} requests
        </span>
      )}
    </div>
  );
}
