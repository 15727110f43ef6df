// The compaction audit of one run (issue 17, SPEC §8 `compactions` and `tasks`): every compaction with its probes
// and the re-fetches that followed, and tokens per task with and without re-fetches. analyze.ts calls it once per
// run; the worker keeps the texts (summaries, ledgers) for the compaction view and sends the rows.
import { getOrInsert } from '../lib/maps.ts';
import type { Transcript } from '../model/transcript.ts';
import type { Replay } from '../replay/transcript.ts';
import type { Tokenizer } from '../tokens/tokenizer.ts';
import { cacheApiOf } from './cache-settings.ts';
import {
  type AuditedCompaction,
  type AuditMemo,
  auditCompactions,
  auditedRow,
  type CompactionTexts,
} from './compaction-audit.ts';
import { type AfterMemo, type RefetchesAfter, refetchesAfter } from './compaction-refetch.ts';
import type { CostMemo } from './cost.ts';
import type { Refetch } from './refetch.ts';
import type { RequestDollars } from './run-cost.ts';
import { lossRefetches, type TaskRow, type TaskTotals, taskRows, taskStarts, taskTotals } from './tasks.ts';
import { priceBook, refetchPricer } from './trade-off-cost.ts';

/** A compaction as the report has it: the audit and its after-effects. */
export type CompactionRow = AuditedCompaction & { refetchesAfter: RefetchesAfter };

export type RunAudit = {
  compactions: CompactionRow[];
  /** By compaction id: the summary, Tierscope's anchored summary and the ledger (the compaction view). */
  texts: Map<string, CompactionTexts>;
  tasks: TaskRow[];
  taskTotals: TaskTotals;
};

export type AuditInput = {
  transcript: Transcript;
  tokenizer: Tokenizer;
  replay: Replay;
  refetches: readonly Refetch[];
  /** By re-fetch, its first call's result's row in its thread's fates (RefetchMemo.firstRows), if kept. */
  refetchRows?: Int32Array;
  /** The run's dollars of each re-fetch (run-cost.ts refetchUsd) and of each request in replay order. */
  refetchUsd: readonly (number | null)[];
  dollars: readonly RequestDollars[];
  memo: AuditMemo;
  /** Each compaction's after-effects kept from earlier runs (the engine's RunMemo; none: a fresh one). */
  after?: AfterMemo;
  cost?: CostMemo;
};

export function auditRun(x: AuditInput): RunAudit {
  const { transcript: t, replay } = x;
  const audited = auditCompactions(t, x.tokenizer, replay.threads, x.memo);
  const cfg = replay.options.config;
  const book = priceBook(cfg, x.cost);
  const api = cacheApiOf(replay.options.provider);
  const rows = audited.map((a) => a.row);
  const priceKey = JSON.stringify([replay.options.provider, cfg.cache, cfg.prices]);
  const pricer = refetchPricer(t, cfg, api, book);
  const after = refetchesAfter(
    t,
    x.tokenizer,
    rows,
    replay.threads,
    x.refetches,
    pricer,
    x.after,
    priceKey,
    x.refetchRows,
  );
  const compactions = audited.map((a, i) => auditedRow(a, after[i]));
  const loss = lossRefetches(x.refetches, x.refetchUsd, rows, after);
  const tasks = taskRows(t, replay, x.dollars, loss, (th) => getOrInsert(x.memo.taskStarts, th, () => taskStarts(th)));
  return {
    compactions,
    texts: new Map(audited.map((a) => [a.row.id, a.texts])),
    tasks,
    taskTotals: taskTotals(tasks),
  };
}
