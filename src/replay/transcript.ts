// Replay a whole transcript: calibrate every thread from its observed usage (SPEC §2), then replay each
// thread request by request (SPEC §3). Threads are independent; the cache timeline later merges them
// by time (sub-agents share the system + tools prefix).
import type { FormatId, Message, Thread, Transcript } from '../model/transcript.ts';
import {
  type Calibration,
  type CalibrationSample,
  calibrate,
  calibrateWith,
  fitFactor,
  hasPrefix,
  median,
  prefixTokens,
} from '../tokens/calibration.ts';
import { ANTHROPIC_FRAMING_PER_BLOCK, isThinking, isToolBlock, loadsToolSchemas } from '../tokens/hidden.ts';
import type { TokenMeter } from '../tokens/meter.ts';
import type { ReplayCache } from './cache.ts';
import { InputBuilder } from './inputs.ts';
import { threadPlan } from './plan.ts';
import { type ReplayOptions, startReplay, type ThreadReplay } from './replay.ts';
import { type LiveReplay, whyNotResume } from './resume.ts';
import { sameReads } from './reuse.ts';
import type { MessageSums, ThreadSamples } from './types.ts';

export type Replay = {
  threads: ThreadReplay[];
  options: Omit<ReplayOptions, 'summarizer'> & { summarizer: string };
};

/** Tokens per tool block of wire framing, by the provider family of the format (hidden.ts; measured for the
 *  Anthropic-shaped formats only, 0 elsewhere until measured). */
function framingPerBlock(format: FormatId): number {
  return format === 'claude-code' || format === 'claude-trace' || format === 'anthropic-request'
    ? ANTHROPIC_FRAMING_PER_BLOCK
    : 0;
}

/** Of each response message: its output tokens beyond its counted text when it holds thinking and its usage
 *  looks final (a streamed snapshot — output smaller than the text — says nothing), else 0. */
function hiddenThinking(thread: Thread, meter: TokenMeter): Float64Array {
  const out = new Float64Array(thread.messages.length);
  for (const r of thread.requests) {
    const m = thread.messages[r.inputEnd];
    if (!r.observed || !m || m.role !== 'assistant' || !m.blocks.some(isThinking)) continue;
    out[r.inputEnd] = Math.max(0, r.observed.output - HIDDEN_RATIO * meter.message(m));
  }
  return out;
}
/** Provider tokens per counted token assumed when sizing hidden thinking (the ratio measured on the real
 *  claude-trace fixture: observed/o200k 1.064–1.137, median 1.112). */
const HIDDEN_RATIO = 1.1;

/** Running sums over a thread's messages, so each request's sample costs O(1) (inputs share prefixes).
 *  `earlier`: the sums of an earlier read of the thread, whose first `from` entries still hold. */
function sums(thread: Thread, meter: TokenMeter, hidden: Float64Array, earlier?: MessageSums, from = 0): MessageSums {
  const n = thread.messages.length;
  const all = new Float64Array(n + 1);
  const blocks = new Float64Array(n + 1);
  const hid = new Float64Array(n + 1);
  const think = new Float64Array(n + 1);
  const kept = earlier ? Math.min(from, n) : 0;
  if (earlier && kept > 0) {
    all.set(earlier.all.subarray(0, kept + 1));
    blocks.set(earlier.blocks.subarray(0, kept + 1));
    hid.set(earlier.hid.subarray(0, kept + 1));
    think.set(earlier.think.subarray(0, kept + 1));
  }
  for (let i = kept; i < n; i++) {
    const m = thread.messages[i];
    let tools = 0;
    let thought = 0;
    for (const b of m.blocks) {
      if (isToolBlock(b)) tools++;
      if (isThinking(b)) thought += meter.block(b);
    }
    all[i + 1] = all[i] + meter.message(m);
    blocks[i + 1] = blocks[i] + tools;
    hid[i + 1] = hid[i] + hidden[i];
    think[i + 1] = think[i] + thought;
  }
  return { all, blocks, hid, think };
}

/** A user prompt: text the user typed, not a tool result or content the agent injects. */
export const isPrompt = (m: Message) =>
  m.role === 'user' &&
  !m.meta &&
  !m.compaction &&
  m.blocks.some((b) => b.type === 'text') &&
  !m.blocks.some((b) => b.type === 'tool_result');

