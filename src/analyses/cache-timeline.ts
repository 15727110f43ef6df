// The cache timeline (SPEC §5.2). Observed: per request of a log with usage, hit rate = cacheRead / prompt,
// and a break (cache read far below the previous prompt) with its cause — sidechain, model-changed,
// ttl-expired, agent-compaction, tools-changed / system-changed / history-rewritten@N, below-minimum,
// unexplained. Simulated: per replayed request, the longest block prefix shared with an earlier output
// (same thread, or the system+tools prefix of any thread) within TTL and of the same model is read under the
// provider's rules (minimum per model, OpenAI's 128-token steps), the rest written (Anthropic) or sent uncached
// (OpenAI, Gemini: no write fee); a break is pinned to the pipeline events that rewrote inside the old prefix.
// Every observed break carries where its cached prefix ended (cache-divergence.ts) and the checkable evidence its
// cause rests on; session logs get causes from that evidence (cache-evidence.ts).

import { cachedPrefix } from '../catalog/cache-rules.ts';
import { getOrInsert } from '../lib/maps.ts';
import { firstIndex } from '../lib/search.ts';
import type { Request, Thread, Transcript } from '../model/transcript.ts';
import type { PipelineConfig } from '../pipeline/config.ts';
import type { RequestReplay } from '../replay/replay.ts';
import type { Replay } from '../replay/transcript.ts';
import { type Calibration, observedPrompt } from '../tokens/calibration.ts';
import type { TokenMeter } from '../tokens/meter.ts';
import type { BreakCause } from './break-causes.ts';
import { type Divergence, locateDivergence, PlacementMemo, placeInput } from './cache-divergence.ts';
import { divergenceLine, fmtGap, sessionCause } from './cache-evidence.ts';
import { cacheApiOf, cacheApiOfModel, RulesByModel, rulesFor } from './cache-settings.ts';
import { endTime, observedCause, observedMin, type Ttl, ttlOf } from './observed-cause.ts';
import { withReportedCause } from './reported-cause.ts';

export type BreakInfo = {
  cause: BreakCause;
  tokensLost: number;
  messageIndex?: number;
  detail: string;
  events?: number[];
  /** ttl-expired: the gap since the previous response and the TTL it exceeded (ms). */
  gapMs?: number;
  ttlMs?: number;
  /** Observed breaks: checkable statements the cause rests on (lines, gaps, tokens at the divergence point). */
  evidence?: string[];
  /** Observed breaks: where the cached prefix ended (estimated position of an observed read). */
  divergence?: Divergence;
  /** When the provider reported the cause (reported-cause.ts): Tierscope's own inference, and whether it agrees. */
  inferred?: string;
  agrees?: boolean;
};

export type ObservedPoint = {
  thread: string;
  index: number;
  prompt: number;
  input: number;
  cacheRead: number;
  cacheWrite: number;
  hitRate: number;
  break: BreakInfo | null;
};

export type SimulatedPoint = {
  thread: string;
  index: number;
  prompt: number;
  cacheRead: number;
  cacheWrite: number;
  uncached: number;
  hitRate: number;
  break: BreakInfo | null;
};

/** A drop is a break when the read falls below 80% of the previous prompt and loses at least `min` tokens. */
export function isBreak(read: number, previousPrompt: number, min: number): boolean {
  return previousPrompt > 0 && read < 0.8 * previousPrompt && previousPrompt - read >= Math.max(1, min);
}

/** What the timelines keep from one run to the next of one transcript (the engine's RunMemo). */
export class TimelineMemo {
  /** The observed timeline and the cache settings it was made with (it depends on nothing else; read-only). */
  observed: { key: string; points: ObservedPoint[] } | undefined;
  /** The simulated timeline's schedule (visit order, prefix ids) and the replay shape it fits. */
  schedule: Schedule | undefined;
}

/** What locating divergence points needs: the run's meter and the transcript's calibrations (per thread id). */
export type ObservedContext = { meter: TokenMeter; calibrations: ReadonlyMap<string, Calibration> };

