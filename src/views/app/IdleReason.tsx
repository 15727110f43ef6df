import type { IdleReason as Idle, IdleAction } from '../../protocol/index.ts';
import { useStore } from '../../state/store.ts';

function apply(a: IdleAction): void {
  const { configActions } = useStore.getState();
  if (a.kind === 'mode') configActions.setMode(a.mode);
  else for (const [key, value] of Object.entries(a.values)) configActions.setKey(key, value);
}

/** When the pipeline rewrote nothing: why, in one line from the engine, and the what-ifs that make it act. */
export function IdleReason({ idle }: { idle: Idle }) {
  return (
    <div
      className="why-line idle-line"
      data-testid="idle-reason"
      data-peak={idle.peak.tokens}
      data-trigger={idle.trigger}
    >
      <span className="stat-label">pipeline idle</span>
      <span className="why-text">{idle.text}</span>
      <span className="why-actions">
        {idle.actions.map((a) => (
          <button
            type="button"
            key={a.label}
            className="idle-action"
            data-testid="idle-action"
            data-kind={a.kind}
            title={
              a.kind === 'mode'
                ? 'Replay without the agent’s compactions: the pipeline runs over the whole history'
                : `A window whose trigger sits where the agent compacted (or at ¾ of the largest request): sets ${Object.entries(
                    a.values,
                  )
                    .map(([k, v]) => `${k} = ${v.toLocaleString('en-US')}`)
                    .join(', ')} (shown as overrides; ↺ resets)`
            }
            onClick={() => apply(a)}
          >
            {a.label}
          </button>
        ))}
      </span>
    </div>
  );
}
