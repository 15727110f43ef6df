// Test points as the page gets them: TimelinePoint objects written into the wire's column chunks
// (projections/timeline-chunk.ts), and their breaks as the run's break rows. The chunks are made the way the JSON
// columns were until round 11 (one array per field, null where absent; `jsonChunksOf`, kept as the reference the
// typed columns are checked against), then typed (NaN where absent).

import { type BreakRow, breaksAt, type TimelinePoint } from '../../src/projections/timeline.ts';
import { FLOAT_COLUMNS, INT_COLUMNS } from '../../src/projections/timeline-bytes.ts';
import type { TimelineChunk } from '../../src/projections/timeline-chunk.ts';
import { CHUNK } from '../../src/projections/timeline-columns.ts';

/** The JSON columns of a chunk (before round 11): the same fields, `null` where absent. */
export type JsonChunk = {
  from: number;
  threads: string[];
  models: string[];
  cats: string[];
  catValues: (number | null)[][];
} & Record<(typeof FLOAT_COLUMNS)[number] | (typeof INT_COLUMNS)[number], (number | null)[]>;

/** The JSON columns of `points` (CHUNK points a chunk, or `size`), as `pushDrawn` wrote them from each point. */
export function jsonChunksOf(points: readonly TimelinePoint[], size = CHUNK): JsonChunk[] {
  const out: JsonChunk[] = [];
  points.forEach((p, k) => {
    if (k % size === 0) out.push(empty(k));
    pushDrawn(out[out.length - 1], p);
  });
  return out;
}

/** The chunks of `points` (CHUNK points a chunk, or `size`), typed as the page reads them. */
export function chunksOf(points: readonly TimelinePoint[], size = CHUNK): TimelineChunk[] {
  return jsonChunksOf(points, size).map(typed);
}

/** A JSON chunk's typed columns (null → NaN). */
export function typed(j: JsonChunk): TimelineChunk {
  const nan = (v: number | null) => v ?? Number.NaN;
  const c = { from: j.from, threads: j.threads, models: j.models, cats: j.cats } as Record<string, unknown>;
  for (const k of FLOAT_COLUMNS) c[k] = Float64Array.from(j[k], nan);
  for (const k of INT_COLUMNS) c[k] = Int32Array.from(j[k], nan);
  c.catValues = j.catValues.map((v) => Float64Array.from(v, nan));
  return c as TimelineChunk;
}

function empty(from: number): JsonChunk {
  const c = { from, threads: [], models: [], cats: [], catValues: [] } as Record<string, unknown>;
  for (const k of [...FLOAT_COLUMNS, ...INT_COLUMNS]) c[k] = [];
  return c as JsonChunk;
}

/** Append one point's drawn fields to chunk `c` (its `i`-th point): timeline-columns.ts's `pushDrawn` until round 11. */
function pushDrawn(c: JsonChunk, p: TimelinePoint): void {
  const i = c.index.length;
  let th = c.threads.lastIndexOf(p.thread);
  if (th < 0) th = c.threads.push(p.thread) - 1;
  c.thread.push(th);
  c.index.push(p.index);
  c.time.push(p.time ?? null);
  let m = -1;
  if (p.model !== undefined) {
    m = c.models.indexOf(p.model);
    if (m < 0) m = c.models.push(p.model) - 1;
  }
  c.model.push(m);
  c.inputTokens.push(p.inputTokens);
  c.outputTokens.push(p.outputTokens);
  c.estimateIn.push(p.estimateIn);
  c.estimateOut.push(p.estimateOut);
  for (const v of c.catValues) v.push(null);
  const cats = p.categories;
  for (const k in cats) {
    let at = c.cats.indexOf(k);
    if (at < 0) {
      at = c.cats.push(k) - 1;
      c.catValues.push(new Array<number | null>(i + 1).fill(null));
    }
    c.catValues[at][i] = cats[k];
  }
  const o = p.observed;
  c.obsInput.push(o ? o.input : null);
  c.obsRead.push(o ? o.cacheRead : null);
  c.obsWrite.push(o ? o.cacheWrite : null);
  c.obsOutput.push(o ? o.output : null);
  c.simRead.push(p.simulated.cacheRead);
  c.simWrite.push(p.simulated.cacheWrite);
  c.simPrompt.push(p.simulated.prompt);
  c.usdRecorded.push(p.costUsd.recorded);
  c.usdSimulated.push(p.costUsd.simulated);
  c.responseMessage.push(p.responseMessage);
}

/** The break rows of `points` (as runTimeline lists them: by point, observed before simulated). */
export function breakRowsOf(points: readonly TimelinePoint[]): BreakRow[] {
  const out: BreakRow[] = [];
  for (const [point, p] of points.entries()) breaksAt(p, point, out);
  return out;
}
