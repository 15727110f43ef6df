import { restartEngine, useEngineStatus } from '../../state/engine-status.ts';

/** Shown when the engine worker stopped (crash, out of memory, closed): say so, offer a fresh start. */
export function EngineStopped() {
  const { stopped, restarting } = useEngineStatus();
  if (stopped === null) return null;
  return (
    <div role="alert" data-testid="engine-stopped" className="engine-stopped">
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
