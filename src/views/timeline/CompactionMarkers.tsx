import { memo } from 'react';
import { useStore } from '../../state/store.ts';
import { LANE } from './chart-layout.ts';
import type { CompactionMark } from './timeline-model.ts';
import type { Geometry } from './use-geometry.ts';

/** Markers above the chart where a compaction's summary was first sent (≋ agent, Σ pipeline): a dashed rule
 *  down the chart and a button that opens the compaction view. */
export const CompactionMarkers = memo(function CompactionMarkers({
  marks,
  geo,
}: {
  marks: readonly CompactionMark[];
  geo: Geometry;
}) {
  const open = useStore((s) => s.viewActions.openCompaction);
  if (marks.length === 0 || geo.cols.length === 0) return null;
  return (
    <>
      {marks.map((m) => {
        const x = geo.xOf(m.pos);
        const who =
          m.row.source === 'agent'
            ? `the agent's ${m.row.trigger ? `${m.row.trigger} ` : ''}compaction`
            : 'a pipeline summary';
        const label = `${who} at request ${m.row.request}: kept ${m.kept}, lost ${m.lost}, ${m.row.refetchesAfter.count} re-fetches after (click for the compaction view)`;
        return (
          <div key={m.row.id}>
            <div
              className={`tl-compaction-rule tl-compaction-${m.row.source}`}
              style={{ left: x - 0.5, top: LANE, height: geo.rows.ch }}
            />
            <button
              type="button"
              className={`tl-compaction tl-compaction-${m.row.source}${m.lost > 0 ? ' tl-compaction-lossy' : ''}`}
              data-testid="compaction-marker"
              data-request={m.row.request ?? ''}
              data-thread={m.row.thread}
              data-source={m.row.source}
              data-lost={m.lost}
              style={{ left: x - 9, top: LANE + 2 }}
              title={label}
              aria-label={label}
              onClick={(e) => {
                e.stopPropagation();
                open(m.row.id);
              }}
            >
              {m.row.source === 'agent' ? '≋' : 'Σ'}
            </button>
          </div>
        );
      })}
    </>
  );
});
