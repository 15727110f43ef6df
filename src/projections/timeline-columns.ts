// The run's timeline as it crosses to the page: what the chart draws and filters by, in columns, cut into chunks
// of CHUNK points (each a wire item of bounded size, ~60–90 KB of JSON), made from `TimelinePoints` without making
// the points. A point's other fields (estimate note, break facts, rewrite ids) are asked for when one is shown.
import type { Items } from '../lib/made-on-read.ts';
import type { PipelineEvent } from '../pipeline/stage.ts';
import { type DrawnFields, type EventRow, eventRow, type TimelinePoint, type TimelinePoints } from './timeline.ts';

/** Points per chunk. */
export const CHUNK = 512;

/** Points [from, from + index.length) of the timeline, one array per drawn field (null: absent). */
export type TimelineChunk = {
  from: number;
  /** Thread ids of the chunk; `thread[i]` indexes it. */
  threads: string[];
  thread: number[];
  index: number[];
  time: (number | null)[];
  /** Models of the chunk; `model[i]` indexes it, -1: none. */
  models: string[];
  model: number[];
  inputTokens: number[];
  outputTokens: number[];
  estimateIn: number[];
  estimateOut: number[];
  /** Category keys of the chunk in first-seen order, and per key its value at each point (null: not a key of it). */
  cats: string[];
  catValues: (number | null)[][];
  /** Observed usage (null: the request has none). */
  obsInput: (number | null)[];
  obsRead: (number | null)[];
  obsWrite: (number | null)[];
  obsOutput: (number | null)[];
  simRead: number[];
  simWrite: number[];
  simPrompt: number[];
  usdRecorded: (number | null)[];
  usdSimulated: (number | null)[];
  responseMessage: number[];
};

function emptyChunk(from: number): TimelineChunk {
  return {
    from,
    threads: [],
    thread: [],
    index: [],
    time: [],
    models: [],
    model: [],
    inputTokens: [],
    outputTokens: [],
    estimateIn: [],
    estimateOut: [],
    cats: [],
    catValues: [],
    obsInput: [],
    obsRead: [],
    obsWrite: [],
    obsOutput: [],
    simRead: [],
    simWrite: [],
    simPrompt: [],
    usdRecorded: [],
    usdSimulated: [],
    responseMessage: [],
  };
}

/** Append one point's fields to chunk `c` (its `i`-th point). */
export function pushDrawn(c: TimelineChunk, f: DrawnFields): void {
  const i = c.index.length;
  let th = c.threads.lastIndexOf(f.thread);
  if (th < 0) th = c.threads.push(f.thread) - 1;
  c.thread.push(th);
  c.index.push(f.index);
  c.time.push(f.time ?? null);
  let m = -1;
  if (f.model !== undefined) {
    m = c.models.indexOf(f.model);
    if (m < 0) m = c.models.push(f.model) - 1;
  }
  c.model.push(m);
  c.inputTokens.push(f.inputTokens);
  c.outputTokens.push(f.outputTokens);
  c.estimateIn.push(f.estimateIn);
  c.estimateOut.push(f.estimateOut);
  for (const v of c.catValues) v.push(null);
  const cats = f.categories;
  for (const k in cats) {
    let at = c.cats.indexOf(k);
    if (at < 0) {
      at = c.cats.push(k) - 1;
      c.catValues.push(new Array<number | null>(i + 1).fill(null));
    }
    c.catValues[at][i] = cats[k];
  }
  const o = f.observed;
  c.obsInput.push(o ? o.input : null);
  c.obsRead.push(o ? o.cacheRead : null);
  c.obsWrite.push(o ? o.cacheWrite : null);
  c.obsOutput.push(o ? o.output : null);
  c.simRead.push(f.simRead);
  c.simWrite.push(f.simWrite);
  c.simPrompt.push(f.simPrompt);
  c.usdRecorded.push(f.usdRecorded);
  c.usdSimulated.push(f.usdSimulated);
  c.responseMessage.push(f.responseMessage);
}

/** The timeline's chunks, each made when the wire asks for it (nothing kept per run). */
export function timelineChunks(points: TimelinePoints, size = CHUNK): Items<TimelineChunk> {
  const length = Math.ceil(points.length / size);
  const at = (n: number): TimelineChunk => {
    const from = n * size;
    const c = emptyChunk(from);
    const to = Math.min(points.length, from + size);
    for (let k = from; k < to; k++) pushDrawn(c, points.drawn(k));
    return c;
  };
  return { length, at, toArray: () => Array.from({ length }, (_, n) => at(n)) };
}

/** One point of the last run in full, with the event rows of its rewrites (the hover card, the break strip). */
export type PointDetail = { point: TimelinePoint; events: EventRow[] };

/** Point `k` of `points` with the rows of its events (`full`: the run's events, ids by position). */
export function pointDetail(points: TimelinePoints, full: readonly PipelineEvent[], k: number): PointDetail | null {
  if (!(k >= 0 && k < points.length)) return null;
  const point = points.at(k);
  return { point, events: point.eventIds.map((id) => eventRow(full[id], id)) };
}
