// What the page shows of a run: totals, the self-check, cache findings, the chart's lines, the timeline with its
// breaks, which tiers and marks its tool results show (their rows are asked for by window: run-notes.ts), pairing,
// re-fetches, compactions and tasks, and why the pipeline stayed idle.
// Made here once from the analysis and its timeline; the engine adds only the run's id, time and pending calls.
import type { Analysis } from '../analyses/analyze.ts';
import { type IdleReason, idleReason, resultMessages } from '../analyses/idle-reason.ts';
import type { Refetch } from '../analyses/refetch.ts';
import type { Report } from '../analyses/report.ts';
import { madeOnRead } from '../lib/made-on-read.ts';
import type { Transcript } from '../model/transcript.ts';
import type { PairingViolation, Provider } from '../pairing/types.ts';
import { hardcapTokens, landingTokens, type PipelineConfig, triggerTokens } from '../pipeline/config.ts';
import type { PipelineEvent } from '../pipeline/stage.ts';
import type { ReplayMode } from '../replay/inputs.ts';
import type { RequestReplay } from '../replay/replay.ts';
import type { EncodingName } from '../tokens/encodings.ts';
import { type CompactionListRow, compactionListRow } from './compaction-list.ts';
import type { NoteKinds, RunNotes, SummaryOutputs } from './run-notes.ts';
import type { BreakRow, RunTimeline } from './timeline.ts';
import type { TimelineChunk } from './timeline-chunk.ts';
import { timelineChunks } from './timeline-columns.ts';

export type RunSettings = {
  preset: string;
  config: PipelineConfig;
  mode: ReplayMode;
  provider: Provider;
  encoding: EncodingName;
};

export type RunResult = {
  runId: number;
  stale?: false;
  ms: number;
  settings: RunSettings;
  totals: Report['totals'];
  /** The estimates against the billed prompts and the log's own totals (self-check.ts). */
  selfCheck: Report['selfCheck'];
  /** Recurring divergence points of observed cache breaks and advice with its dollars (report.cacheFindings). */
  cacheFindings: Report['cacheFindings'];
  calibration: Report['calibration'];
  lines: { window: number; trigger: number; landing: number; hardcap: number };
  /** The timeline's drawn fields in typed columns, by chunks of points (timeline-columns.ts), sent as bytes
   *  (timeline-bytes.ts); a point's other fields come from the engine's `point` call. */
  timeline: TimelineChunk[];
  /** Which tiers and marks the run's tool results show, and its result and event counts: the rows themselves are
   *  asked for by window (EngineApi.notes, projections/run-notes.ts). */
  notes: NoteKinds;
  /** The http summarizer's outputs (null with another summarizer). */
  summaries: SummaryOutputs | null;
  /** Every observed and simulated break of every thread, as the breaks table lists them. */
  breaks: BreakRow[];
  pairing: PairingViolation[];
  /** The re-fetches after the pipeline lost the first result: how many and their tokens (the trade-off's risk;
   *  the totals count every kind). The share dialog asks for the ones it names (`engine.refetchesOf`). */
  refetchRisk: { count: number; tokens: number };
  /** Every compaction audited (agent and pipeline), listed without its items (the open one is asked for whole:
   *  `engine.compaction(id)`), and tokens per task (SPEC §5.5, §8). */
  compactions: CompactionListRow[];
  tasks: Report['tasks'] & {};
  taskTotals: Report['taskTotals'] & {};
  /** Set when the http summarizer still has calls to make (the UI may fetch and re-run). */
  pendingSummaries: number;
  /** Why the pipeline rewrote nothing (tiers, clears, summaries, drops) and the what-ifs that make it act. */
  idle: IdleReason | null;
};

/** A re-fetch the share dialog offers (worker/engine/run.ts `refetchesOf`): one the pipeline or a compaction caused. */
export const listedRefetch = (f: Refetch): boolean =>
  f.kind === 'after-pipeline' || f.kind === 'after-agent-compaction';

function refetchRisk(all: readonly Refetch[]): RunResult['refetchRisk'] {
  let count = 0;
  let tokens = 0;
  for (const f of all)
    if (f.kind === 'after-pipeline') {
      count++;
      tokens += f.tokens;
    }
  return { count, tokens };
}

/** The pairing violations of every request, in replay order. */
function pairingOf(analysis: Analysis): PairingViolation[] {
  const out: PairingViolation[] = [];
  for (const tr of analysis.replay.threads) for (const q of tr.requests) for (const v of q.pairing) out.push(v);
  return out;
}

/** Every replayed request, made as the idle reason reads them (it reads none once a lossy stage acted). */
function* requestsOf(analysis: Analysis): Generator<RequestReplay> {
  for (const tr of analysis.replay.threads) yield* tr.requests;
}

function* stagesOf(events: readonly PipelineEvent[]): Generator<string> {
  for (const e of events) yield e.stage;
}

export type RunFacts = { runId: number; ms: number; settings: RunSettings; pendingSummaries: number };

/** The run result of `analysis` (of `t`) with its timeline, as the page draws it. Its `timeline` is made on first
 *  read (lib/made-on-read.ts): the worker's wire writes it item by item without making the array. Its tool-result
 *  and event rows stay in the worker (`notes`), asked for by window. */
export function runResult(
  t: Transcript,
  analysis: Analysis,
  shown: RunTimeline,
  run: RunFacts,
  notes: RunNotes,
): RunResult {
  const report = analysis.report;
  const c = run.settings.config;
  const { timeline, breaks } = shown;
  const result: RunResult = {
    runId: run.runId,
    ms: run.ms,
    settings: run.settings,
    totals: report.totals,
    selfCheck: report.selfCheck,
    cacheFindings: report.cacheFindings,
    calibration: report.calibration,
    lines: { window: c.contextWindow, trigger: triggerTokens(c), landing: landingTokens(c), hardcap: hardcapTokens(c) },
    timeline: [],
    notes: notes.kinds(),
    summaries: c.summarizer === 'http' ? notes.summaries() : null,
    breaks,
    pairing: pairingOf(analysis),
    refetchRisk: refetchRisk(report.refetches),
    compactions: analysis.audit.compactions.map(compactionListRow),
    tasks: analysis.audit.tasks,
    taskTotals: analysis.audit.taskTotals,
    pendingSummaries: run.pendingSummaries,
    idle: idleReason({
      config: c,
      mode: run.settings.mode,
      requests: requestsOf(analysis),
      eventStages: stagesOf(shown.full),
      agentCompactions: analysis.audit.compactions.filter((r) => r.source === 'agent'),
      resultMessages: () => resultMessages(t),
    }),
  };
  madeOnRead(result, 'timeline', timelineChunks(timeline));
  return result;
}
