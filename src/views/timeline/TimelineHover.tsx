import {
  type CachePattern,
  type EventRow,
  fmtUsd,
  type OneHourAdvice,
  type PointDetail,
} from '../../protocol/index.ts';
import { fmtPct, fmtTime, fmtTokens } from '../common/format.ts';
import { bandColor } from './ColumnSlices.tsx';
import type { Column } from './columns.ts';
import { ObservedBreakWhy } from './ObservedBreakWhy.tsx';
import type { DrawnPoint } from './points.ts';
import { type BreakMark, causeWords, estimateIn, patternOf, stackOf } from './timeline-model.ts';
import { usePoints } from './use-points.ts';

type Props = {
  col: Column;
  points: readonly DrawnPoint[];
  breaks: readonly BreakMark[];
  /** The run the points are of (their details are asked of the engine). */
  runId: number;
  /** Recurring divergence points of observed breaks (RunResult.cacheFindings). */
  patterns: readonly CachePattern[];
  map: Map<string, string>;
  titles: Map<string, string>;
  x: number;
  y: number;
  containerWidth: number;
  /** Hovering a break marker or cluster (`break-hover`), not a column. */
  marker: boolean;
};

const MAX_EVENTS = 6;
const MAX_BREAKS = 3;

function catLabel(k: string): string {
  return k.startsWith('result:') ? `${k.slice(7)} results` : k;
}

/** What a rewrite event did, in one line: "tiers tier1 · message 6 (toolu_…) · 4.7k → 151 chars". */
export function eventLine(e: EventRow): string {
  const where = e.messageIndex >= 0 ? `message ${e.messageIndex}` : 'summary';
  return `${eventName(e, ' tier ')} · ${where} · ${fmtTokens(e.charsBefore)} → ${fmtTokens(e.charsAfter)} chars (≈${fmtTokens(e.tokensBefore - e.tokensAfter)} tokens freed)`;
}

/** A rewrite's stage, tier and action ("tiers tier 1 tier1"), the stage once when the action is named after it
 *  ("summarize", not "summarize summarize"). */
export function eventName(e: Pick<EventRow, 'stage' | 'tier' | 'action'>, tierWord: string): string {
  return e.action === e.stage ? e.stage : `${e.stage}${e.tier ? `${tierWord}${e.tier}` : ''} ${e.action}`;
}

/** Dollars of the requests of a column: recorded (null when none has a priced usage) and simulated. */
function columnUsd(points: readonly DrawnPoint[], col: Column): { recorded: number | null; simulated: number | null } {
  let recorded: number | null = null;
  let simulated: number | null = null;
  for (let i = col.from; i < col.to; i++) {
    const c = points[i].costUsd;
    if (c.recorded !== null) recorded = (recorded ?? 0) + c.recorded;
    if (c.simulated !== null) simulated = (simulated ?? 0) + c.simulated;
  }
  return { recorded, simulated };
}

/** What a 1-hour cache write would have changed at a TTL break, in dollars. */
function OneHour({ a }: { a: OneHourAdvice }) {
  return (
    <div className="tl-hc-advice" data-testid="ttl-one-hour" data-helps={String(a.helps)} title={a.why}>
      {a.extraUsd !== null && a.savedUsd !== null ? (
        <>
          1-hour cache write: <span className="num">+{fmtUsd(a.extraUsd)}</span> to write,{' '}
          <span className="num">−{fmtUsd(a.savedUsd)}</span> here ·{' '}
          <strong className="num">
            {a.helps ? 'saves' : 'costs'} ≈{fmtUsd(Math.abs(a.savedUsd - a.extraUsd))}
          </strong>
        </>
      ) : (
        <>1-hour cache write would not help: {a.why}</>
      )}
    </div>
  );
}

