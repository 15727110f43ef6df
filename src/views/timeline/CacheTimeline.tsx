import { useStore } from '../../state/store.ts';

export function CacheTimeline() {
  const timeline = useStore((s) => s.run.result?.timeline);
  return (
    <section data-testid="cache-timeline" className="cache-timeline">
      <div className="panel-title">Cache timeline · {timeline?.length ?? 0} requests</div>
    </section>
  );
}
