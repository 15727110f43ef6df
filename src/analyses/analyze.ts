// One call that runs everything on a parsed transcript — replay, cache timelines, re-fetches — and
// assembles the SPEC §8 report. Shared by the CLI and the worker so both always agree.
import type { Transcript } from '../model/transcript.ts';
import type { PipelineConfig } from '../pipeline/config.ts';
import { presetConfig } from '../pipeline/presets.ts';
import { type Summarizer, summarizerFor } from '../pipeline/summarizer.ts';
import type { ReplayMode } from '../replay/inputs.ts';
import { type Replay, replayTranscript } from '../replay/transcript.ts';
import type { Calibration } from '../tokens/calibration.ts';
import { TokenMeter } from '../tokens/meter.ts';
import type { Tokenizer } from '../tokens/tokenizer.ts';
import { type ObservedPoint, observedTimeline, type SimulatedPoint, simulatedTimeline } from './cache-timeline.ts';
import type { CostTotals } from './cost.ts';
import type { Provider } from './pairing.ts';
import { type Refetch, refetches } from './refetch.ts';
import { buildReport, type Report } from './report.ts';
import { type RunCost, runCost } from './run-cost.ts';
import { simulatedCost } from './simulated-cost.ts';

export type AnalyzeOptions = {
  config: PipelineConfig;
  preset: string | null;
  mode: ReplayMode;
  provider: Provider;
  tokenizer: Tokenizer;
  /** Reuse a meter across runs (identity caches survive re-runs). */
  meter?: TokenMeter;
  summarizer?: Summarizer;
  calibrations?: Map<string, Calibration>;
  /** Copy rewrite events into the report's request rows (default true; the worker sends them apart). */
  reportEvents?: boolean;
  /** Build the report's per-request rows (default true; see ReportInput.rows). */
  reportRows?: boolean;
  /** The simulated cost of the recorded inputs without the pipeline, which the preset's saving is measured
   *  against: `true` computes it (one more replay), a value reuses one computed for the same `withoutPipelineKey`;
   *  absent, the report has none (the minimizer's many runs). */
  withoutPipeline?: true | CostTotals;
};

export type Analysis = {
  replay: Replay;
  observed: ObservedPoint[];
  simulated: SimulatedPoint[];
  refetches: Refetch[];
  /** The run's dollars (recorded, simulated, per request, TTL-break advice, re-fetches). */
  cost: RunCost;
  report: Report;
};

export function analyze(t: Transcript, o: AnalyzeOptions): Analysis {
  const meter = o.meter ?? new TokenMeter(o.tokenizer);
  const replay = replayTranscript(
    t,
    {
      config: o.config,
      mode: o.mode,
      provider: o.provider,
      meter,
      summarizer: o.summarizer ?? summarizerFor(o.config.summarizer),
    },
    o.calibrations,
  );
  const observed = observedTimeline(t, o.config);
  const simulated = simulatedTimeline(t, replay);
  const found = refetches(t, o.tokenizer, replay);
  const cost = runCost(t, replay, observed, simulated, found);
  if (o.withoutPipeline)
    cost.report.withoutPipeline = o.withoutPipeline === true ? costWithoutPipeline(t, o, meter) : o.withoutPipeline;
  const report = buildReport({
    transcript: t,
    tokenizer: o.tokenizer,
    replay,
    observed,
    simulated,
    refetches: found,
    cost,
    preset: o.preset,
    withEvents: o.reportEvents,
    rows: o.reportRows,
  });
  return { replay, observed, simulated, refetches: found, cost, report };
}

/** The settings the cost without the pipeline depends on: a reused value must have been made with the same. */
export function withoutPipelineKey(o: Pick<AnalyzeOptions, 'config' | 'mode' | 'provider'>, encoding: string): string {
  const c = o.config;
  return JSON.stringify([o.mode, o.provider, encoding, c.contextWindow, c.outputReserve, c.cache, c.prices]);
}

/** The recorded inputs replayed without rewriting (the `none` preset, same window, cache rules and prices),
 *  priced under the same simulated cache: the preset's saving is this minus the run's simulated cost. */
function costWithoutPipeline(t: Transcript, o: AnalyzeOptions, meter: TokenMeter): CostTotals {
  const c = o.config;
  const config = {
    ...presetConfig('none'),
    contextWindow: c.contextWindow,
    outputReserve: c.outputReserve,
    cache: c.cache,
    prices: c.prices,
  };
  const replay = replayTranscript(
    t,
    { config, mode: o.mode, provider: o.provider, meter, summarizer: summarizerFor('extractive') },
    o.calibrations,
  );
  return simulatedCost(t, replay, simulatedTimeline(t, replay)).totals;
}

/** The analysis's report with its per-request rows, made now if the run skipped them (reportRows false). */
export function withRows(
  t: Transcript,
  a: Analysis,
  o: Pick<AnalyzeOptions, 'tokenizer' | 'preset' | 'reportEvents'>,
): Report {
  if (a.report.requests.length > 0 || a.replay.threads.every((tr) => tr.requests.length === 0)) return a.report;
  a.report = buildReport({
    transcript: t,
    tokenizer: o.tokenizer,
    replay: a.replay,
    observed: a.observed,
    simulated: a.simulated,
    refetches: a.refetches,
    cost: a.cost,
    preset: o.preset,
    withEvents: o.reportEvents,
  });
  return a.report;
}
