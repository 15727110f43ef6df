import { fmtTime } from '../common/format.ts';
import type { DrawnPoint } from './points.ts';
import type { Scope } from './timeline-model.ts';
import type { PosRange } from './zoom.ts';

type Props = {
  all: readonly DrawnPoint[];
  scope: Scope;
  trail: readonly PosRange[];
  current: PosRange;
  onGo: (r: PosRange | null) => void;
};

function label(all: readonly DrawnPoint[], r: PosRange, scope: Scope): string {
  const a = all[r.from];
  const b = all[r.to];
  if (!a || !b) return '';
  if (scope === 'thread') return `requests ${a.index}–${b.index}`;
  const t0 = fmtTime(a.time);
  const t1 = fmtTime(b.time);
  return t0 && t1 ? `${t0}–${t1}` : `#${r.from}–#${r.to}`;
}

/** Breadcrumbs of the zoom (the whole list, then each range zoomed into), the range in view, and a reset. */
export function TimelineRange({ all, scope, trail, current, onGo }: Props) {
  const n = all.length;
  const zoomed = current.from > 0 || current.to < n - 1;
  const a = all[current.from];
  const b = all[current.to];
  return (
    <nav
      className="tl-range"
      aria-label="Zoom"
      title="Drag over the chart, scroll on it or press + − to zoom; 0 resets"
    >
      <span
        data-testid="timeline-range"
        data-from={scope === 'thread' ? a?.index : current.from}
        data-to={scope === 'thread' ? b?.index : current.to}
        data-zoomed={String(zoomed)}
        data-scope={scope}
        className="tl-crumbs"
      >
        {zoomed &&
          trail.map((r, i) => {
            const last = i === trail.length - 1;
            const text = i === 0 ? `all ${n.toLocaleString('en-US')}` : label(all, r, scope);
            return (
              <span key={`${r.from}-${r.to}`} className="tl-crumb">
                {i > 0 && <span className="tl-crumb-sep">›</span>}
                {last ? (
                  <span className="tl-crumb-here" aria-current="location">
                    {text}
                  </span>
                ) : (
                  <button type="button" className="link" onClick={() => onGo(i === 0 ? null : r)}>
                    {text}
                  </button>
                )}
              </span>
            );
          })}
      </span>
      {zoomed && (
        <button
          type="button"
          className="tl-reset"
          data-testid="timeline-reset"
          title="Show every request (0)"
          onClick={() => onGo(null)}
        >
          Reset zoom
        </button>
      )}
    </nav>
  );
}
