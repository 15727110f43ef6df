// The one cache the engine owns per loaded transcript and encoding (dropped on the next load) and passes to the
// replay and the analyses: the replay's and the pipeline's memos (ReplayCache, PipelineMemo) and the analyses'
// (report rows, re-fetch repeats, timeline schedule). Every run-to-run memo is a named field of one of these,
// documented where it is defined; nothing in the pure layers keeps state at module level (test/architecture).
import type { Message, Transcript } from '../model/transcript.ts';
import { ReplayCache } from '../replay/cache.ts';
import type { Calibration } from '../tokens/calibration.ts';
import type { TokenMeter } from '../tokens/meter.ts';
import { TimelineMemo } from './cache-timeline.ts';
import { AuditMemo } from './compaction-audit.ts';
import type { AfterMemo } from './compaction-refetch.ts';
import { CostMemo, type CostTotals } from './cost.ts';
import { RefetchMemo } from './refetch.ts';
import { ReportMemo } from './report.ts';
import type { PresetTaskTable } from './tasks.ts';

export class RunMemo extends ReplayCache {
  readonly report: ReportMemo;
  readonly refetch: RefetchMemo;
  readonly timeline = new TimelineMemo();
  /** The agent's compactions audited per thread, the pipeline's per thread replay (compaction-audit.ts). */
  readonly audit: AuditMemo;
  /** Compaction row → its re-fetches after, priced under the last price settings (compaction-refetch.ts
   *  AfterMemo): a drag that re-runs one thread re-counts only that thread's compactions. Bound: the rows alive. */
  readonly compactionAfter: AfterMemo;
  /** Message → its one-line preview in the transcript's rows (projections/rows.ts; depends on the message
   *  alone). Bound: the messages alive. */
  readonly previews: WeakMap<Message, string>;
  /** Price lookups and the recorded cost (cost.ts). */
  readonly cost: CostMemo;
  /** withoutPipelineKey → the simulated cost of the recorded inputs without the pipeline (analyze.ts): it
   *  depends on the mode, provider, cache rules and prices, not on the window or the thresholds a drag moves.
   *  Bound: one per key. */
  readonly withoutPipeline = new Map<string, CostTotals>();
  /** presetTasksKey (mode, provider, window, reserve, cache rules, prices) → tokens per task of the recording and
   *  every preset (preset-tasks.ts): made on demand, independent of the thresholds a drag moves. Bound: one per key. */
  readonly presetTasks = new Map<string, PresetTaskTable>();

  /** `from`: the cache of an earlier read of a followed session, when carries(from, transcript) (replay/cache.ts):
   *  the memos keyed on threads, replays, rows and messages are kept; those of the whole transcript (timelines,
   *  recorded cost, report counts and static rows, calibrations, the two per-key totals) start over. */
  constructor(transcript: Transcript, meter: TokenMeter, calibrations?: Map<string, Calibration>, from?: RunMemo) {
    super(transcript, meter, calibrations, from);
    this.report = new ReportMemo(from?.report);
    this.refetch = from?.refetch ?? new RefetchMemo();
    this.audit = from?.audit ?? new AuditMemo(this.pipeline.contributions, this.pipeline.summarySections);
    this.compactionAfter = from?.compactionAfter ?? new WeakMap();
    this.cost = new CostMemo(from?.cost.pricings);
    this.previews = from?.previews ?? new WeakMap();
  }
}
