// A run's timeline and event list as the UI draws them: one point per request in replay order (recorded and
// estimated tokens, categories, observed and simulated cache, the breaks), every pipeline event without its
// blocks (the diff view asks for those by id), and every break as a row of the breaks table. Plain data,
// rebuilt on every run from the analysis.

import type { Analysis } from '../analyses/analyze.ts';
import type { BreakCause } from '../analyses/break-causes.ts';
import { cacheBreakRow, estimateRow, observedBreakRow, type RequestRow } from '../analyses/report.ts';
import type { Request, Transcript } from '../model/transcript.ts';
import type { PipelineEvent } from '../pipeline/stage.ts';

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

/** The timeline, the event rows, and the full events (kept by the engine for diffs), ids shared by position. */
export type RunTimeline = { timeline: TimelinePoint[]; events: EventRow[]; full: PipelineEvent[]; breaks: BreakRow[] };

/** The breaks of a point, observed before simulated. */
function breaksAt(p: TimelinePoint, point: number, out: BreakRow[]): void {
  const base = { thread: p.thread, request: p.index, point, time: p.time };
  const o = p.observedBreak;
  if (o)
    out.push({
      ...base,
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
      ...base,
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
function eventRow(e: PipelineEvent, id: number): EventRow {
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

export function runTimeline(t: Transcript, analysis: Analysis): RunTimeline {
  const events: EventRow[] = [];
  const full: PipelineEvent[] = [];
  const timeline: TimelinePoint[] = [];
  const breaks: BreakRow[] = [];
  // The simulated timeline has one point per request in replay order; the observed one only requests with
  // usage, also in replay order: one cursor each.
  let k = 0;
  let obsAt = 0;
  for (const [ti, tr] of analysis.replay.threads.entries()) {
    const th = t.threads[ti];
    for (const q of tr.requests) {
      const usd = analysis.cost.byPoint[k];
      const sim = analysis.simulated[k++];
      const o = analysis.observed[obsAt];
      const obs = o && o.thread === tr.thread && o.index === q.index ? analysis.observed[obsAt++] : undefined;
      const cacheBreak = cacheBreakRow(sim, usd);
      const ids: number[] = [];
      for (const e of q.events) {
        ids.push(events.length);
        events.push(eventRow(e, events.length));
        full.push(e);
      }
      const req = th.requests[q.index];
      timeline.push({
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
      });
      const p = timeline[timeline.length - 1];
      if (p.observedBreak || p.cacheBreak) breaksAt(p, timeline.length - 1, breaks);
    }
  }
  return { timeline, events, full, breaks };
}