/** Observed timeline over every thread of a log with usage; with `ctx`, breaks carry their divergence point and
 *  session logs get causes from evidence. */
export function observedTimeline(
  t: Transcript,
  config: PipelineConfig,
  memo = new TimelineMemo(),
  ctx?: ObservedContext,
): ObservedPoint[] {
  const key = `${ctx ? 'located' : 'plain'}|${JSON.stringify(config.cache)}`;
  if (memo.observed && memo.observed.key === key) return memo.observed.points;
  const points = computeObserved(t, config, ctx);
  memo.observed = { key, points };
  return points;
}

/** The break of `r` against `ref`: its cause, the evidence, and where its cached prefix ended. */
function observedBreak(
  th: Thread,
  ref: Request,
  refThread: Thread,
  r: Request,
  first: boolean,
  config: PipelineConfig,
  ctx: ObservedContext | undefined,
  memo: BreakMemo,
): BreakInfo {
  const obs = r.observed as NonNullable<Request['observed']>;
  const refPrompt = observedPrompt(ref.observed as NonNullable<Request['observed']>);
  const c = observedCause(th, ref, refThread, r, first, config, memo.ttl);
  // What the break made the request bill again: its prompt up to the previous one's size, less what it read. A
  // prompt that shrank (an agent compaction, a sub-agent's first request after a long main thread) dropped the rest:
  // those tokens were not sent, so they are not counted (nor priced) as re-written.
  const brk: BreakInfo = { ...c, tokensLost: Math.max(0, Math.min(refPrompt, observedPrompt(obs)) - obs.cacheRead) };
  const cal = ctx?.calibrations.get(th.id);
  const est = cal?.requests[r.index];
  if (!ctx || !cal || !est) return withReportedCause(brk, r);
  const api = cacheApiOfModel(r.model);
  const step = rulesFor(api, r.model, config.cache).step;
  memo.placements ??= new PlacementMemo(ctx.meter);
  const placed = placeInput(th, r, est, cal.factor, ctx.meter, memo.placements);
  const d = locateDivergence(placed, obs.cacheRead, observedPrompt(obs), step, cal.factor, ctx.meter);
  if (d) brk.divergence = d;
  if (c.cause === 'unexplained' && !first && th === refThread) {
    const end = endTime(ref);
    const s = sessionCause({
      thread: th,
      ref,
      r,
      cal,
      api,
      step,
      divergence: d,
      min: observedMin(r.model, config),
      gapMs: end !== undefined && r.time !== undefined ? r.time - end : undefined,
      inputStart: memo.placements.view(th, r).start,
    });
    brk.cause = s.cause;
    brk.detail = s.detail;
    brk.evidence = s.evidence;
  } else if (d) brk.evidence = [...c.evidence, divergenceLine(d, step)];
  if (d) brk.messageIndex = d.messageIndex;
  return withReportedCause(brk, r);
}

/** What the breaks of one observed timeline share, so a log where every request breaks stays linear (issue 29):
 *  placements (input builders, running sums) and each thread's cache TTL. */
type BreakMemo = { placements?: PlacementMemo; ttl: (thread: Thread) => Ttl };

