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
import { type ReplayOptions, replayThread, type ThreadReplay } from './replay.ts';
import { sameReads } from './reuse.ts';

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

/** Running sums over a thread's messages, so each request's sample costs O(1) (inputs share prefixes). */
function sums(thread: Thread, meter: TokenMeter, hidden: Float64Array) {
  const n = thread.messages.length;
  const all = new Float64Array(n + 1);
  const blocks = new Float64Array(n + 1);
  const hid = new Float64Array(n + 1);
  const think = new Float64Array(n + 1);
  thread.messages.forEach((m, i) => {
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
  });
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
 *  reasoning counts only within the current turn (Codex). */
function calibrationSamples(thread: Thread, meter: TokenMeter, framing = 0, perTurn = false): CalibrationSample[] {
  const inputs = new InputBuilder(thread, 'recorded');
  const s = sums(thread, meter, hiddenThinking(thread, meter));
  const turns = perTurn ? turnStarts(thread) : undefined;
  let segment = 0;
  let prev: { start: number; end: number; model?: string } | undefined;
  return thread.requests.map((r) => {
    const v = inputs.view(r);
    const prefix = r.exactPrefix ?? thread.prefix;
    if (prev) {
      const loads = !v.exact && thread.messages.slice(prev.end, v.end).some(loadsToolSchemas);
      const model = r.model !== undefined && prev.model !== undefined && r.model !== prev.model;
      if (r.boundary === 'agent-compaction' || v.start !== prev.start || loads || model) segment++;
    }
    prev = { start: v.start, end: v.end, model: r.model ?? prev?.model };
    // Only a request log holds the whole prefix; a session log's instructions (Codex) are a part of it.
    const whole = (r.exactPrefix !== undefined || r.exactInput !== undefined) && hasPrefix(prefix);
    const base = { observed: r.observed, prefix: prefixTokens(meter, prefix), hasPrefix: whole, segment };
    if (v.exact) {
      let tools = 0;
      for (let i = v.start; i < v.end; i++) for (const b of v.array[i].blocks) if (isToolBlock(b)) tools++;
      const counted = meter.messages(v.array, v.start, v.end);
      return { ...base, counted, framing: framing * tools, hidden: 0 };
    }
    const from = turns ? Math.max(v.start, turns[v.end]) : v.start;
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
    }
    return sample;
  });
}

/** Calibrate every thread; a thread whose usage cannot fix a factor takes the median factor of those that
 *  can (else the prior: 1.1 for Claude models, 1 for the rest), and a thread without usage the median offset
 *  of the others' first requests. */
export function calibrateTranscript(t: Transcript, meter: TokenMeter): Map<string, Calibration> {
  const framing = framingPerBlock(t.meta.originalFormat ?? t.format);
  // Codex: a turn's reasoning leaves the prompt at the next user prompt (hidden.ts).
  const perTurn = (t.meta.originalFormat ?? t.format) === 'codex';
  const samples = new Map(t.threads.map((th) => [th.id, calibrationSamples(th, meter, framing, perTurn)]));
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
  const replay = replayThread(th, opts, cache, calibration);
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