/** Explains the request(s) under the pointer: sizes by category, cache reads, dollars, breaks and their rewrites. */
export function TimelineHover(props: Props) {
  const { col, points, breaks, runId, patterns, map, titles, x, y, containerWidth, marker } = props;
  const p = marker && breaks[0] ? breaks[0].point : points[col.rep];
  const cluster = marker && breaks.length > 1;
  // The card's point and its first breaks' points in full (estimate note, break facts, rewrites), asked of the
  // engine: the card shows at once from what the chart draws, and these lines join it when they arrive (while a
  // new run computes they do not: the engine answers for its last run only).
  const ks = cluster ? [] : [...new Set([p.k, ...breaks.slice(0, MAX_BREAKS).map((b) => b.point.k)])];
  const details = usePoints(runId, ks);
  const folded = col.to - col.from;
  const stack = [...stackOf(p, map).entries()].filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1]);
  const ein = estimateIn(p);
  const usd = columnUsd(points, col);
  const left = Math.min(Math.max(8, x + 14), Math.max(8, containerWidth - 380));
  if (cluster) return <ClusterCard {...props} left={left} />;
  const full = details?.get(p.k);
  return (
    <div
      className="tl-hover-card"
      style={{ left, top: y }}
      role="tooltip"
      data-testid={marker ? 'break-hover' : 'column-hover'}
      data-detail={full ? 'ready' : 'pending'}
      data-request={p.index}
      data-thread={p.thread}
      data-requests={marker ? breaks.map((b) => b.point.index).join(',') : undefined}
    >
      <div className="tl-hc-title">
        Request {p.index}
        <span className="muted">
          {' '}
          · {titles.get(p.thread) ?? p.thread}
          {p.time !== undefined ? ` · ${fmtTime(p.time)}` : ''}
          {p.model ? ` · ${p.model}` : ''}
        </span>
      </div>
      {folded > 1 && !marker && (
        <div className="muted">
          {folded} requests share this pixel column ({points[col.from].index}–{points[col.to - 1].index}); the tallest
          is shown.
        </div>
      )}
      <div className="tl-hc-row num">
        context ≈{fmtTokens(p.estimateOut)}
        {ein > p.estimateOut + 0.5 && (
          <span className="muted">
            {' '}
            (recorded ≈{fmtTokens(ein)}, saved ≈{fmtTokens(ein - p.estimateOut)})
          </span>
        )}
      </div>
      {full?.point.estimate.note && (
        <div className="muted" data-testid="estimate-note">
          {full.point.estimate.note}
        </div>
      )}
      <div className="tl-hc-cats">
        {stack.slice(0, 6).map(([k, v]) => (
          <span key={k} className="tl-hc-cat num">
            <i style={{ background: bandColor(k) }} />
            {catLabel(k)} ≈{fmtTokens(v)}
          </span>
        ))}
      </div>
      <table className="tl-hc-cache num">
        <tbody>
          <tr>
            <th>observed</th>
            {col.obs ? (
              <>
                <td>read {fmtTokens(col.obs.read)}</td>
                <td>write {fmtTokens(col.obs.write)}</td>
                <td>hit {fmtPct(col.obs.prompt > 0 ? col.obs.read / col.obs.prompt : null)}</td>
              </>
            ) : (
              <td colSpan={3} className="muted">
                no usage recorded
              </td>
            )}
          </tr>
          <tr>
            <th>simulated</th>
            <td>read ≈{fmtTokens(col.sim.read)}</td>
            <td>write ≈{fmtTokens(col.sim.write)}</td>
            <td>hit ≈{fmtPct(col.sim.prompt > 0 ? col.sim.read / col.sim.prompt : null)}</td>
          </tr>
          <tr data-testid="hover-cost">
            <th>cost</th>
            <td colSpan={3}>
              <span
                data-testid="hover-cost-recorded"
                title="observed usage (output included) at list prices; — when the log records none or the model has no price"
              >
                {usd.recorded === null ? '—' : fmtUsd(usd.recorded)}
              </span>
              {' → '}
              <span
                data-testid="hover-cost-simulated"
                title="the simulated cache at list prices, with the observed output (estimate)"
              >
                {usd.simulated === null ? 'price unknown' : `≈${fmtUsd(usd.simulated)}`}
              </span>
              {p.observed && <span className="muted"> · output {fmtTokens(p.observed.output)}</span>}
            </td>
          </tr>
        </tbody>
      </table>
      {breaks.slice(0, MAX_BREAKS).map((b) => {
        const d = details?.get(b.point.k);
        const one = d && oneHourOf(b, d.point);
        return (
          <div key={`${b.source}-${b.pos}`} className={`tl-hc-break tl-hc-${b.source}`}>
            <div>
              <strong>
                {b.source === 'observed' ? '▼ Observed' : '◆ Simulated'} break at request {b.point.index}:{' '}
                {causeWords(b.cause)}
              </strong>{' '}
              <span className="num">
                ({b.source === 'simulated' ? '≈' : ''}
                {fmtTokens(b.tokensLost)} tokens no longer cached
                {b.source === 'simulated' && b.usd !== null ? `, ≈${fmtUsd(b.usd)}` : ''})
              </span>
            </div>
            <div>{b.detail}</div>
            {b.source === 'observed' && d?.point.observedBreak && (
              <ObservedBreakWhy brk={d.point.observedBreak} pattern={patternOf(patterns, b)} />
            )}
            {one && <OneHour a={one} />}
            {b.source === 'simulated' && d && <BreakEvents detail={d} />}
          </div>
        );
      })}
      {breaks.length > MAX_BREAKS && (
        <div className="muted">
          +{breaks.length - MAX_BREAKS} more breaks here: drag over the chart (or scroll on it) to zoom in.
        </div>
      )}
      {breaks.length === 0 && (
        <div className="muted">No cache break here. Click to open this request; drag to zoom.</div>
      )}
    </div>
  );
}