function computeObserved(t: Transcript, config: PipelineConfig, ctx: ObservedContext | undefined): ObservedPoint[] {
  const ttls = new Map<Thread, Ttl>();
  const memo: BreakMemo = { ttl: (th) => getOrInsert(ttls, th, () => ttlOf(th, config)) };
  const out: ObservedPoint[] = [];
  const all: { thread: Thread; r: Request }[] = [];
  for (const th of t.threads) for (const r of th.requests) if (r.observed) all.push({ thread: th, r });
  const byTime = [...all].sort((a, b) => (a.r.time ?? 0) - (b.r.time ?? 0));
  // Per model, not per request: the rules parse the model id and format their reasons.
  const minByModel = new Map<string | undefined, number>();
  const minOf = (model: string | undefined) => getOrInsert(minByModel, model, () => observedMin(model, config));
  for (const th of t.threads) {
    let prev: Request | undefined;
    for (const r of th.requests) {
      if (!r.observed) continue;
      const prompt = observedPrompt(r.observed);
      let ref = prev;
      let refThread = th;
      const first = prev === undefined;
      if (first && th.kind !== 'main' && r.time !== undefined) {
        // The latest request of another thread at or before this one (stable sort: file order among equals).
        const t0 = r.time;
        let k = firstIndex(byTime.length, (i) => (byTime[i].r.time ?? 0) > t0) - 1;
        while (k >= 0 && byTime[k].thread === th) k--;
        const earlier = k >= 0 ? byTime[k] : undefined;
        if (earlier) {
          ref = earlier.r;
          refThread = earlier.thread;
        }
      }
      let brk: BreakInfo | null = null;
      if (ref?.observed && isBreak(r.observed.cacheRead, observedPrompt(ref.observed), minOf(r.model)))
        brk = observedBreak(th, ref, refThread, r, first, config, ctx, memo);
      out.push({
        thread: th.id,
        index: r.index,
        prompt,
        input: r.observed.input,
        cacheRead: r.observed.cacheRead,
        cacheWrite: r.observed.cacheWrite,
        hitRate: prompt > 0 ? r.observed.cacheRead / prompt : 0,
        break: brk,
      });
      prev = r;
    }
  }
  return out;
}

/**
 * What the simulation needs of every request that no setting changes, in replay order: its time, end,
 * model, and the prefix it shares (model + tools + system, and model + tools) as small integers, with the
 * order in which requests are visited (by time, ties in replay order). Kept per transcript: a re-run after
 * a threshold change only replays the pipeline, so rebuilding these keys and sorting every run was waste.
 */
type Schedule = {
  /** Requests per thread (the replay's shape this schedule fits). */
  shape: number[];
  order: Int32Array;
  time: (number | undefined)[];
  end: (number | undefined)[];
  prefixId: Int32Array;
  toolsId: Int32Array;
  prefixes: number;
  tools: number;
  /** Per request (replay order): its thread's index; and each thread's first request, then the count. */
  threadOf: Int32Array;
  threadStart: Int32Array;
};
function scheduleFor(t: Transcript, replay: Replay, memo: TimelineMemo): Schedule {
  const shape = replay.threads.map((tr) => tr.requests.length);
  const cached = memo.schedule;
  if (cached && fits(cached, shape)) return cached;
  const time: (number | undefined)[] = [];
  const end: (number | undefined)[] = [];
  const prefixIds = new Map<string, number>();
  const toolsIds = new Map<string, number>();
  const prefixId: number[] = [];
  const toolsId: number[] = [];
  const intern = (ids: Map<string, number>, key: string) => {
    let id = ids.get(key);
    if (id === undefined) {
      id = ids.size;
      ids.set(key, id);
    }
    return id;
  };
  replay.threads.forEach((tr, ti) => {
    const thread = t.threads[ti];
    for (const rr of tr.requests) {
      const req = thread.requests[rr.index];
      time.push(req?.time);
      end.push(req ? endTime(req) : undefined);
      prefixId.push(intern(prefixIds, `${rr.model}|${rr.toolsKey}|${rr.systemKey}`));
      toolsId.push(intern(toolsIds, `${rr.model}|${rr.toolsKey}`));
    }
  });
  const order = Int32Array.from(time.keys()).sort((a, b) => (time[a] ?? 0) - (time[b] ?? 0) || a - b);
  const threadOf = new Int32Array(time.length);
  const threadStart = new Int32Array(shape.length + 1);
  for (let ti = 0, k = 0; ti < shape.length; ti++) {
    threadStart[ti] = k;
    threadOf.fill(ti, k, k + shape[ti]);
    k += shape[ti];
  }
  threadStart[shape.length] = time.length;
  const s: Schedule = {
    threadOf,
    threadStart,
    shape,
    order,
    time,
    end,
    prefixId: Int32Array.from(prefixId),
    toolsId: Int32Array.from(toolsId),
    prefixes: prefixIds.size,
    tools: toolsIds.size,
  };
  memo.schedule = s;
  return s;
}

