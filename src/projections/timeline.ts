// A run's timeline and event list as the UI draws them: one point per request in replay order (recorded and
// estimated tokens, categories, observed and simulated cache, the breaks), every pipeline event without its
// blocks (the diff view asks for those by id), and every break as a row of the breaks table. Plain data, made
// from the analysis point by point when asked (the wire writes each and drops it: no 20k objects kept per run).

import type { Analysis } from '../analyses/analyze.ts';
import type { BreakCause } from '../analyses/break-causes.ts';
import type { SimulatedPoint } from '../analyses/cache-timeline.ts';
import { cacheBreakRow, estimateRow, observedBreakRow, type RequestRow } from '../analyses/report.ts';
import type { RequestDollars } from '../analyses/run-cost.ts';
import { firstIndex } from '../lib/search.ts';
import type { Request, Transcript } from '../model/transcript.ts';
import type { PipelineEvent } from '../pipeline/stage.ts';
import type { RequestReplay } from '../replay/replay.ts';

/** One request of the timeline: what the stacked chart and break markers need. */
export type TimelinePoint = {
  thread: string;
  index: number;
  time?: number;
  model?: string;
  inputTokens: number;
  outputTokens: number;
  /** Calibrated estimates of the recorded input and of what the pipeline would send; how the first was made. */
  estimateIn: number;
  estimateOut: number;
  estimate: RequestRow['estimate'];
  categories: Record<string, number>;
  observed: { input: number; cacheRead: number; cacheWrite: number; output: number; prompt: number } | null;
  simulated: { cacheRead: number; cacheWrite: number; prompt: number };
  /** Dollars of the request: recorded (observed usage at list prices), simulated (estimate); null: unknown. */
  costUsd: RequestRow['costUsd'];
  observedBreak: RequestRow['observedBreak'];
  /** The simulated break; its `events` are ids into the run's `events` (the rewrites that caused it). */
  cacheBreak: RequestRow['cacheBreak'];
  /** Indices into the run's `events` of this request's rewrites. */
  eventIds: number[];
  /** Index of the message that is this request's response (for click-to-scroll). */
  responseMessage: number;
};

/** What `TimelinePoints.each` hands over for point `k`. */
export type PointVisitor = (
  k: number,
  thread: string,
  q: RequestReplay,
  req: Request | undefined,
  usd: RequestDollars | undefined,
  sim: SimulatedPoint | undefined,
) => void;

export type EventRow = Omit<PipelineEvent, 'before' | 'after'> & { id: number };

/** One row of the breaks table: an observed or simulated cache break (SPEC §6 `break-row`). */
export type BreakRow = {
  source: 'observed' | 'simulated';
  thread: string;
  request: number;
  /** Position of its request in the run's timeline. */
  point: number;
  time?: number;
  cause: BreakCause;
  detail: string;
  /** Tokens no longer read from cache (observed: from the log's usage; simulated: the replay's estimate). */
  tokens: number;
  /** Dollars of writing them again instead of reading them (estimate at list prices); null: no price. */
  usd: number | null;
  /** Where the cached prefix stopped: the divergence message (observed) or the first rewritten one (simulated). */
  messageIndex: number | null;
  /** Observed: the prefix stopped before the input's first logged message (system prompt, tools). */
  unlogged: boolean;
  /** What the cause rests on (observed evidence; the simulated break's rewrite), shortest first line first. */
  evidence: string[];
};

/** The timeline, the event rows, and the full events (kept by the engine for diffs), ids shared by position; the
 *  points and rows are made when read (the run result's wire writes them one by one). */
export type RunTimeline = { timeline: TimelinePoints; events: EventRows; full: PipelineEvent[]; breaks: BreakRow[] };

/** The breaks of a point, observed before simulated. Each row is one literal (a spread of the shared fields made
 *  each row ~6 µs, 7 ms a 20k run). */
export function breaksAt(p: TimelinePoint, point: number, out: BreakRow[]): void {
  const o = p.observedBreak;
  if (o)
    out.push({
      thread: p.thread,
      request: p.index,
      point,
      time: p.time,
      source: 'observed',
      cause: o.cause,
      detail: o.detail,
      tokens: o.tokensLost,
      usd: o.usd,
      messageIndex: o.divergence?.messageIndex ?? null,
      unlogged: o.divergence?.region === 'unlogged-prefix',
      evidence: o.evidence,
    });
  const c = p.cacheBreak;
  if (c)
    out.push({
      thread: p.thread,
      request: p.index,
      point,
      time: p.time,
      source: 'simulated',
      cause: c.cause,
      detail: c.detail,
      tokens: c.tokensLost,
      usd: c.usd,
      messageIndex: c.messageIndex,
      unlogged: false,
      evidence: [c.detail],
    });
}

/** A request's observed usage as the timeline shows it. */
function observedOf(req: Request): TimelinePoint['observed'] {
  const o = req.observed;
  return o
    ? {
        input: o.input,
        cacheRead: o.cacheRead,
        cacheWrite: o.cacheWrite,
        output: o.output,
        prompt: o.input + o.cacheRead + o.cacheWrite,
      }
    : null;
}

/** The event without its blocks: fields copied by name (cheaper than a rest spread over thousands of events). */
export function eventRow(e: PipelineEvent, id: number): EventRow {
  return {
    id,
    thread: e.thread,
    request: e.request,
    stage: e.stage,
    action: e.action,
    tier: e.tier,
    messageIndex: e.messageIndex,
    position: e.position,
    blockIndex: e.blockIndex,
    toolUseId: e.toolUseId,
    charsBefore: e.charsBefore,
    charsAfter: e.charsAfter,
    tokensBefore: e.tokensBefore,
    tokensAfter: e.tokensAfter,
    detail: e.detail,
    distance: e.distance,
    lastMessageIndex: e.lastMessageIndex,
  };
}