/** turnStart[i]: the index of the last user prompt before message i (0 when none): where a turn began. */
function turnStarts(thread: Thread): Int32Array {
  const out = new Int32Array(thread.messages.length + 1);
  let last = 0;
  thread.messages.forEach((m, i) => {
    out[i] = last;
    if (isPrompt(m)) last = i;
  });
  out[thread.messages.length] = last;
  return out;
}

/** What calibration needs of each request's recorded input (see calibration.ts and hidden.ts). `perTurn`: hidden
 *  reasoning counts only within the current turn (Codex); `noReasoning`: no earlier reasoning counts (Gemini CLI
 *  strips thoughts from the history it sends). `earlier`: the samples of an earlier read of the thread
 *  (a followed session's growth): a request's sample depends on its request, the messages before its input's end
 *  (their tokens, and the hidden reasoning of the responses among them) and the samples before it, so the first
 *  samples whose requests and messages are unchanged are kept and the rest made again. */
function calibrationSamples(
  thread: Thread,
  meter: TokenMeter,
  framing = 0,
  perTurn = false,
  earlier?: ThreadSamples,
  noReasoning = false,
): ThreadSamples {
  const sameRules = (e: ThreadSamples) =>
    e.framing === framing && e.perTurn === perTurn && (e.noReasoning ?? false) === noReasoning;
  if (earlier?.thread === thread && sameRules(earlier)) return earlier;
  const inputs = new InputBuilder(thread, 'recorded');
  const hidden = hiddenThinking(thread, meter);
  const was = earlier && sameRules(earlier) ? earlier : undefined;
  const p = was?.thread;
  // The first message whose sums may differ from the earlier read's.
  let same = 0;
  if (p && was && p.prefix === thread.prefix) {
    const n = Math.min(p.messages.length, thread.messages.length);
    while (same < n && p.messages[same] === thread.messages[same] && was.hidden[same] === hidden[same]) same++;
  }
  const s = sums(thread, meter, hidden, was?.sums, same);
  const turns = perTurn ? turnStarts(thread) : undefined;
  let segment = 0;
  let prev: { start: number; end: number; model?: string } | undefined;
  let keeping = p !== undefined && same > 0;
  const samples = thread.requests.map((r, i) => {
    const v = inputs.view(r);
    if (keeping && was && p && i < was.samples.length && p.requests[i] === r && v.end <= same) {
      segment = was.samples[i].segment;
      prev = { start: v.start, end: v.end, model: r.model ?? prev?.model };
      return was.samples[i];
    }
    keeping = false;
    const prefix = r.exactPrefix ?? thread.prefix;
    if (prev) {
      const loads = !v.exact && thread.messages.slice(prev.end, v.end).some(loadsToolSchemas);
      const model = r.model !== undefined && prev.model !== undefined && r.model !== prev.model;
      if (r.boundary === 'agent-compaction' || v.start !== prev.start || loads || model) segment++;
    }
    prev = { start: v.start, end: v.end, model: r.model ?? prev?.model };
    // Only a request log holds the whole prefix; a session log's instructions (Codex) are a part of it. A Codex
    // request's exact input (a compaction's replacement history) is exact for the messages only: rollouts never
    // hold the tool schemas, so its prefix stays partial (the ship 0.114 rollout: 13% of requests within ±3%
    // when it was taken as whole, the offset of the schemas missing from every estimate).
    const whole = (r.exactPrefix !== undefined || (r.exactInput !== undefined && !perTurn)) && hasPrefix(prefix);
    const base = { observed: r.observed, prefix: prefixTokens(meter, prefix), hasPrefix: whole, segment };
    if (v.exact) {
      let tools = 0;
      for (let i = v.start; i < v.end; i++) for (const b of v.array[i].blocks) if (isToolBlock(b)) tools++;
      const counted = meter.messages(v.array, v.start, v.end);
      return { ...base, counted, framing: framing * tools, hidden: 0 };
    }
    const from = noReasoning ? v.end : turns ? Math.max(v.start, turns[v.end]) : v.start;
    const sample: CalibrationSample = {
      ...base,
      // Earlier turns' reasoning is out of the prompt: its summaries' text as well as its hidden tokens.
      counted: s.all[v.end] - s.all[v.start] - (s.think[from] - s.think[v.start]),
      framing: framing * (s.blocks[v.end] - s.blocks[v.start]),
      hidden: s.hid[v.end] - s.hid[from],
    };
    if (turns) {
      sample.hiddenFrom = from;
      sample.dropped = s.think[from] - s.think[v.start];
    } else if (noReasoning) sample.dropped = s.think[from] - s.think[v.start];
    return sample;
  });
  return { thread, framing, perTurn, noReasoning, hidden, sums: s, samples };
}