/** The cached schedule was made for replays of this shape. A replay covers every request of every thread in
 *  order (the per-request facts it uses are the transcript's, which never changes), so the shape decides. */
function fits(s: Schedule, shape: number[]): boolean {
  return s.shape.length === shape.length && s.shape.every((n, i) => n === shape[i]);
}

/** The first message each request's pipeline summary folded (by request index), from a thread's `folded`. */
function firstFoldedBy(folded: readonly (number | undefined)[]): Map<number, number> {
  const out = new Map<number, number>();
  folded.forEach((request, message) => {
    if (request !== undefined && !out.has(request)) out.set(request, message);
  });
  return out;
}

function simulatedCause(
  rr: RequestReplay,
  prev: RequestReplay,
  expired: boolean,
  gap: number,
  ttl: number,
  firstFolded: () => Map<number, number>,
): Omit<BreakInfo, 'tokensLost'> {
  if (expired)
    return {
      cause: 'ttl-expired',
      detail: `cache expired: ${fmtGap(gap)} since the previous response; TTL ${fmtGap(ttl)}`,
      gapMs: gap,
      ttlMs: ttl,
    };
  if (prev.model && rr.model && prev.model !== rr.model)
    return { cause: 'model-changed', detail: `model changed from ${prev.model} to ${rr.model}` };
  if (rr.toolsKey !== prev.toolsKey) return { cause: 'tools-changed', detail: 'the tool definitions changed' };
  if (rr.systemKey !== prev.systemKey) return { cause: 'system-changed', detail: 'the system prompt changed' };
  if (rr.reset && rr.reset.kind === 'reset' && rr.reset.reason !== 'first' && rr.commonMessages <= rr.reset.divergeAt) {
    return rr.reset.reason === 'agent-compaction'
      ? { cause: 'agent-compaction', detail: 'the recorded input restarts after the agent’s own compaction' }
      : {
          cause: `history-rewritten@${rr.reset.divergeAt}`,
          detail: `the recorded input rewrote message ${rr.reset.divergeAt}`,
        };
  }
  const inside = rr.events
    .map((e, i) => ({ e, i }))
    .filter(({ e }) => e.position < rr.carriedMessages)
    .sort((a, b) => a.e.position - b.e.position);
  if (inside.length > 0) {
    const firstPos = inside[0].e.position;
    const culprits = inside.filter(({ e }) => e.position === firstPos);
    const e = culprits[0].e;
    const what = e.action === e.stage ? e.stage : `${e.stage}${e.tier ? ` tier ${e.tier}` : ''} ${e.action}`;
    const rewrites = `${inside.length} rewrite${inside.length > 1 ? 's' : ''} in the old prefix`;
    if (e.messageIndex >= 0)
      return {
        cause: e.stage,
        detail: `${what} rewrote message ${e.messageIndex} inside the cached prefix (${rewrites})`,
        events: inside.map(({ i }) => i),
        messageIndex: e.messageIndex,
      };
    // A summary is no message of the log: the break points at the first message it folded (where the old prefix
    // stopped holding what was sent before), when it folded any.
    const first = firstFolded().get(rr.index);
    return {
      cause: e.stage,
      detail: `${what} replaced ${first !== undefined ? `messages from ${first} on` : 'messages'} with a summary inside the cached prefix (${rewrites})`,
      events: inside.map(({ i }) => i),
      ...(first !== undefined ? { messageIndex: first } : {}),
    };
  }
  return { cause: 'below-minimum', detail: 'the shared prefix is below the cacheable minimum' };
}

/** A use at `at` is still cached at `now` (either unknown: assumed so). */
function within(now: number | undefined, at: number | undefined, ttl: number): boolean {
  return now === undefined || at === undefined || now - at <= ttl;
}