/** The timeline's points, each made when asked: the wire writes a point and drops it, so a run keeps its sources
 *  (the analysis, kept anyway for the next run's questions) and three numbers a point, not ~500 bytes of objects a
 *  point that would be promoted and float until the next run. `at(i)` makes the point `runTimeline` always made. */
export class TimelinePoints {
  readonly length: number;
  /** The first point of each thread of the replay, then the point count. */
  private readonly threadStart: number[] = [];
  /** Per point: its index into `analysis.observed`, or -1 (the observed timeline holds requests with usage). */
  private readonly observedAt: number[] = [];
  /** Per point: the id of its first event (its events' ids are consecutive). */
  private readonly firstEvent: number[] = [];

  constructor(
    private readonly t: Transcript,
    private readonly analysis: Analysis,
  ) {
    // The simulated timeline has one point per request in replay order; the observed one only requests with
    // usage, also in replay order: one cursor each.
    let obsAt = 0;
    let events = 0;
    for (const tr of analysis.replay.threads) {
      this.threadStart.push(this.observedAt.length);
      for (const q of tr.requests) {
        const o = analysis.observed[obsAt];
        this.observedAt.push(o && o.thread === tr.thread && o.index === q.index ? obsAt++ : -1);
        this.firstEvent.push(events);
        events += q.events.length;
      }
    }
    this.length = this.observedAt.length;
    this.threadStart.push(this.length);
  }

  /** Point `k`'s thread replay, replayed request, dollars, simulated cache and logged request. */
  private locate(k: number) {
    const { analysis, threadStart } = this;
    const lo = firstIndex(threadStart.length - 1, (i) => threadStart[i] > k) - 1; // its thread
    const tr = analysis.replay.threads[lo];
    const q = tr.requests[k - threadStart[lo]];
    const req = this.t.threads[lo].requests[q.index];
    return { tr, q, req, usd: analysis.cost.byPoint[k], sim: analysis.simulated[k] };
  }

  /** Point `k` of the timeline. */
  at(k: number): TimelinePoint {
    const { analysis } = this;
    const { tr, q, usd, sim, req } = this.locate(k);
    const oi = this.observedAt[k];
    const obs = oi < 0 ? undefined : analysis.observed[oi];
    const cacheBreak = cacheBreakRow(sim, usd);
    const first = this.firstEvent[k];
    const ids: number[] = [];
    for (let e = 0; e < q.events.length; e++) ids.push(first + e);
    return {
      thread: tr.thread,
      index: q.index,
      time: q.time,
      model: q.model,
      inputTokens: q.inputTokens,
      outputTokens: q.outputTokens,
      estimateIn: q.estimateIn,
      estimateOut: q.estimateOut,
      estimate: estimateRow(tr.calibration.requests[q.index]),
      categories: q.categories,
      observed: req ? observedOf(req) : null,
      simulated: {
        cacheRead: Math.round(sim?.cacheRead ?? 0),
        cacheWrite: Math.round(sim?.cacheWrite ?? 0),
        prompt: Math.round(q.estimateOut),
      },
      costUsd: { recorded: usd?.recorded ?? null, simulated: usd?.simulated ?? null },
      observedBreak: observedBreakRow(obs, usd),
      cacheBreak: cacheBreak ? { ...cacheBreak, events: cacheBreak.events.map((x) => ids[x]) } : null,
      eventIds: ids,
      responseMessage: req?.inputEnd ?? 0,
    };
  }

  /** Visits points [from, to) in order with what the chart draws of each is read from — its thread, replayed
   *  request, logged request, dollars and simulated cache — making no object per point (timeline-columns.ts writes
   *  them into columns). */
  each(from: number, to: number, visit: PointVisitor): void {
    const { analysis, threadStart } = this;
    let lo = firstIndex(threadStart.length - 1, (i) => threadStart[i] > from) - 1;
    for (let k = from; k < to; k++) {
      while (k >= threadStart[lo + 1]) lo++;
      const tr = analysis.replay.threads[lo];
      const q = tr.requests[k - threadStart[lo]];
      visit(k, tr.thread, q, this.t.threads[lo].requests[q.index], analysis.cost.byPoint[k], analysis.simulated[k]);
    }
  }

  /** Whether point `k` has an observed or a simulated break (without making it). */
  hasBreak(k: number): boolean {
    const oi = this.observedAt[k];
    return Boolean(this.analysis.simulated[k]?.break || (oi >= 0 && this.analysis.observed[oi]?.break));
  }

  /** Every point. */
  toArray(): TimelinePoint[] {
    const out: TimelinePoint[] = [];
    for (let k = 0; k < this.length; k++) out.push(this.at(k));
    return out;
  }
}

/** The event rows, each made when asked from the run's events (which the engine keeps for diffs). */
class EventRows {
  constructor(private readonly full: readonly PipelineEvent[]) {}

  get length(): number {
    return this.full.length;
  }

  at(id: number): EventRow {
    return eventRow(this.full[id], id);
  }

  toArray(): EventRow[] {
    return this.full.map(eventRow);
  }
}

export function runTimeline(t: Transcript, analysis: Analysis): RunTimeline {
  const full: PipelineEvent[] = [];
  for (const tr of analysis.replay.threads) for (const q of tr.requests) for (const e of q.events) full.push(e);
  const timeline = new TimelinePoints(t, analysis);
  const breaks: BreakRow[] = [];
  for (let k = 0; k < timeline.length; k++) if (timeline.hasBreak(k)) breaksAt(timeline.at(k), k, breaks);
  return { timeline, events: new EventRows(full), full, breaks };
}