/** Calibrate every thread; a thread whose usage cannot fix a factor takes the median factor of those that
 *  can (else the prior: 1.1 for Claude models, 1 for the rest), and a thread without usage the median offset
 *  of the others' first requests. */
export function calibrateTranscript(
  t: Transcript,
  meter: TokenMeter,
  /** Thread id → its samples from an earlier run (ReplayCache.calibrationInputs), updated here. */
  memo?: Map<string, ThreadSamples>,
): Map<string, Calibration> {
  const framing = framingPerBlock(t.meta.originalFormat ?? t.format);
  // Codex: a turn's reasoning leaves the prompt at the next user prompt (hidden.ts).
  const perTurn = (t.meta.originalFormat ?? t.format) === 'codex';
  // Gemini CLI: a reply's thoughts never return in a later request (stripThoughts, gemini-cli geminiChat.ts), also
  // when Harbor converted its chat to ATIF.
  const format = t.meta.originalFormat ?? t.format;
  const noReasoning = format === 'gemini-cli' || (format === 'atif' && t.meta.extra?.agent === 'gemini-cli');
  const samples = new Map(
    t.threads.map((th) => {
      const made = calibrationSamples(th, meter, framing, perTurn, memo?.get(th.id), noReasoning);
      memo?.set(th.id, made);
      return [th.id, made.samples];
    }),
  );
  const own = new Map([...samples].map(([id, ss]) => [id, fitFactor(ss)]));
  const fitted = [...own.values()].filter(Number.isFinite);
  const shared = fitted.length > 0 ? median(fitted) : Number.NaN;
  const out = new Map<string, Calibration>();
  const firstOffsets: number[] = [];
  for (const th of t.threads) {
    const ss = samples.get(th.id) ?? [];
    const f = own.get(th.id) ?? Number.NaN;
    const observed = ss.some((x) => x.observed);
    const prior = /claude/i.test(th.requests.find((r) => r.model)?.model ?? '') ? 1.1 : 1;
    const c = Number.isFinite(f)
      ? calibrateWith(ss, f, 'thread')
      : Number.isFinite(shared)
        ? calibrateWith(ss, shared, 'transcript')
        : calibrateWith(ss, observed ? prior : 1, observed ? 'prior' : 'none');
    out.set(th.id, c);
    const first = c.requests.find((q) => q.basis === 'inferred');
    if (first && c.prefixSource === 'inferred') firstOffsets.push(first.offset);
  }
  if (firstOffsets.length > 0) {
    const borrowed = median(firstOffsets);
    for (const th of t.threads) {
      const c = out.get(th.id);
      if (!c || c.samples > 0 || c.prefixSource === 'counted') continue;
      out.set(th.id, calibrateWith(samples.get(th.id) ?? [], c.factor, c.factorSource, borrowed));
    }
  }
  return out;
}

/** Replay `th`, or reuse its last replay (cache.lastReplays) when nothing it depended on changed (reuse.ts). An
 *  http summarizer's answers arrive between runs, so its replays are never reused. `keep`: a new replay becomes
 *  the thread's last one. */
