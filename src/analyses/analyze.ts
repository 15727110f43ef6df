// One call that runs everything on a parsed transcript — replay, cache timelines, re-fetches — and
// assembles the SPEC §8 report. Shared by the CLI and the worker so both always agree. What is kept from one run
// to the next lives in the AnalysisCache the caller owns (the engine: one per loaded transcript and encoding).
import type { Transcript } from '../model/transcript.ts';
import type { Provider } from '../pairing/validate.ts';
import type { PipelineConfig } from '../pipeline/config.ts';
import { type Summarizer, summarizerFor } from '../pipeline/summarizer.ts';
import type { ReplayMode } from '../replay/inputs.ts';
import { type Replay, replayTranscript } from '../replay/transcript.ts';
import { TokenMeter } from '../tokens/meter.ts';
import type { Tokenizer } from '../tokens/tokenizer.ts';
import { AnalysisCache } from './cache.ts';
import { type ObservedPoint, observedTimeline, type SimulatedPoint, simulatedTimeline } from './cache-timeline.ts';
import { type Refetch, refetches } from './refetch.ts';
import { buildReport, type Report } from './report.ts';

export type AnalyzeOptions = {
  config: PipelineConfig;
  preset: string | null;
  mode: ReplayMode;
  provider: Provider;
  tokenizer: Tokenizer;
  /** The run cache of this transcript and tokenizer (a fresh one when absent: nothing is kept). */
  cache?: AnalysisCache;
  summarizer?: Summarizer;
  /** Copy rewrite events into the report's request rows (default true; the worker sends them apart). */
  reportEvents?: boolean;
  /** Build the report's per-request rows (default true; see ReportInput.rows). */
  reportRows?: boolean;
};

export type Analysis = {
  replay: Replay;
  observed: ObservedPoint[];
  simulated: SimulatedPoint[];
  refetches: Refetch[];
  report: Report;
};

/** A fresh run cache for `t` counted with `tokenizer`. */
export function newCache(t: Transcript, tokenizer: Tokenizer): AnalysisCache {
  return new AnalysisCache(t, new TokenMeter(tokenizer));
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
  const observed = observedTimeline(t, o.config, cache.timeline);
  const simulated = simulatedTimeline(t, replay, cache.timeline);
  const found = refetches(t, o.tokenizer, replay, cache.refetch);
  const report = buildReport({
    transcript: t,
    tokenizer: o.tokenizer,
    memo: cache.report,
    replay,
    observed,
    simulated,
    refetches: found,
    preset: o.preset,
    withEvents: o.reportEvents,
    rows: o.reportRows,
  });
  return { replay, observed, simulated, refetches: found, report };
}

/** The analysis's report with its per-request rows, made now if the run skipped them (reportRows false). */
export function withRows(
  t: Transcript,
  a: Analysis,
  o: Pick<AnalyzeOptions, 'tokenizer' | 'preset' | 'reportEvents'> & { cache: AnalysisCache },
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
    preset: o.preset,
    withEvents: o.reportEvents,
  });
  return a.report;
}
