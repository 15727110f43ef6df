import { useStore } from '../../state/store.ts';

export function DetailPane() {
  const message = useStore((s) => s.view.message);
  return (
    <div className="detail">
      <div className="panel-title">Detail {message ?? ''}</div>
    </div>
  );
}
