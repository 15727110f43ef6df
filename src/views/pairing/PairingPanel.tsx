import { useStore } from '../../state/store.ts';

export function PairingPanel() {
  const pairing = useStore((s) => s.run.result?.pairing);
  return (
    <section data-testid="pairing-panel" className="pairing-panel">
      <div className="panel-title">Pairing · {pairing?.length ?? 0}</div>
      {pairing?.map((v) => (
        <div
          key={`${v.thread}-${v.request}-${v.stage}-${v.rule}-${v.messageIndex}`}
          data-testid="pairing-issue"
          data-rule={v.rule}
          data-message-index={v.messageIndex}
          data-stage={v.stage}
        >
          {v.error}
        </div>
      ))}
    </section>
  );
}
