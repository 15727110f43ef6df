// The engine-stopped notice: the engine worker crashed, ran out of memory or was closed. The page still works;
// Retry starts a fresh engine, and a stop while loading suggests a smaller file-size limit (Limits tab).

import { formatBytes } from '../../protocol/index.ts';
import { restartEngine, useEngineStatus } from '../../state/engine-status.ts';
import { useLoadLimits } from '../../state/load-limits.ts';

/** Shown when the engine worker stopped (crash, out of memory, closed): say so, offer a fresh start. */
export function EngineStopped() {
  const { stopped, restarting, whileLoading } = useEngineStatus();
  const limit = useLoadLimits((s) => s.maxFileBytes);
  if (stopped === null) return null;
  const suggested = whileLoading?.suggestedLimit;
  return (
    <div role="alert" data-testid="engine-stopped" className="engine-stopped">
      <span>
        <strong>The engine stopped</strong> ({stopped}). The page still works; Retry starts a fresh engine and loads the
        last input again.
      </span>
      {whileLoading && suggested !== undefined && (
        <span data-testid="engine-stopped-suggestion">
          It stopped while working on{' '}
          {whileLoading.bytes !== null ? `a ${formatBytes(whileLoading.bytes)} file` : 'a file'}: this browser tab may
          not hold it. Try a smaller file-size limit ({formatBytes(suggested)}; now {formatBytes(limit)}) so files this
          big are refused before they are read, or analyze it with the CLI (<code>tierscope analyze &lt;file&gt;</code>
          ), which has no tab to run out of.{' '}
          {limit > suggested && (
            <button
              type="button"
              data-testid="engine-lower-limit"
              onClick={() => useLoadLimits.setState({ maxFileBytes: suggested })}
            >
              Set the limit to {formatBytes(suggested)}
            </button>
          )}
        </span>
      )}
      <button type="button" data-testid="engine-retry" disabled={restarting} onClick={() => void restartEngine()}>
        {restarting ? 'Restarting…' : 'Retry'}
      </button>
    </div>
  );
}