function oneHourOf(b: BreakMark, point: PointDetail['point']): OneHourAdvice | undefined {
  return (b.source === 'observed' ? point.observedBreak?.oneHourWrite : point.cacheBreak?.oneHourWrite) ?? undefined;
}

function BreakEvents({ detail }: { detail: PointDetail }) {
  // The rewrites inside the old prefix that caused the break, else every rewrite of the request.
  const { point, events } = detail;
  const ids = point.cacheBreak && point.cacheBreak.events.length > 0 ? point.cacheBreak.events : point.eventIds;
  const byId = new Map(events.map((e) => [e.id, e]));
  const list = ids.map((id) => byId.get(id)).filter((e): e is EventRow => e !== undefined);
  if (list.length === 0) return null;
  list.sort((a, b) => a.position - b.position);
  return (
    <ul className="tl-hc-events">
      {list.slice(0, MAX_EVENTS).map((e) => (
        <li key={e.id} className="num">
          {eventLine(e)}
        </li>
      ))}
      {list.length > MAX_EVENTS && <li className="muted">+{list.length - MAX_EVENTS} more rewrites (click to list)</li>}
    </ul>
  );
}

const MAX_LISTED = 8;

/** A cluster of markers: its breaks one line each, and how to separate them. */
function ClusterCard({ breaks, titles, y, left }: Props & { left: number }) {
  const first = breaks[0];
  const threads = new Set(breaks.map((b) => b.point.thread)).size;
  return (
    <div
      className="tl-hover-card"
      style={{ left, top: y }}
      role="tooltip"
      data-testid="break-hover"
      data-request={first.point.index}
      data-thread={first.point.thread}
      data-requests={breaks.map((b) => b.point.index).join(',')}
    >
      <div className="tl-hc-cluster">
        {breaks.length} {first.source} breaks here — click to zoom in and separate them
      </div>
      <ul className="tl-hc-list">
        {breaks.slice(0, MAX_LISTED).map((b) => (
          <li key={`${b.point.thread}-${b.point.index}`} className={`tl-hc-${b.source}`}>
            <strong>
              {b.source === 'observed' ? '▼' : '◆'} request {b.point.index}
            </strong>
            {' · '}
            {causeWords(b.cause)}{' '}
            <span className="num muted">
              {b.source === 'simulated' ? '≈' : ''}
              {fmtTokens(b.tokensLost)}
              {b.usd !== null ? ` · ≈${fmtUsd(b.usd)}` : ''}
            </span>
            {threads > 1 ? <span className="muted"> · {titles.get(b.point.thread) ?? b.point.thread}</span> : null}
          </li>
        ))}
        {breaks.length > MAX_LISTED && <li className="muted">+{breaks.length - MAX_LISTED} more</li>}
      </ul>
    </div>
  );
}
