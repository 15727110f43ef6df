// One call that runs everything on a parsed transcript — replay, cache timelines, re-fetches, dollars — and
// assembles the SPEC §8 report. Shared by the CLI and the worker so both always agree. What is kept from one run
// to the next lives in the RunMemo the caller owns (the engine: one per loaded transcript and encoding).
import type { Transcript } from '../model/transcript.ts';
import type { Provider } from '../pairing/validate.ts';
import type { PipelineConfig } from '../pipeline/config.ts';
import { presetConfig } from '../pipeline/presets.ts';
import { type Summarizer, summarizerFor } from '../pipeline/summarizer.ts';
import type { ReplayMode } from '../replay/inputs.ts';
import { calibrateTranscript, type Replay, replayTranscript } from '../replay/transcript.ts';
import { TokenMeter } from '../tokens/meter.ts';
import type { Tokenizer } from '../tokens/tokenizer.ts';
import { auditRun, type RunAudit } from './audit.ts';
import { type ObservedPoint, observedTimeline, type SimulatedPoint, simulatedTimeline } from './cache-timeline.ts';
import type { CostTotals } from './cost.ts';
import { type Refetch, refetches } from './refetch.ts';
import { buildReport, type Report } from './report.ts';
import { type RunCost, runCost } from './run-cost.ts';
import { RunMemo } from './run-memo.ts';
import { simulatedCost } from './simulated-cost.ts';

export type AnalyzeOptions = {
  config: PipelineConfig;
  preset: string | null;
  mode: ReplayMode;
  provider: Provider;
  tokenizer: Tokenizer;
  /** The run cache of this transcript and tokenizer (a fresh one when absent: nothing is kept). */
  cache?: RunMemo;
  summarizer?: Summarizer;
  /** Copy rewrite events into the report's request rows (default true; the worker sends them apart). */
  reportEvents?: boolean;
  /** Build the report's per-request rows (default true; see ReportInput.rows). */
  reportRows?: boolean;
  /** Price the recorded inputs without the pipeline, which the preset's saving is measured against (one more
   *  replay, kept in the cache per `withoutPipelineKey`); absent, the report has none (the minimizer's runs). */
  withoutPipeline?: boolean;
};

export type Analysis = {
  replay: Replay;
  observed: ObservedPoint[];
  simulated: SimulatedPoint[];
  refetches: Refetch[];
  /** The run's dollars (recorded, simulated, per request, TTL-break advice, re-fetches). */
  cost: RunCost;
  /** Every compaction audited and tokens per task (audit.ts); the report carries its rows. */
  audit: RunAudit;
  report: Report;
};

/** A fresh run cache for `t` counted with `tokenizer`. */
export function newCache(t: Transcript, tokenizer: Tokenizer): RunMemo {
  return new RunMemo(t, new TokenMeter(tokenizer));
}

export function analyze(t: Transcript, o: AnalyzeOptions): Analysis {
  const cache = o.cache ?? newCache(t, o.tokenizer);
  if (cache.transcript !== t) throw new Error('the run cache belongs to another transcript');
  const replay = replayTranscript(
    t,
    {
      config: o.config,
      mode: o.mode,
      provider: o.provider,
      summarizer: o.summarizer ?? summarizerFor(o.config.summarizer),
    },
    cache,
  );
  const observed = observedTimeline(t, o.config, cache.timeline, {
    meter: cache.meter,
    calibrations: cache.calibrations(calibrateTranscript),
  });
  const simulated = simulatedTimeline(t, replay, cache.timeline);
  const found = refetches(t, o.tokenizer, replay, cache.refetch);
  const cost = runCost(t, replay, observed, simulated, found, cache.cost);
  if (o.withoutPipeline) cost.report.withoutPipeline = costWithoutPipeline(t, o, cache);
  const report = buildReport({
    transcript: t,
    tokenizer: o.tokenizer,
    memo: cache.report,
    replay,
    observed,
    simulated,
    refetches: found,
    cost,
    preset: o.preset,
    withEvents: o.reportEvents,
    rows: o.reportRows,
  });
  const audit = auditOf(t, o, replay, found, cost, cache);
  report.compactions = audit.compactions;
  report.tasks = audit.tasks;
  report.taskTotals = audit.taskTotals;
  return { replay, observed, simulated, refetches: found, cost, audit, report };
}

function auditOf(t: Transcript, o: AnalyzeOptions, replay: Replay, found: Refetch[], cost: RunCost, c: RunMemo) {
  return auditRun({
    transcript: t,
    tokenizer: o.tokenizer,
    replay,
    refetches: found,
    refetchRows: c.refetch.firstRows.get(found),
    refetchUsd: cost.refetchUsd,
    dollars: cost.byPoint,
    memo: c.audit,
    after: c.compactionAfter,
    cost: c.cost,
  });
}

/** The settings the cost without the pipeline depends on: a kept value was made with the same. Not the window:
 *  with every stage off (`none`) nothing reads it, so dragging the window reuses this replay. */
function withoutPipelineKey(o: Pick<AnalyzeOptions, 'config' | 'mode' | 'provider'>): string {
  const c = o.config;
  return JSON.stringify([o.mode, o.provider, c.cache, c.prices]);
}

/** The recorded inputs replayed without rewriting (the `none` preset, same window, cache rules and prices),
 *  priced under the same simulated cache: the preset's saving is this minus the run's simulated cost. Its totals
 *  are kept in the run cache (a threshold drag does not change them), the replay itself is not: the run's own
 *  replays stay the ones the next run may reuse, and a big log holds one replay, not two. */
function costWithoutPipeline(t: Transcript, o: AnalyzeOptions, cache: RunMemo): CostTotals {
  const key = withoutPipelineKey(o);
  const kept = cache.withoutPipeline.get(key);
  if (kept) return kept;
  const c = o.config;
  const config = { ...presetConfig('none'), cache: c.cache, prices: c.prices };
  const replay = replayTranscript(
    t,
    { config, mode: o.mode, provider: o.provider, summarizer: summarizerFor('extractive') },
    cache,
    false,
  );
  const totals = simulatedCost(t, replay, simulatedTimeline(t, replay, cache.timeline), cache.cost).totals;
  cache.withoutPipeline.set(key, totals);
  return totals;
}

/** The analysis's report with its per-request rows, made now if the run skipped them (reportRows false). */
export function withRows(
  t: Transcript,
  a: Analysis,
  o: Pick<AnalyzeOptions, 'tokenizer' | 'preset' | 'reportEvents'> & { cache: RunMemo },
): Report {
  if (a.report.requests.length > 0 || a.replay.threads.every((tr) => tr.requests.length === 0)) return a.report;
  a.report = buildReport({
    transcript: t,
    tokenizer: o.tokenizer,
    memo: o.cache.report,
    replay: a.replay,
    observed: a.observed,
    simulated: a.simulated,
    refetches: a.refetches,
    cost: a.cost,
    preset: o.preset,
    withEvents: o.reportEvents,
  });
  a.report.compactions = a.audit.compactions;
  a.report.tasks = a.audit.tasks;
  a.report.taskTotals = a.audit.taskTotals;
  return a.report;
}
