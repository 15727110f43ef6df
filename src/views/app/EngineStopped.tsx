import { restartEngine, useEngineStatus } from '../../state/engine-status.ts';

/** Shown when the engine worker stopped (crash, out of memory, closed): say so, offer a fresh start. */
export function EngineStopped() {
  const { stopped, restarting } = useEngineStatus();
  if (stopped === null) return null;
  return (
    <div
      role="alert"
      data-testid="engine-stopped"
      style={{
        position: 'fixed',
        left: '50%',
        top: 56,
        transform: 'translateX(-50%)',
        zIndex: 50,
        maxWidth: 'min(640px, 92vw)',
        padding: '10px 14px',
        borderRadius: 6,
        border: '1px solid var(--danger)',
        background: 'var(--bg)',
        color: 'var(--fg)',
        boxShadow: 'var(--shadow)',
        fontSize: 13,
        display: 'flex',
        gap: 12,
        alignItems: 'center',
      }}
    >
      <span>
        <strong>The engine stopped</strong> ({stopped}). The page still works; Retry starts a fresh engine and loads the
        last input again.
      </span>
      <button type="button" data-testid="engine-retry" disabled={restarting} onClick={() => void restartEngine()}>
        {restarting ? 'Restarting…' : 'Retry'}
      </button>
    </div>
  );
}
