import { useStore } from '../../state/store.ts';

export function TokenHeatmap() {
  const rows = useStore((s) => s.transcript.rows[s.view.thread]);
  return <div data-testid="token-heatmap" className="token-heatmap" data-count={rows?.length ?? 0} />;
}
