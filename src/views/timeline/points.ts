// The page's reading of a run's timeline columns (RunResult.timeline: chunks of typed columns, NaN where a value
// is absent; projections/timeline-chunk.ts): how many points, one point's drawn fields as the chart uses them, a
// point's response message, a thread's request; the rest of a point (estimate note, break facts, rewrites) is
// fetched when one is shown (use-points.ts).
import type { TimelineChunk, TimelinePoint } from '../../protocol/index.ts';

/** What the chart draws of a point, and `k`: its position in the run's timeline (for the engine's `point`). */
export type DrawnPoint = Pick<
  TimelinePoint,
  | 'thread'
  | 'index'
  | 'time'
  | 'model'
  | 'inputTokens'
  | 'outputTokens'
  | 'estimateIn'
  | 'estimateOut'
  | 'categories'
  | 'observed'
  | 'simulated'
  | 'costUsd'
  | 'responseMessage'
> & { k: number };

export type Timeline = readonly TimelineChunk[];

/** Points in the timeline. */
export function pointCount(tl: Timeline | undefined): number {
  const last = tl?.[tl.length - 1];
  return last ? last.from + last.index.length : 0;
}

function chunkOf(tl: Timeline, k: number): TimelineChunk | undefined {
  const size = tl[0]?.index.length ?? 0;
  const c = size > 0 ? tl[Math.floor(k / size)] : undefined;
  return c && k >= c.from && k < c.from + c.index.length ? c : undefined;
}

/** Point `k`'s drawn fields (a fresh object). */
export function drawnPoint(tl: Timeline, k: number): DrawnPoint | undefined {
  const c = chunkOf(tl, k);
  return c ? fromChunk(c, k - c.from) : undefined;
}

/** A nullable column's value (NaN: absent). */
const orNull = (v: number): number | null => (Number.isNaN(v) ? null : v);

/** A count read from a Float64Array as a small integer when it is one, as JSON.parse made it: V8 stores a double
 *  read from a typed array boxed in an object's field (16 bytes more a value), and a point holds a dozen counts —
 *  ~10 MB more of the page's live heap at 20,000 requests, and more garbage each time points are made. */
const count = (v: number): number => {
  const i = v | 0;
  return i === v ? i : v;
};

function fromChunk(c: TimelineChunk, i: number): DrawnPoint {
  const categories: Record<string, number> = {};
  for (let j = 0; j < c.cats.length; j++) {
    const v = c.catValues[j][i];
    if (!Number.isNaN(v)) categories[c.cats[j]] = count(v);
  }
  const read = count(c.obsRead[i]);
  const input = count(c.obsInput[i]);
  const write = count(c.obsWrite[i]);
  const time = c.time[i];
  const model = c.model[i];
  const output = count(c.obsOutput[i]);
  return {
    k: c.from + i,
    thread: c.threads[c.thread[i]],
    index: c.index[i],
    ...(Number.isNaN(time) ? {} : { time }),
    ...(model < 0 ? {} : { model: c.models[model] }),
    inputTokens: count(c.inputTokens[i]),
    outputTokens: count(c.outputTokens[i]),
    estimateIn: c.estimateIn[i],
    estimateOut: c.estimateOut[i],
    categories,
    observed:
      Number.isNaN(read) || Number.isNaN(input) || Number.isNaN(write)
        ? null
        : {
            input,
            cacheRead: read,
            cacheWrite: write,
            output: Number.isNaN(output) ? 0 : output,
            prompt: input + read + write,
          },
    simulated: { cacheRead: count(c.simRead[i]), cacheWrite: count(c.simWrite[i]), prompt: count(c.simPrompt[i]) },
    costUsd: { recorded: orNull(c.usdRecorded[i]), simulated: orNull(c.usdSimulated[i]) },
    responseMessage: c.responseMessage[i],
  };
}

/** Every point of `thread`, or of every thread (null), in timeline order. */
export function drawnPoints(tl: Timeline, thread: string | null): DrawnPoint[] {
  const out: DrawnPoint[] = [];
  for (const c of tl) {
    const th = thread === null ? -1 : c.threads.indexOf(thread);
    if (thread !== null && th < 0) continue;
    for (let i = 0; i < c.index.length; i++) if (th < 0 || c.thread[i] === th) out.push(fromChunk(c, i));
  }
  return out;
}

/** The message that is point `k`'s response (0 when unknown, as before). */
export function responseMessageAt(tl: Timeline | undefined, k: number): number {
  const c = tl ? chunkOf(tl, k) : undefined;
  return c ? c.responseMessage[k - c.from] : 0;
}

/** Calls `fn(index, responseMessage)` for every point of `thread`, in order. */
export function forThreadPoints(tl: Timeline, thread: string, fn: (index: number, response: number) => void): void {
  for (const c of tl) {
    const th = c.threads.indexOf(thread);
    if (th < 0) continue;
    for (let i = 0; i < c.index.length; i++) if (c.thread[i] === th) fn(c.index[i], c.responseMessage[i]);
  }
}
