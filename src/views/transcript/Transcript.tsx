import { useStore } from '../../state/store.ts';

export function Transcript() {
  const rows = useStore((s) => s.transcript.rows[s.view.thread]);
  return (
    <div className="transcript">
      {rows?.slice(0, 200).map((r) => (
        <div key={r.index} data-testid="transcript-row" data-message-index={r.index} data-role={r.role}>
          {r.index} {r.role} {r.tools.join(', ')} {r.tokens}
        </div>
      ))}
    </div>
  );
}