function replayOrReuse(
  th: Thread,
  opts: ReplayOptions,
  cache: ReplayCache,
  calibration: Calibration,
  keep: boolean,
): ThreadReplay {
  const prev = cache.lastReplays.get(th);
  if (
    prev &&
    opts.summarizer.id !== 'http' &&
    prev.calibration === calibration &&
    prev.mode === opts.mode &&
    prev.provider === opts.provider &&
    prev.summarizer === opts.summarizer &&
    sameReads(opts.config, prev.replay.reads)
  )
    return prev.replay;
  // The run's own replay of the thread starts a round of the memos that keep the last few replays' entries.
  if (keep) {
    cache.pipeline.drafts.nextRound(th.id);
    // The thread's last replay is replaced when this one is done: let it go now, not after the new one is built.
    cache.lastReplays.delete(th);
  }
  const replay = replayLive(th, opts, cache, calibration);
  if (!keep) return replay;
  cache.lastReplays.set(th, {
    replay,
    calibration,
    mode: opts.mode,
    provider: opts.provider,
    summarizer: opts.summarizer,
  });
  return replay;
}

/** Replay `th` from request 0 (counted in cache.replayed), with the plans and the run it stepped. */
function replayWhole(th: Thread, opts: ReplayOptions, cache: ReplayCache, calibration: Calibration) {
  const plans = threadPlan(th, opts.mode, cache, calibration);
  const run = startReplay(th, opts, cache, calibration);
  for (let k = 0; k < plans.length; k++) run.step(plans, k);
  cache.replayed += plans.length;
  return { plans, run, replay: run.finish() };
}

/** Kept runs per thread (cache.live): a run's replay and the no-pipeline replay its cost is measured against,
 *  and one more (the setting a drag left), the most recently used first. */
const LIVE_PER_THREAD = 3;

/** Replay `th` whole, or, for a followed session (cache.keepRuns), from where the kept run of an earlier read of it
 *  with the same settings stopped (resume.ts), keeping the run for the next growth (cache.live). */
function replayLive(th: Thread, opts: ReplayOptions, cache: ReplayCache, calibration: Calibration): ThreadReplay {
  if (!cache.keepRuns) return replayWhole(th, opts, cache, calibration).replay;
  const ids = cache.pipeline.toolIds.peek(th);
  const config = JSON.stringify(opts.config);
  const kept = cache.live.get(th.id) ?? [];
  const at = kept.findIndex(
    (l) =>
      l.config === config && l.mode === opts.mode && l.provider === opts.provider && l.summarizer === opts.summarizer,
  );
  const live = at >= 0 ? kept[at] : undefined;
  if (live) kept.splice(at, 1);
  let entry: LiveReplay;
  if (live && live.thread === th && live.calibration === calibration && opts.summarizer.id !== 'http') {
    // Its run under these very settings replayed this thread already (the run's replay and the no-pipeline one
    // take turns in cache.lastReplays); an http summarizer's answers arrive between runs.
    entry = live;
  } else if (live && live.thread !== th && whyNotResume(live, th, opts, calibration, ids) === null) {
    const plans = threadPlan(th, opts.mode, cache, calibration, live.plans);
    live.run.grown(th, calibration);
    for (let k = live.plans.length; k < plans.length; k++) live.run.step(plans, k);
    cache.replayed += plans.length - live.plans.length;
    entry = { ...live, thread: th, calibration, plans, replay: live.run.finish() };
  } else {
    entry = {
      thread: th,
      calibration,
      ...replayWhole(th, opts, cache, calibration),
      mode: opts.mode,
      provider: opts.provider,
      summarizer: opts.summarizer,
      config,
      ids: ids ?? cache.pipeline.toolIds.peek(th),
    };
  }
  cache.live.set(th.id, [entry, ...kept].slice(0, LIVE_PER_THREAD));
  return entry.replay;
}

/** Replay every thread of the cache's transcript. `keep` false: the replays are not kept for the next run (a
 *  side replay, such as the cost without the pipeline, leaves the run's own replays in place and is not held). */
export function replayTranscript(t: Transcript, opts: ReplayOptions, cache: ReplayCache, keep = true): Replay {
  const cals = cache.calibrations(calibrateTranscript);
  const threads = t.threads.map((th) => replayOrReuse(th, opts, cache, cals.get(th.id) ?? calibrate([]), keep));
  return {
    threads,
    options: { config: opts.config, mode: opts.mode, provider: opts.provider, summarizer: opts.summarizer.id },
  };
}
