import { memo } from 'react';
import { LANE_ROW, laneY } from './chart-layout.ts';
import type { Placed } from './marker-layout.ts';
import type { BreakMark, BreakSource } from './timeline-model.ts';

/** Past this many breaks in view, a cluster no longer carries an element per member (thousands would stall). */
const MAX_MEMBER_ELEMENTS = 600;

export type MarkerRows = Record<BreakSource, Placed<BreakMark>[]>;

type Props = {
  rows: MarkerRows;
  total: number;
  selected: string | null;
  onKey: (item: Placed<BreakMark>) => void;
};

/** A break's key: its source, thread and request. */
function breakKey(b: Pick<BreakMark, 'source' | 'point'>): string {
  return `${b.source}\u0000${b.point.thread}\u0000${b.point.index}`;
}

function glyph(source: BreakSource, cx: number, cy: number): string {
  return source === 'observed' ? `M${cx - 5} ${cy - 4}h10l-5 8z` : `M${cx} ${cy - 5}l4.5 5l-4.5 5l-4.5 -5z`;
}

function Member({ b, hidden }: { b: BreakMark; hidden: boolean }) {
  return (
    <g
      data-testid="cache-break"
      data-request={b.point.index}
      data-thread={b.point.thread}
      data-cause={b.cause}
      data-source={b.source}
      data-kind={b.source}
      data-clustered={hidden ? 'true' : undefined}
      style={hidden ? { display: 'none' } : undefined}
    />
  );
}

/**
 * The break markers above the chart, observed ▼ and simulated ◆ each in its own row. A marker is a `cache-break`
 * (its request, thread, cause, source); markers closer than a glyph are one `cache-break-cluster` with its count
 * (its members' `cache-break` elements kept inside it, hidden). Hit areas are the layout's intervals: the chart
 * hit-tests the pointer against them (markers before columns), so these elements only draw and carry data.
 */
export const BreakMarkers = memo(function BreakMarkers({ rows, total, selected, onKey }: Props) {
  const members = total <= MAX_MEMBER_ELEMENTS;
  return (
    <g className="tl-marks">
      {(['observed', 'simulated'] as const).map((source) =>
        rows[source].map((item, i) => {
          const cy = laneY(source);
          const hit = (
            <rect
              x={item.x0}
              y={source === 'observed' ? 0 : LANE_ROW}
              width={Math.max(1, item.x1 - item.x0)}
              height={LANE_ROW}
              className="tl-hit"
            />
          );
          const b = item.members[0];
          const one = item.members.length === 1;
          const isSel = item.members.some((m) => breakKey(m) === selected);
          const label = one
            ? `${source} cache break at request ${b.point.index}: ${b.detail}`
            : `${item.members.length} ${source} cache breaks, requests ${b.point.index}–${item.members[item.members.length - 1].point.index}: Enter zooms in`;
          return (
            // biome-ignore lint/a11y/useSemanticElements: an SVG marker cannot be a <button>
            <g
              key={`${source}${b.pos}`}
              data-item={`${source}:${i}`}
              className={`tl-mark tl-mark-${source}${one ? '' : ' tl-cluster'}${isSel ? ' tl-mark-selected' : ''}`}
              role="button"
              tabIndex={0}
              aria-label={label}
              onKeyDown={(e) => {
                if (e.key !== 'Enter' && e.key !== ' ') return;
                e.preventDefault();
                e.stopPropagation();
                onKey(item);
              }}
              {...(one
                ? {
                    'data-testid': 'cache-break',
                    'data-request': b.point.index,
                    'data-thread': b.point.thread,
                    'data-cause': b.cause,
                    'data-source': source,
                    'data-kind': source,
                  }
                : {
                    'data-testid': 'cache-break-cluster',
                    'data-source': source,
                    'data-count': item.members.length,
                    'data-from': b.point.index,
                    'data-to': item.members[item.members.length - 1].point.index,
                  })}
            >
              {hit}
              <path d={glyph(source, item.x, cy)} />
              {!one && (
                <text x={item.x + 6} y={cy + 3.5} className="tl-cluster-count">
                  {item.members.length}
                </text>
              )}
              {!one && members && item.members.map((m) => <Member key={m.pos} b={m} hidden />)}
            </g>
          );
        }),
      )}
    </g>
  );
});
