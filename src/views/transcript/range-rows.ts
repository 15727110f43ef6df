// The transcript follows the timeline's zoom: the messages of the requests in the range — from the one after the
// previous request's response to the last request's response — are the rows shown (with a search filter, the
// matches among them).
import { forThreadPoints, type Timeline } from '../timeline/points.ts';

export type MessageSpan = { from: number; to: number };

/** Messages [from, to] (inclusive) the requests `range` of `thread` read and answered; null: no such requests. */
export function rangeSpan(
  timeline: Timeline | undefined,
  thread: string,
  range: { from: number; to: number } | null,
): MessageSpan | null {
  if (!timeline || !range) return null;
  let before = -1;
  let last = -1;
  forThreadPoints(timeline, thread, (index, response) => {
    if (index === range.from - 1) before = response;
    if (index === range.to) last = response;
  });
  if (last < 0) return null;
  return { from: range.from > 0 && before >= 0 ? before + 1 : 0, to: last };
}

/** The rows to show: the search filter's, kept to the span when there is one (null: every row); `keep` (the
 *  selected message — a break's divergence point can lie before the range) stays shown in its place. */
export function withinSpan(
  shown: number[] | null,
  count: number,
  span: MessageSpan | null,
  keep: number | null = null,
): number[] | null {
  if (!span) return shown;
  const to = Math.min(span.to, count - 1);
  const inSpan = (i: number) => i >= span.from && i <= to;
  let out: number[];
  if (shown) out = shown.filter(inSpan);
  else {
    out = [];
    for (let i = span.from; i <= to; i++) out.push(i);
  }
  if (keep !== null && keep >= 0 && keep < count && !inSpan(keep)) {
    const at = out.findIndex((i) => i > keep);
    out.splice(at < 0 ? out.length : at, 0, keep);
  }
  return out;
}
