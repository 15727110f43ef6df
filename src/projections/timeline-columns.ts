// The run's timeline as it crosses to the page: what the chart draws and filters by, in typed columns, cut into
// chunks of CHUNK points, made from `TimelinePoints` without making the points, and packed PER_PART chunks a wire
// part as bytes (timeline-bytes.ts: the page reads views on them, nothing to parse). A point's other fields
// (estimate note, break facts, rewrite ids) are asked for when one is shown.
import type { Items } from '../lib/made-on-read.ts';
import type { PipelineEvent } from '../pipeline/stage.ts';
import { type EventRow, eventRow, type TimelinePoint, type TimelinePoints } from './timeline.ts';
import { type ChunkHead, chunkBytes, FLOAT_COLUMNS, INT_COLUMNS, pad8 } from './timeline-bytes.ts';
import type { TimelineChunk } from './timeline-chunk.ts';

/** Points per chunk, and chunks per wire part: a part is bounded by its count of points, not by bytes ((14 + the
 *  categories) × 8 + 16 bytes a point; ~0.8 MB with 10 categories, ~2.5 MB with 60), read as views, never parsed. */
export const CHUNK = 512;
export const PER_PART = 8;

/** A nullable column's value, NaN when absent — or not finite, as the JSON wire wrote it (null): a log can hold
 *  a number past 1e308 (`JSON.parse('1e999')` is Infinity), and the page reads NaN as absent. */
const orNaN = (v: number | null | undefined): number => (v != null && Number.isFinite(v) ? v : Number.NaN);

/** Points [from, to) of `points` as a chunk of columns. */
function timelineChunk(points: TimelinePoints, from: number, to: number): TimelineChunk {
  const n = to - from;
  const f = () => new Float64Array(n);
  const c: TimelineChunk = {
    from,
    threads: [],
    thread: new Int32Array(n),
    index: new Int32Array(n),
    time: f(),
    models: [],
    model: new Int32Array(n),
    inputTokens: f(),
    outputTokens: f(),
    estimateIn: f(),
    estimateOut: f(),
    cats: [],
    catValues: [],
    obsInput: f(),
    obsRead: f(),
    obsWrite: f(),
    obsOutput: f(),
    simRead: f(),
    simWrite: f(),
    simPrompt: f(),
    usdRecorded: f(),
    usdSimulated: f(),
    responseMessage: new Int32Array(n),
  };
  points.each(from, to, (k, thread, q, req, usd, sim) => {
    const i = k - from;
    let th = c.threads.lastIndexOf(thread);
    if (th < 0) th = c.threads.push(thread) - 1;
    c.thread[i] = th;
    c.index[i] = q.index;
    c.time[i] = orNaN(q.time);
    let m = -1;
    if (q.model !== undefined) {
      m = c.models.indexOf(q.model);
      if (m < 0) m = c.models.push(q.model) - 1;
    }
    c.model[i] = m;
    c.inputTokens[i] = q.inputTokens;
    c.outputTokens[i] = q.outputTokens;
    c.estimateIn[i] = q.estimateIn;
    c.estimateOut[i] = q.estimateOut;
    const cats = q.categories;
    for (const key in cats) {
      let at = c.cats.indexOf(key);
      if (at < 0) {
        at = c.cats.push(key) - 1;
        c.catValues.push(new Float64Array(n).fill(Number.NaN));
      }
      c.catValues[at][i] = orNaN(cats[key]);
    }
    const o = req?.observed;
    c.obsInput[i] = orNaN(o?.input);
    c.obsRead[i] = orNaN(o?.cacheRead);
    c.obsWrite[i] = orNaN(o?.cacheWrite);
    c.obsOutput[i] = orNaN(o?.output);
    c.simRead[i] = Math.round(sim?.cacheRead ?? 0);
    c.simWrite[i] = Math.round(sim?.cacheWrite ?? 0);
    c.simPrompt[i] = Math.round(q.estimateOut);
    c.usdRecorded[i] = orNaN(usd?.recorded);
    c.usdSimulated[i] = orNaN(usd?.simulated);
    c.responseMessage[i] = req?.inputEnd ?? 0;
  });
  return c;
}

/** The bytes of a wire part holding `chunks` (timeline-bytes.ts reads them back). */
export function packTimeline(chunks: readonly TimelineChunk[]): Uint8Array {
  const heads: ChunkHead[] = chunks.map((c) => ({
    from: c.from,
    n: c.index.length,
    threads: c.threads,
    models: c.models,
    cats: c.cats,
  }));
  const head = new TextEncoder().encode(JSON.stringify(heads));
  let size = pad8(4 + head.length);
  for (const h of heads) size += chunkBytes(h);
  const out = new Uint8Array(size);
  new DataView(out.buffer).setUint32(0, head.length, true);
  out.set(head, 4);
  let at = pad8(4 + head.length);
  const put = (col: Float64Array | Int32Array) => {
    out.set(new Uint8Array(col.buffer, col.byteOffset, col.byteLength), at);
    at += col.byteLength;
  };
  chunks.forEach((c, j) => {
    const start = at;
    for (const k of FLOAT_COLUMNS) put(c[k]);
    for (const col of c.catValues) put(col);
    for (const k of INT_COLUMNS) put(c[k]);
    at = start + chunkBytes(heads[j]);
  });
  return out;
}

/** The timeline's chunks, each made when the wire asks for it (nothing kept per run), packed as bytes. */
export function timelineChunks(points: TimelinePoints, size = CHUNK): Items<TimelineChunk> {
  const length = Math.ceil(points.length / size);
  const at = (n: number) => timelineChunk(points, n * size, Math.min(points.length, (n + 1) * size));
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