/** Simulated cache read/write for every replayed request, merged over threads by time. */
export function simulatedTimeline(t: Transcript, replay: Replay, memo = new TimelineMemo()): SimulatedPoint[] {
  const cfg = replay.options.config;
  const sched = scheduleFor(t, replay, memo);
  const { threadOf, threadStart } = sched;
  const threads = replay.threads;
  /** Request `k` (replay order) of the replay. */
  const rrAt = (k: number): RequestReplay => threads[threadOf[k]].requests[k - threadStart[threadOf[k]]];
  const ttl = cfg.cache.ttlSeconds * 1000;
  // The API's rules for each request's model (its minimum and step), with the config's overrides.
  const rulesOf = new RulesByModel(cacheApiOf(replay.options.provider), cfg.cache);
  const lastByThread = new Int32Array(threads.length).fill(-1);
  // Last use time of each shared prefix (model|tools|system) and tools prefix (model|tools); NaN: never.
  const prefixSeen = new Float64Array(sched.prefixes).fill(Number.NaN);
  const toolsSeen = new Float64Array(sched.tools).fill(Number.NaN);
  const count = threadOf.length;
  const points: SimulatedPoint[] = new Array(count);
  const prompts = new Float64Array(count);
  /** Per thread, made when a summary first breaks the simulated cache: the first message each request folded. */
  const foldedIndex = new Map<number, Map<number, number>>();
  for (let o = 0; o < count; o++) {
    const k = sched.order[o];
    const ti = threadOf[k];
    const rr = rrAt(k);
    const factor = threads[ti].calibration.factor;
    // The prompt is the calibrated estimate of what would be sent: counted tokens × factor, plus what the log does
    // not hold (the unlogged system prompt and tool schemas, hidden framing), which sits at the front of every
    // prompt and so belongs to any prefix it shares.
    const prompt = Math.max(0, rr.estimateOut);
    const front = Math.max(0, prompt - factor * rr.outputTokens);
    prompts[k] = prompt;
    const rules = rulesOf.of(rr.model);
    const min = rules.minCacheable;
    const now = sched.time[k];
    const p = lastByThread[ti];
    const prev = p >= 0 ? rrAt(p) : undefined;
    let read = 0;
    let expired = false;
    let gap = 0;
    if (prev && prev.model === rr.model) {
      const at = sched.end[p] ?? sched.time[p];
      if (within(now, at, ttl) && rr.commonTokens > 0) read = front + factor * rr.commonTokens;
      else {
        expired = true;
        gap = (now ?? 0) - (at ?? 0);
      }
    }
    const seenPrefix = prefixSeen[sched.prefixId[k]];
    const seenTools = toolsSeen[sched.toolsId[k]];
    if (!Number.isNaN(seenPrefix) && within(now, seenPrefix, ttl))
      read = Math.max(read, front + factor * rr.prefixTokens);
    else if (!Number.isNaN(seenTools) && within(now, seenTools, ttl))
      read = Math.max(read, front + factor * rr.toolsTokens);
    read = cachedPrefix(Math.min(read, prompt), min, rules.step);
    const cacheable = prompt >= min;
    // Anthropic bills writing the prompt up to its breakpoint; OpenAI and Gemini cache by themselves and bill the
    // uncached part as plain input.
    const explicit = rules.writes === 'explicit';
    const write = explicit && cacheable ? Math.max(0, prompt - read) : 0;
    let brk: BreakInfo | null = null;
    if (prev) {
      const prevPrompt = prompts[p];
      if (isBreak(read, prevPrompt, min)) {
        const c = simulatedCause(rr, prev, expired, gap, ttl, () =>
          getOrInsert(foldedIndex, ti, () => firstFoldedBy(threads[ti].folded)),
        );
        brk = { ...c, tokensLost: Math.max(0, prevPrompt - read) };
      }
    }
    points[k] = {
      thread: rr.thread,
      index: rr.index,
      prompt,
      cacheRead: read,
      cacheWrite: write,
      uncached: explicit ? (cacheable ? 0 : prompt) : Math.max(0, prompt - read),
      hitRate: prompt > 0 ? read / prompt : 0,
      break: brk,
    };
    lastByThread[ti] = k;
    const used = sched.end[k] ?? sched.time[k] ?? 0;
    prefixSeen[sched.prefixId[k]] = used;
    toolsSeen[sched.toolsId[k]] = used;
  }
  return points;
}
