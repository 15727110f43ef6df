// Tokens per task (issue 17, the seeds' skill: optimise tokens per task, re-fetches included, not per request).
// A task is a request a person typed, up to the next one, in its thread: the requests whose latest typed user
// message is it. Per task: the recording's tokens (observed prompt + output) and this run's (the replay's
// calibrated estimate of what the pipeline would send + the observed output), each with the tokens and dollars of
// the results fetched again because a compaction or a lossy rewrite lost them.
import { getOrInsert } from '../lib/maps.ts';
import { headRunes, runeCount } from '../lib/runes.ts';
import { firstIndex } from '../lib/search.ts';
import type { Thread, Transcript } from '../model/transcript.ts';
import type { Replay } from '../replay/transcript.ts';
import type { CompactionFacts } from './compaction-audit.ts';
import type { RefetchesAfter } from './compaction-refetch.ts';
import { instructionText } from './ledger.ts';
import type { Refetch } from './refetch.ts';
import type { RequestDollars } from './run-cost.ts';

/** Re-fetched results counted once: their tokens and dollars. */
type Refetched = { thread: string; toolUseId: string; messageIndex: number; tokens: number; usd: number | null };

export type TaskRow = {
  thread: string;
  /** The typed message that opened it (null: the thread's requests before any typed message). */
  messageIndex: number | null;
  instruction: string;
  firstRequest: number;
  lastRequest: number;
  requests: number;
  /** This run (estimated): what the pipeline would send, calibrated, plus the observed output. */
  tokens: number;
  /** Of which: results fetched again after the agent's compactions or this run's lossy rewrites (counted). */
  refetchTokens: number;
  /** Simulated dollars of the run's requests (estimate); null when one of them has no price. */
  usd: number | null;
  refetchUsd: number | null;
  /** The recording (observed): prompt + output tokens of its requests with usage (null: none has usage), the
   *  results it fetched again after the agent's compactions, and its recorded dollars (null when a request with
   *  usage has no price); `unobserved`: its requests without usage. */
  recorded: { tokens: number | null; refetchTokens: number; usd: number | null; unobserved: number };
};

export type TaskTotals = {
  tasks: number;
  tokens: number;
  refetchTokens: number;
  usd: number | null;
  /** Means per task. */
  tokensPerTask: number;
  tokensPerTaskWithoutRefetch: number;
};

/** Tokens per task of one preset's replay, or of the recording (preset-tasks.ts). */
export type PresetTaskRow = TaskTotals & {
  /** A preset id, or `recording` (the log as it was: observed tokens and the agent's own re-fetches). */
  preset: string;
  /** How its tokens were known: observed usage, or the replay's calibrated estimate. */
  basis: 'observed' | 'estimated';
};

export type PresetTaskTable = { rows: PresetTaskRow[]; summarizer: string };

function addUsd(a: number | null, b: number | null | undefined): number | null {
  return b === null || b === undefined ? a : (a ?? 0) + b;
}

/** A task's typed message: its index and text (whitespace folded). */
export type TaskStart = { mi: number; text: string };

/** Typed-message starts of a thread's tasks (depend on the thread alone: the audit's memo keeps them). */
export function taskStarts(thread: Thread): TaskStart[] {
  const out: TaskStart[] = [];
  for (const m of thread.messages) {
    const t = instructionText(m);
    if (t !== null) out.push({ mi: m.index, text: t.replace(/\s+/g, ' ') });
  }
  return out;
}

/** Re-fetched results by thread, then by the repeat's tool_use id (in the order first met: a thread's sums add them in
 *  that order). Keyed by the parsed ids themselves: a run meets tens of thousands of re-fetches, and a joined
 *  `thread + id` key a run made new for each cost more than the rest of the work. */
type RefetchedByThread = Map<string, Map<string, Refetched>>;

const newRefetched = (): Map<string, Refetched> => new Map();

/** Re-fetches caused by loss: the agent's (after its compactions) and the run's (after the pipeline's rewrites). */
export function lossRefetches(
  found: readonly Refetch[],
  foundUsd: readonly (number | null)[],
  compactions: readonly CompactionFacts[],
  after: readonly RefetchesAfter[],
): { agent: RefetchedByThread; run: RefetchedByThread } {
  const agent: RefetchedByThread = new Map();
  const run: RefetchedByThread = new Map();
  for (let i = 0; i < found.length; i++) {
    const f = found[i];
    if (f.kind !== 'after-agent-compaction' && f.kind !== 'after-pipeline') continue;
    const x = {
      thread: f.thread,
      toolUseId: f.repeatToolUseId,
      messageIndex: f.repeatMessageIndex,
      tokens: f.tokens,
      usd: foundUsd[i] ?? null,
    };
    if (f.kind === 'after-agent-compaction') getOrInsert(agent, f.thread, newRefetched).set(x.toolUseId, x);
    getOrInsert(run, f.thread, newRefetched).set(x.toolUseId, x);
  }
  for (let i = 0; i < compactions.length; i++) {
    const items = after[i]?.items;
    if (!items || items.length === 0) continue;
    const c = compactions[i];
    const inRun = getOrInsert(run, c.thread, newRefetched);
    const inAgent = c.source === 'agent' ? getOrInsert(agent, c.thread, newRefetched) : undefined;
    for (const it of items) {
      const x = {
        thread: c.thread,
        toolUseId: it.toolUseId,
        messageIndex: it.messageIndex,
        tokens: it.tokens,
        usd: it.usd,
      };
      if (inAgent && !inAgent.has(it.toolUseId)) inAgent.set(it.toolUseId, x);
      if (!inRun.has(it.toolUseId)) inRun.set(it.toolUseId, x);
    }
  }
  return { agent, run };
}

