// The cache timeline (SPEC §5.2). Observed: per request of a log with usage, hit rate = cacheRead / prompt,
// and a break (cache read far below the previous prompt) with its cause — sidechain, model-changed,
// ttl-expired, agent-compaction, tools-changed / system-changed / history-rewritten@N, below-minimum,
// unexplained. Simulated: per replayed request, the longest block prefix shared with an earlier output
// (same thread, or the system+tools prefix of any thread) within TTL and of the same model is read,
// the rest written; a break is pinned to the pipeline events that rewrote inside the old prefix.
import type { Message, Request, Thread, Transcript } from '../model/transcript.ts';
import type { PipelineConfig } from '../pipeline/config.ts';
import type { RequestReplay } from '../replay/replay.ts';
import type { Replay } from '../replay/transcript.ts';
import { observedPrompt } from '../tokens/calibration.ts';

export type BreakInfo = { cause: string; tokensLost: number; messageIndex?: number; detail: string; events?: number[] };

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

function fmtGap(ms: number): string {
  const s = Math.round(ms / 1000);
  const m = Math.floor(s / 60);
  if (m === 0) return `${s} s`;
  return s % 60 === 0 ? `${m} min` : `${m} min ${s % 60} s`;
}

function ttlMs(thread: Thread, config: PipelineConfig): number {
  const oneHour = thread.requests.some((r) => (r.observed?.cacheWrite1h ?? 0) > 0);
  return (oneHour ? 3600 : config.cache.ttlSeconds) * 1000;
}

function endTime(r: Request): number | undefined {
  return r.responseTime ?? r.time;
}

function compactionBetween(t: Thread, a: Request, b: Request): boolean {
  if (b.boundary === 'agent-compaction') return true;
  for (let i = a.inputEnd; i < Math.min(b.inputEnd, t.messages.length); i++) if (t.messages[i].compaction) return true;
  return false;
}

function firstDifference(a: readonly Message[], b: readonly Message[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++)
    if (a[i] !== b[i] && JSON.stringify(a[i].blocks) !== JSON.stringify(b[i].blocks)) return i;
  return n;
}

