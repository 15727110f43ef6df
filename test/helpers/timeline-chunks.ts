// Test points as the page gets them: TimelinePoint objects written into the wire's column chunks
// (projections/timeline-columns.ts), and their breaks as the run's break rows.

import { type BreakRow, breaksAt, type TimelinePoint } from '../../src/projections/timeline.ts';
import { CHUNK, pushDrawn, type TimelineChunk } from '../../src/projections/timeline-columns.ts';

/** The chunks of `points` (CHUNK points a chunk, or `size`). */
export function chunksOf(points: readonly TimelinePoint[], size = CHUNK): TimelineChunk[] {
  const out: TimelineChunk[] = [];
  points.forEach((p, k) => {
    if (k % size === 0) out.push(empty(k));
    pushDrawn(out[out.length - 1], {
      ...p,
      observed: p.observed,
      simRead: p.simulated.cacheRead,
      simWrite: p.simulated.cacheWrite,
      simPrompt: p.simulated.prompt,
      usdRecorded: p.costUsd.recorded,
      usdSimulated: p.costUsd.simulated,
    });
  });
  return out;
}

function empty(from: number): TimelineChunk {
  const c = { from, threads: [], models: [], cats: [], catValues: [] } as unknown as Record<string, unknown>;
  for (const k of COLUMNS) c[k] = [];
  return c as TimelineChunk;
}

const COLUMNS = [
  'thread',
  'index',
  'time',
  'model',
  'inputTokens',
  'outputTokens',
  'estimateIn',
  'estimateOut',
  'obsInput',
  'obsRead',
  'obsWrite',
  'obsOutput',
  'simRead',
  'simWrite',
  'simPrompt',
  'usdRecorded',
  'usdSimulated',
  'responseMessage',
];

/** The break rows of `points` (as runTimeline lists them: by point, observed before simulated). */
export function breakRowsOf(points: readonly TimelinePoint[]): BreakRow[] {
  const out: BreakRow[] = [];
  for (const [point, p] of points.entries()) breaksAt(p, point, out);
  return out;
}