/** The tasks of every thread with their tokens and dollars. `dollars`: the run's, one per request in replay order;
 *  `startsOf`: a thread's taskStarts (kept by the caller). */
export function taskRows(
  t: Transcript,
  replay: Replay,
  dollars: readonly RequestDollars[],
  refetched: { agent: RefetchedByThread; run: RefetchedByThread },
  startsOf: (thread: Thread) => readonly TaskStart[] = taskStarts,
): TaskRow[] {
  const rows: TaskRow[] = [];
  let k = 0;
  for (const [ti, tr] of replay.threads.entries()) {
    const thread = t.threads[ti];
    const starts = startsOf(thread);
    // The task a message belongs to: the last start at or before it (−1: before any).
    const ofMessage = (mi: number) => firstIndex(starts.length, (i) => starts[i].mi > mi) - 1;
    const byTask = new Map<number, TaskRow>();
    // Rows with a request that has no price (their dollars are unknown, not a partial sum).
    const unpriced = new Set<TaskRow>();
    const unrecorded = new Set<TaskRow>();
    for (const q of tr.requests) {
      const usd = dollars[k++];
      const req = thread.requests[q.index];
      const task = ofMessage((req?.inputEnd ?? 1) - 1);
      let row = byTask.get(task);
      if (!row) {
        const s = starts[task];
        row = {
          thread: thread.id,
          messageIndex: s ? s.mi : null,
          instruction: s
            ? runeCount(s.text) > 160
              ? `${headRunes(s.text, 160)}…`
              : s.text
            : '(before any typed request)',
          firstRequest: q.index,
          lastRequest: q.index,
          requests: 0,
          tokens: 0,
          refetchTokens: 0,
          usd: null,
          refetchUsd: null,
          recorded: { tokens: null, refetchTokens: 0, usd: null, unobserved: 0 },
        };
        byTask.set(task, row);
        rows.push(row);
      }
      row.lastRequest = q.index;
      row.requests++;
      const o = req?.observed;
      row.tokens += Math.round(q.estimateOut) + (o?.output ?? 0);
      row.usd = addUsd(row.usd, usd?.simulated);
      if (usd?.simulated === null || usd?.simulated === undefined) unpriced.add(row);
      if (o && (usd?.recorded === null || usd?.recorded === undefined)) unrecorded.add(row);
      if (o) row.recorded.tokens = (row.recorded.tokens ?? 0) + o.input + o.cacheRead + o.cacheWrite + o.output;
      else row.recorded.unobserved++;
      row.recorded.usd = addUsd(row.recorded.usd, usd?.recorded);
    }
    for (const row of unpriced) row.usd = null;
    for (const row of unrecorded) row.recorded.usd = null;
    // By thread, so placing them costs their number, not threads × re-fetches.
    const place = (list: ReadonlyMap<string, Refetched> | undefined, add: (row: TaskRow, r: Refetched) => void) => {
      for (const r of list?.values() ?? []) {
        const row = byTask.get(ofMessage(r.messageIndex));
        if (row) add(row, r);
      }
    };
    place(refetched.run.get(thread.id), (row, r) => {
      row.refetchTokens += r.tokens;
      row.refetchUsd = addUsd(row.refetchUsd, r.usd);
    });
    place(refetched.agent.get(thread.id), (row, r) => {
      row.recorded.refetchTokens += r.tokens;
    });
  }
  return rows;
}

/** Totals and means per task of this run's rows. */
export function taskTotals(rows: readonly TaskRow[]): TaskTotals {
  let tokens = 0;
  let refetchTokens = 0;
  let usd: number | null = null;
  for (const r of rows) {
    tokens += r.tokens;
    refetchTokens += r.refetchTokens;
    usd = addUsd(usd, r.usd);
  }
  const n = Math.max(1, rows.length);
  return {
    tasks: rows.length,
    tokens,
    refetchTokens,
    usd,
    tokensPerTask: Math.round(tokens / n),
    tokensPerTaskWithoutRefetch: Math.round((tokens - refetchTokens) / n),
  };
}
