import { memo } from 'react';
import { bandColor } from './ColumnSlices.tsx';
import { OTHER_RESULTS } from './timeline-model.ts';

function label(k: string): string {
  if (k === OTHER_RESULTS) return 'other tools';
  return k.startsWith('result:') ? k.slice(7) : k;
}

/** Categories (tool results by tool name), the recorded-input outline, cache rows and break kinds. */
export const TimelineLegend = memo(function TimelineLegend({
  order,
  hasRecorded,
}: {
  order: string[];
  hasRecorded: boolean;
}) {
  const firstResult = order.findIndex((k) => k.startsWith('result:'));
  return (
    <div className="tl-legend">
      {order.map((k, i) => (
        <span key={k} className="tl-key" title={k.startsWith('result:') ? `tool results of ${label(k)}` : k}>
          {i === firstResult && <span className="tl-key-group">results:</span>}
          <i style={{ background: bandColor(k) }} />
          {label(k)}
        </span>
      ))}
      {hasRecorded && (
        <span className="tl-key" title="Size of the recorded input before the pipeline rewrote it">
          <i className="tl-key-recorded" />
          recorded
        </span>
      )}
      <span className="tl-key-sep" />
      <span className="tl-key" title="Share of the prompt read from cache">
        <i className="tl-key-read" />
        cache read
      </span>
      <span className="tl-key" title="Share of the prompt written to cache">
        <i className="tl-key-write" />
        write
      </span>
      <span className="tl-key tl-hc-observed" title="The log's own usage shows the cache read collapsing">
        ▼ observed break
      </span>
      <span className="tl-key tl-hc-simulated" title="Tierscope's replay of the pipeline loses the cached prefix">
        ◆ simulated break
      </span>
    </div>
  );
});
