import { memo } from 'react';
import { bandColor } from './ColumnSlices.tsx';
import { type BreakMark, OTHER_RESULTS } from './timeline-model.ts';

function label(k: string): string {
  if (k === OTHER_RESULTS) return 'other';
  return k.startsWith('result:') ? k.slice(7) : k;
}

/** Categories (tool results by tool name), the recorded-input outline, cache rows and the kinds of break in view:
 *  only what the chart shows. */
export const TimelineLegend = memo(function TimelineLegend({
  order,
  hasRecorded,
  breaks,
}: {
  order: string[];
  hasRecorded: boolean;
  breaks: readonly BreakMark[];
}) {
  const observed = breaks.some((b) => b.source === 'observed');
  const simulated = breaks.some((b) => b.source === 'simulated');
  return (
    <div className="tl-legend">
      {order.map((k) => (
        <span key={k} className="tl-key" title={k.startsWith('result:') ? `tool results of ${label(k)}` : k}>
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
      <span className="tl-key" title="Share of each prompt read from cache (blue) and written to it (orange)">
        <i className="tl-key-read" />
        <i className="tl-key-write" />
        cache read/write
      </span>
      {(observed || simulated) && <span className="tl-key-sep" />}
      {observed && (
        <span
          className="tl-key tl-hc-observed"
          title="Observed break: the log's own usage shows the cache read collapsing"
        >
          ▼ observed
        </span>
      )}
      {simulated && (
        <span
          className="tl-key tl-hc-simulated"
          title="Simulated break: Tierscope's replay of this preset loses the cached prefix"
        >
          ◆ simulated
        </span>
      )}
    </div>
  );
});
