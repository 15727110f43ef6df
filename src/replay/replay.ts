// The request-by-request replay (SPEC §3): for every request of a thread, its recorded input goes through
// the pipeline with the state carried over from the previous request. The working history carries the
// previous output forward and only appended messages are new, so a request's cost does not grow with the
// unchanged history; a recorded input that stops extending the previous one (an agent compaction, a
// rewritten request log) resets the history and re-applies every persisted result rewrite byte-identically.
// The pairing validator runs on the recorded input and after every stage that changed structure.

import type { Block, Message, Thread } from '../model/transcript.ts';
import { FLAGS_DUPLICATES, newViolations, type PairingViolation, validatePairing } from '../pairing/validate.ts';
import { type Gate, gateShut } from '../pipeline/config.ts';
import { LOSSY, resultFates } from '../pipeline/fates.ts';
import type { PipelineEvent, StageContext } from '../pipeline/stage.ts';
import { STAGES, stageStates } from '../pipeline/stages/index.ts';
import type { SummarizeState } from '../pipeline/stages/summarize.ts';
import { grownTo, type ToolIds } from '../pipeline/tool-ids.ts';
import { Working } from '../pipeline/working.ts';
import type { Calibration } from '../tokens/calibration.ts';
import type { ReplayCache } from './cache.ts';
import { InputRepeats, idsBefore, spliceMayBreak, validateAppended } from './pairing-window.ts';
import { threadPlan } from './plan.ts';
import { requestIndexer } from './request-of.ts';
import { type ConfigReads, noteShut, trackedConfig } from './reuse.ts';
import type { ReplayOptions, RequestReplay, ThreadPlans, ThreadReplay, ThreadRun } from './types.ts';

export type { ReplayOptions, RequestReplay, ThreadReplay } from './types.ts';

const SUMMARIZE = STAGES.findIndex((s) => s.id === 'summarize');

/** Result rewrites that lose its content (a later call that fetches it again is the 37.1 failure). */

/** Most requests rewrite nothing and break no pairing rule: they share these (frozen) empty lists. */
const NO_EVENTS: PipelineEvent[] = Object.freeze([]) as unknown as PipelineEvent[];
const NO_VIOLATIONS: PairingViolation[] = Object.freeze([]) as unknown as PairingViolation[];

/** The recorded input does not depend on the config: its pairing check is kept with the thread's plans (per
 *  mode, PlanColumns) by provider and kind, so a re-run after a threshold change validates only what the pipeline
 *  changed. Keys are made once per thread replay. */
function checkKeys(opts: ReplayOptions) {
  const k = `${opts.provider}|`; // the plan is the mode's already
  return {
    appendFull: `${k}append|true`,
    append: `${k}append|false`,
    appendSettled: `${k}append|settled`,
    reset: `${k}reset`,
  };
}

/** The latest rewrite of each result, by tool id number (a reset re-applies them). A list, not a Map by id: a run
 *  records one per rewrite, tens of thousands on a long thread. */
class Rewritten {
  private readonly byNumber: (Block | undefined)[];
  size = 0;
  constructor(private readonly ids: ToolIds) {
    this.byNumber = new Array(ids.size).fill(undefined);
  }
  set(n: number, b: Block): void {
    while (this.byNumber.length <= n) this.byNumber.push(undefined);
    if (this.byNumber[n] === undefined) this.size++;
    this.byNumber[n] = b;
  }
  get(id: string): Block | undefined {
    const n = this.ids.get(id);
    return n === undefined ? undefined : this.byNumber[n];
  }
}

function reapply(messages: readonly Message[], rewrites: Rewritten): Message[] {
  if (rewrites.size === 0) return messages.slice();
  return messages.map((m) => {
    if (!m.blocks.some((b) => b.type === 'tool_result' && rewrites.get(b.toolUseId) !== undefined)) return m;
    return {
      ...m,
      blocks: m.blocks.map((b) => (b.type === 'tool_result' ? (rewrites.get(b.toolUseId) ?? b) : b)),
    };
  });
}

function latestTask(work: Working): string {
  for (let i = work.length - 1; i >= 0; i--) {
    const m = work.at(i);
    if (m.role !== 'user' || m.meta || m.compaction) continue;
    const t = m.blocks
      .map((b) => (b.type === 'text' ? b.text : ''))
      .join('\n')
      .trim();
    if (t !== '') return t;
  }
  return '';
}

/** A gate never found shut (estimates can be negative: a calibration's offset). */
const NOT_ASKED = Number.NEGATIVE_INFINITY;