function sameJson(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** Why the cache read of `r` fell relative to `ref` (first cause that applies). */
function observedCause(
  t: Thread,
  ref: Request,
  refThread: Thread,
  r: Request,
  first: boolean,
  config: PipelineConfig,
): { cause: string; detail: string } {
  if (first && t.kind !== 'main')
    return {
      cause: 'sidechain',
      detail: `first request of ${t.kind} ${t.title ?? t.id}: its prefix differs by design`,
    };
  if (ref.model && r.model && ref.model !== r.model)
    return { cause: 'model-changed', detail: `model changed from ${ref.model} to ${r.model}` };
  const gapFrom = endTime(ref);
  if (gapFrom !== undefined && r.time !== undefined) {
    const ttl = ttlMs(refThread, config);
    if (r.time - gapFrom > ttl) {
      return {
        cause: 'ttl-expired',
        detail: `cache expired: ${fmtGap(r.time - gapFrom)} since the previous response; TTL ${fmtGap(ttl)}`,
      };
    }
  }
  if (t === refThread && compactionBetween(t, ref, r))
    return { cause: 'agent-compaction', detail: 'the agent compacted its history between these requests' };
  if (ref.exactPrefix && r.exactPrefix) {
    if (!sameJson(ref.exactPrefix.tools, r.exactPrefix.tools))
      return { cause: 'tools-changed', detail: 'the tool definitions changed' };
    if (!sameJson(ref.exactPrefix.system, r.exactPrefix.system))
      return { cause: 'system-changed', detail: 'the system prompt changed' };
  }
  if (ref.exactInput && r.exactInput) {
    const at = firstDifference(ref.exactInput, r.exactInput);
    if (at < ref.exactInput.length)
      return { cause: `history-rewritten@${at}`, detail: `message ${at} of the previous request was rewritten` };
  }
  const refPrompt = ref.observed ? observedPrompt(ref.observed) : 0;
  if (refPrompt < config.cache.minCacheable)
    return {
      cause: 'below-minimum',
      detail: `the previous prompt (${refPrompt} tokens) is below the ${config.cache.minCacheable}-token minimum`,
    };
  return { cause: 'unexplained', detail: 'no recorded change explains the drop' };
}

/** Observed timeline over every thread of a log with usage. */
/** The observed timeline depends on the transcript and the cache settings only: kept for re-runs (read-only). */
const observedCache = new WeakMap<Transcript, { key: string; points: ObservedPoint[] }>();

export function observedTimeline(t: Transcript, config: PipelineConfig): ObservedPoint[] {
  const key = JSON.stringify(config.cache);
  const hit = observedCache.get(t);
  if (hit && hit.key === key) return hit.points;
  const points = computeObserved(t, config);
  observedCache.set(t, { key, points });
  return points;
}

function computeObserved(t: Transcript, config: PipelineConfig): ObservedPoint[] {
  const out: ObservedPoint[] = [];
  const all: { thread: Thread; r: Request }[] = [];
  for (const th of t.threads) for (const r of th.requests) if (r.observed) all.push({ thread: th, r });
  const byTime = [...all].sort((a, b) => (a.r.time ?? 0) - (b.r.time ?? 0));
  for (const th of t.threads) {
    let prev: Request | undefined;
    for (const r of th.requests) {
      if (!r.observed) continue;
      const prompt = observedPrompt(r.observed);
      let ref = prev;
      let refThread = th;
      const first = prev === undefined;
      if (first && th.kind !== 'main' && r.time !== undefined) {
        const earlier = byTime.filter((x) => x.thread !== th && (x.r.time ?? 0) <= (r.time ?? 0)).at(-1);
        if (earlier) {
          ref = earlier.r;
          refThread = earlier.thread;
        }
      }
      let brk: BreakInfo | null = null;
      if (ref?.observed) {
        const refPrompt = observedPrompt(ref.observed);
        if (isBreak(r.observed.cacheRead, refPrompt, config.cache.minCacheable)) {
          const c = observedCause(th, ref, refThread, r, first, config);
          brk = { ...c, tokensLost: refPrompt - r.observed.cacheRead };
        }
      }
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

type Entry = { thread: string; rr: RequestReplay; factor: number; model?: string; time?: number; end?: number };

function simulatedCause(
  rr: RequestReplay,
  prev: RequestReplay,
  expired: boolean,
  gap: number,
  ttl: number,
): { cause: string; detail: string; events?: number[]; messageIndex?: number } {
  if (expired)
    return {
      cause: 'ttl-expired',
      detail: `cache expired: ${fmtGap(gap)} since the previous response; TTL ${fmtGap(ttl)}`,
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
    const what = `${e.stage}${e.tier ? ` tier ${e.tier}` : ''} ${e.action}`;
    return {
      cause: e.stage,
      detail: `${what} rewrote message ${e.messageIndex >= 0 ? e.messageIndex : '(summary)'} inside the cached prefix (${inside.length} rewrite${inside.length > 1 ? 's' : ''} in the old prefix)`,
      events: inside.map(({ i }) => i),
      messageIndex: e.messageIndex,
    };
  }
  return { cause: 'below-minimum', detail: 'the shared prefix is below the cacheable minimum' };
}

/** Simulated cache read/write for every replayed request, merged over threads by time. */
export function simulatedTimeline(t: Transcript, replay: Replay): SimulatedPoint[] {
  const cfg = replay.options.config;
  const entries: Entry[] = [];
  replay.threads.forEach((tr, ti) => {
    const thread = t.threads[ti];
    for (const rr of tr.requests) {
      const req = thread.requests[rr.index];
      entries.push({
        thread: tr.thread,
        rr,
        factor: tr.calibration.factor,
        model: rr.model,
        time: req?.time,
        end: req ? endTime(req) : undefined,
      });
    }
  });
  const ttl = cfg.cache.ttlSeconds * 1000;
  const lastByThread = new Map<string, Entry>();
  const prefixSeen = new Map<string, number>(); // model|tools|system → last use time
  const toolsSeen = new Map<string, number>();
  const order = entries.map((e, i) => ({ e, i })).sort((a, b) => (a.e.time ?? 0) - (b.e.time ?? 0) || a.i - b.i);
  const points = new Map<Entry, SimulatedPoint>();
  for (const { e } of order) {
    const rr = e.rr;
    const prompt = e.factor * rr.outputTokens;
    const now = e.time;
    const within = (at: number | undefined) => now === undefined || at === undefined || now - at <= ttl;
    const prev = lastByThread.get(e.thread);
    let read = 0;
    let expired = false;
    let gap = 0;
    if (prev && prev.model === e.model) {
      const at = prev.end ?? prev.time;
      if (within(at)) read = e.factor * rr.commonTokens;
      else {
        expired = true;
        gap = (now ?? 0) - (at ?? 0);
      }
    }
    const pkey = `${e.model}|${rr.toolsKey}|${rr.systemKey}`;
    const tkey = `${e.model}|${rr.toolsKey}`;
    if (within(prefixSeen.get(pkey)) && prefixSeen.has(pkey)) read = Math.max(read, e.factor * rr.prefixTokens);
    else if (within(toolsSeen.get(tkey)) && toolsSeen.has(tkey)) read = Math.max(read, e.factor * rr.toolsTokens);
    if (read < cfg.cache.minCacheable) read = 0;
    const cacheable = prompt >= cfg.cache.minCacheable;
    const write = cacheable ? Math.max(0, prompt - read) : 0;
    let brk: BreakInfo | null = null;
    if (prev) {
      const prevPrompt = prev.factor * prev.rr.outputTokens;
      if (isBreak(read, prevPrompt, cfg.cache.minCacheable)) {
        const c = simulatedCause(rr, prev.rr, expired, gap, ttl);
        brk = { ...c, tokensLost: Math.max(0, prevPrompt - read) };
      }
    }
    points.set(e, {
      thread: e.thread,
      index: rr.index,
      prompt,
      cacheRead: read,
      cacheWrite: write,
      uncached: cacheable ? 0 : prompt,
      hitRate: prompt > 0 ? read / prompt : 0,
      break: brk,
    });
    lastByThread.set(e.thread, e);
    const used = e.end ?? e.time ?? 0;
    prefixSeen.set(pkey, used);
    toolsSeen.set(tkey, used);
  }
  return entries.map((e) => points.get(e) as SimulatedPoint);
}