/** The config reads with each gate's largest shut estimate noted (reuse.ts noteShut). */
function readsWithGates(reads: ConfigReads, shutFor: Record<Gate, number>): ConfigReads {
  const out = new Map(reads);
  for (const gate of Object.keys(shutFor) as Gate[])
    if (shutFor[gate] !== NOT_ASKED) noteShut(out, gate, shutFor[gate]);
  return out;
}

/** Replay one thread. `until` stops after that request index; `capture` keeps its output messages;
 *  `observe` (tests, the diff view) sees every request's output right after its pipeline ran. */
export function replayThread(
  thread: Thread,
  opts: ReplayOptions,
  cache: ReplayCache,
  calibration: Calibration,
  until = Number.POSITIVE_INFINITY,
  capture = false,
  observe?: (request: number, output: readonly Message[]) => void,
): ThreadReplay {
  const run = startReplay(thread, opts, cache, calibration, capture, observe);
  const plans = threadPlan(thread, opts.mode, cache, calibration);
  for (let k = 0; k < plans.length; k++) {
    if (thread.requests[k].index > until) break;
    run.step(plans, k);
  }
  return run.finish();
}

/** Start a thread's replay (ThreadRun, types.ts): its plans are then stepped through one by one. */
export function startReplay(
  first: Thread,
  opts: ReplayOptions,
  cache: ReplayCache,
  firstCalibration: Calibration,
  capture = false,
  observe?: (request: number, output: readonly Message[]) => void,
): ThreadRun {
  let thread = first;
  let calibration = firstCalibration;
  const { meter, pipeline: memo } = cache;
  const reads: ConfigReads = new Map();
  const keys = checkKeys(opts);
  const config = trackedConfig(opts.config, reads);
  /** The largest estimate each gate was found shut for (noted into `reads` when the replay is read out: a gate is
   *  asked several times a request, and a number compares cheaper than the Map's string). */
  const shutFor: Record<Gate, number> = { trigger: NOT_ASKED, summarize: NOT_ASKED, hardcap: NOT_ASKED };
  const work = new Working(memo, memo.toolIds.of(thread));
  const states: unknown[] = STAGES.map((s) => s.initial());
  // The latest rewrite of each result (a reset re-applies them: an input that restarts keeps what the pipeline
  // already did to the results it still holds).
  const rewrites = new Rewritten(work.ids);
  let lastChars = new Int32Array(work.ids.size).fill(-1);
  const losses: (PipelineEvent | undefined)[] = [];
  const reported = new Set<string>();
  const reportKey = (v: PairingViolation, messageIndex: number) =>
    `${v.stage}|${v.rule}|${v.toolUseId ?? ''}|${v.toolUseId ? '' : messageIndex}`;
  // The recorded input's repeated tool ids (pairing-window.ts): a repeat reported before is no news.
  let repeats = new InputRepeats();
  /** Whether `repeats` holds the input's ids (only needed from the plans' first repeated id on). */
  let tracking = false;
  const track = (plans: ThreadPlans, k: number): boolean => {
    if (k < plans.firstRepeat()) return false;
    if (!tracking) repeats = idsBefore(plans, k);
    tracking = true;
    return true;
  };
  const inputDuplicateReported = FLAGS_DUPLICATES[opts.provider]
    ? (id: string) => reported.has(`input|duplicate-id|${id}|`)
    : () => true;
  const knownDuplicate = (v: PairingViolation) =>
    v.rule === 'duplicate-id' && v.toolUseId !== undefined && reported.has(reportKey(v, -1));
  const out: RequestReplay[] = [];
  let prevToolsKey = '';
  let prevSystemKey = '';
  const factor = calibration.factor;

  /** Record violations not reported before; `messageIndex` becomes the thread's message index (the
   *  transcript row), `position` keeps the place in the validated list. */
  const report = (
    list: readonly PairingViolation[],
    into: PairingViolation[],
    validated: readonly Message[],
    offset = 0,
  ): PairingViolation[] => {
    for (const v of list) {
      const position = v.messageIndex;
      const messageIndex = validated[offset + position]?.index ?? -1;
      const key = reportKey(v, messageIndex);
      if (reported.has(key)) continue;
      reported.add(key);
      if (into === NO_VIOLATIONS) into = [];
      into.push({ ...v, messageIndex, position });
    }
    return into;
  };

  // One stage context per thread, updated per request (a request allocates as little as possible).
  let task: string | undefined;
  let events: PipelineEvent[] = NO_EVENTS;
  let current = 0;
  /** Calibrated estimate of this request's input, and its counted messages (the estimate moves with them, at
   *  `rate`: what the calibration says one of their counted tokens is worth, calibration.ts). */
  let inputEstimate = 0;
  let inputCounted = 0;
  let rate = factor;
  const ctx: StageContext = {
    thread: thread.id,
    request: 0,
    config,
    meter,
    memo,
    summarizer: opts.summarizer,
    estimate: () => inputEstimate + rate * (work.total - inputCounted),
    shut: (gate) => {
      const e = ctx.estimate();
      // Read untracked: a shut gate is recorded as a bound; an open one through the tracked config, so the
      // keys of its line are recorded exactly (what the stage does next depends on them).
      if (gateShut(gate, e, opts.config)) {
        if (e > shutFor[gate]) shutFor[gate] = e;
        return true;
      }
      gateShut(gate, e, config);
      return false;
    },
    factor,
    prefixTokens: 0,
    requestOf: requestIndexer(thread, cache.requestTables),
    freshFrom: 0,
    task: () => {
      task ??= latestTask(work);
      return task;
    },
    emit: () => undefined,
    stage: STAGES[0].id,
    record: (ev: PipelineEvent) => {
      if (events === NO_EVENTS) events = [];
      events.push(ev);
      if (ev.toolUseId && ev.after?.type === 'tool_result') {
        // A result rewrite was just applied at (position, blockIndex): its tool id's number is there.
        let n = work.refsAt(ev.position)?.[ev.blockIndex];
        if (n === undefined || n < 0) n = work.ids.of(ev.toolUseId);
        rewrites.set(n, ev.after);
        if (n >= lastChars.length) lastChars = grownTo(lastChars, work.ids.size, -1);
        lastChars[n] = ev.charsAfter;
        if (LOSSY.has(ev.action) && losses[n] === undefined) losses[n] = ev;
      }
    },
  };
  const emits = STAGES.map((stage) => (e: Omit<PipelineEvent, 'thread' | 'request' | 'stage'>) => {
    ctx.record({ thread: thread.id, request: current, stage: stage.id, ...e });
  });

  const step = (plans: ThreadPlans, k: number): void => {
    const plan = plans.at(k);
    const r = plan.request;
    const { view, delta, toolsKey, systemKey, toolsTokens, staticTokens, rawInputTokens } = plan;
    const messages = view.array.slice(plan.from, view.end);
    let pairing: PairingViolation[] = NO_VIOLATIONS;
    // Made only when something is validated (most requests find their input check cached).
    const pctx = (stage: string) => ({ thread: thread.id, request: r.index, provider: opts.provider, stage });

    work.startRequest();
    let freshFrom: number;
    let oldOutput: Message[] | undefined;
    const dupBefore = work.duplicateUses;
    if (delta.kind === 'append') {
      freshFrom = work.length;
      work.append(messages, plan.known, plan.from);
      const tracked = track(plans, k);
      if (tracked) repeats.append(messages, inputDuplicateReported);
      const full = work.duplicateUses > dupBefore;
      // Every repeated id reported already: a window check that ignores those repeats says the same as the
      // full check would (what it adds are duplicates reported before), at the cost of the appended part.
      // (Whether it is settled is the same on every re-run: input checks do not depend on the config.)
      const settled = !tracked || repeats.settled(inputDuplicateReported);
      const key = settled ? keys.appendSettled : full ? keys.appendFull : keys.append;
      const found =
        plans.check(k, key) ??
        plans.keepCheck(
          k,
          key,
          validateAppended(view, delta.from, pctx('input'), full && !settled, settled ? knownDuplicate : undefined),
          NO_VIOLATIONS,
        );
      if (found.length > 0) pairing = report(found, pairing, view.array, view.start);
    } else {
      oldOutput = work.messages;
      const raw = messages;
      work.reset(reapply(raw, rewrites));
      freshFrom = 0;
      const found =
        plans.check(k, keys.reset) ??
        plans.keepCheck(k, keys.reset, validatePairing(raw, pctx('input')), NO_VIOLATIONS);
      pairing = report(found, pairing, raw);
      if (track(plans, k)) repeats.reset(raw, inputDuplicateReported);
    }

    task = undefined;
    events = NO_EVENTS;
    current = r.index;
    // The calibration estimates the recorded input (calibration.ts); another input (raw mode) differs from it
    // by its counted messages.
    const known = calibration.requests[r.index];
    rate = known?.rate ?? factor;
    inputEstimate = known
      ? known.estimate + rate * (rawInputTokens - known.counted - (known.dropped ?? 0))
      : factor * (staticTokens + rawInputTokens);
    inputCounted = rawInputTokens;
    ctx.factor = rate;
    ctx.request = r.index;
    ctx.prefixTokens = staticTokens;
    ctx.freshFrom = freshFrom;
    const stageTokens: number[] = new Array(STAGES.length);
    for (let i = 0; i < STAGES.length; i++) {
      const stage = STAGES[i];
      ctx.emit = emits[i];
      ctx.stage = stage.id;
      if (delta.kind === 'reset' && stage.onReset) states[i] = stage.onReset(work, states[i] as never, ctx);
      const before = work.messages;
      const epoch = work.epoch;
      states[i] = stage.run(work, states[i] as never, ctx);
      stageTokens[i] = staticTokens + work.total;
      if (work.epoch !== epoch) {
        const stageCtx = pctx(stage.id);
        const uniqueUses = work.duplicateUses === 0;
        // One splice (a summary, a drop): a window around its junction shows whether anything can be new. A
        // splice (it inserts no tool block) cannot make a use repeat, so the window skips that global check.
        const one = work.epoch === epoch + 1 ? work.spliceAt(work.epoch) : undefined;
        const checked =
          one === undefined ||
          spliceMayBreak(work.messages, one.start, one.inserted, { ...stageCtx, before, uniqueUses: true });
        const now = checked ? validatePairing(work.messages, { ...stageCtx, before, uniqueUses }) : NO_VIOLATIONS;
        // Only when the output has violations is the input checked, to keep what the stage introduced.
        if (now.length > 0)
          pairing = report(newViolations(validatePairing(before, stageCtx), now), pairing, work.messages);
      }
    }

    let commonMessages: number;
    if (delta.kind === 'append') commonMessages = Math.min(work.firstChange, work.carried);
    else {
      commonMessages = 0;
      const old = oldOutput ?? [];
      while (
        commonMessages < old.length &&
        commonMessages < work.length &&
        old[commonMessages] === work.at(commonMessages)
      )
        commonMessages++;
    }
    const sameTools = toolsKey === prevToolsKey;
    const samePrefix = sameTools && systemKey === prevSystemKey;
    const commonTokens = samePrefix ? staticTokens + work.tokensBefore(commonMessages) : sameTools ? toolsTokens : 0;
    if (!samePrefix) commonMessages = 0;

    const categories: Record<string, number> = {};
    work.forEachCategory((k, v) => {
      categories[k] = v;
    });
    categories.tools = toolsTokens;
    categories.system = (categories.system ?? 0) + Math.max(0, staticTokens - toolsTokens);
    const summarizeState = states[SUMMARIZE] as SummarizeState;
    const failure = summarizeState.failed.at(-1);

    out.push({
      thread: thread.id,
      index: r.index,
      time: r.time,
      responseTime: r.responseTime,
      model: r.model,
      reset: delta.kind === 'reset' ? delta : undefined,
      inputTokens: staticTokens + rawInputTokens,
      outputTokens: staticTokens + work.total,
      estimateIn: inputEstimate,
      estimateOut: inputEstimate + rate * (work.total - rawInputTokens),
      estimateBasis: known?.basis ?? 'none',
      prefixTokens: staticTokens,
      toolsKey,
      systemKey,
      toolsTokens,
      stageTokens,
      events,
      pairing,
      categories,
      outputMessages: work.length,
      carriedMessages: delta.kind === 'append' ? work.carried : (oldOutput?.length ?? 0),
      commonMessages,
      commonTokens,
      summarizerError: failure && failure.request === r.index ? failure.error : undefined,
    });
    observe?.(r.index, work.snapshot());
    prevToolsKey = toolsKey;
    prevSystemKey = systemKey;
  };
  return {
    step,
    finish: () => ({
      thread: thread.id,
      calibration,
      requests: out.slice(),
      fates: resultFates(memo.sites.of(thread), stageStates(states), { lastChars, losses }),
      folded: (states[SUMMARIZE] as SummarizeState).folded.slice(),
      output: capture ? work.snapshot() : undefined,
      reads: readsWithGates(reads, shutFor),
    }),
    grown(next: Thread, nextCalibration: Calibration) {
      thread = next;
      calibration = nextCalibration;
      ctx.requestOf = requestIndexer(next, cache.requestTables);
      // What a replayed request copies of its request (a response's later line moves its response time).
      out.forEach((q, i) => {
        const r = next.requests[i];
        if (q.time !== r.time || q.responseTime !== r.responseTime || q.model !== r.model)
          out[i] = { ...q, time: r.time, responseTime: r.responseTime, model: r.model };
      });
    },
  };
}
