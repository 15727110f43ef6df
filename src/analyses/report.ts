// The machine-readable report of SPEC §8, assembled from a parsed transcript, its replay and the
// analyses. The CLI prints it with --json; the worker sends the same rows to the UI. Field meanings
// follow SPEC §8 (`tier` 1/2 at first touch, 3 if tiering only ran while it sat in the window, null if
// tiering never ran while it existed; `finalChars` = its size in the last request that carries it).
import { type Items, madeOnRead } from '../lib/made-on-read.ts';
import { runeCount } from '../lib/runes.ts';
import { firstIndex } from '../lib/search.ts';
import { sourceFormat } from '../model/source-format.ts';
import type { Block, ObservedUsage, ParseIssue, Thread, Transcript } from '../model/transcript.ts';
import type { PairingViolation } from '../pairing/validate.ts';
import type { ResultFates } from '../pipeline/fates.ts';
import type { PipelineEvent } from '../pipeline/stage.ts';
import type { Replay } from '../replay/transcript.ts';
import { resultText } from '../tokens/block-text.ts';
import type { EstimateBasis, RequestEstimate } from '../tokens/calibration.ts';
import type { Tokenizer } from '../tokens/tokenizer.ts';
import type { CompactionRow } from './audit.ts';
import type { Divergence } from './cache-divergence.ts';
import { type BreakRecord, type CacheFindings, cacheFindings } from './cache-patterns.ts';
import type { BreakInfo, ObservedPoint, SimulatedPoint } from './cache-timeline.ts';
import type { CostReport } from './cost.ts';
import { type Counts, transcriptCounts } from './counts.ts';
import { type BilledTokens, billedTokens, REPORT_FIGURES } from './figures.ts';
import type { Refetch } from './refetch.ts';
import type { RequestDollars, RunCost } from './run-cost.ts';
import { costCheck, type SelfCheck, SelfCheckTally } from './self-check.ts';
import type { SettingsOrigin } from './settings-origin.ts';
import type { TaskRow, TaskTotals } from './tasks.ts';
import { indexToolCalls } from './tool-index.ts';

export type ToolResultRow = {
  thread: string;
  toolUseId: string;
  tool: string;
  messageIndex: number;
  chars: number;
  tokens: number;
  isError: boolean;
  tier: 1 | 2 | 3 | null;
  firstTouchRequest: number | null;
  distanceAtFirstTouch: number | null;
  floor: boolean;
  spilled: boolean;
  summarized: boolean;
  cleared: boolean;
  inSummary: boolean;
  dropped: boolean;
  /** The request whose hard cap dropped it (null: never dropped). */
  droppedAt: number | null;
  finalChars: number;
};

type ReportEvent = Omit<PipelineEvent, 'before' | 'after' | 'thread' | 'request'>;

export type RequestRow = {
  thread: string;
  index: number;
  model: string | null;
  /** Counted input tokens as recorded, and after the replayed pipeline (input, not the model's output). */
  tokensIn: number;
  tokensAfterPipeline: number;
  /** Calibrated estimates of the same. */
  estimateIn: number;
  estimateAfterPipeline: number;
  /** How estimateIn was made (calibration.ts): its basis, the request whose usage anchors it, and why it
   *  misses the observed prompt by more than 3% when it does. */
  estimate: { basis: EstimateBasis; anchor: number | null; note: string | null };
  /** The usage the log recorded for this request (observed), output included. */
  observed: (Omit<ObservedUsage, 'cacheWrite1h'> & { cacheWrite1h: number }) | null;
  simulated: { cacheRead: number; cacheWrite: number };
  /** Dollars: recorded = observed usage at list prices, simulated = the simulated cache (estimate); null: no usage
   *  or no price. */
  costUsd: { recorded: number | null; simulated: number | null };
  events: ReportEvent[];
  cacheBreak:
    | (Pick<BreakInfo, 'cause' | 'tokensLost' | 'detail'> & {
        messageIndex: number | null;
        /** Indices into this request's `events` of the rewrites inside the old prefix that caused it. */
        events: number[];
        /** ttl-expired: what a 1-hour cache write would have cost more and saved. */
        oneHourWrite?: RequestDollars['simulatedOneHour'];
        /** Dollars of writing the lost tokens again instead of reading them (estimate at list prices; null: no
         *  price). */
        usd: number | null;
      })
    | null;
  observedBreak:
    | (Pick<BreakInfo, 'cause' | 'tokensLost' | 'detail'> & {
        /** Where the cached prefix ended (SPEC §8): the message and block at the observed read, its estimated
         *  uncertainty; null when the input could not be placed (no calibration). */
        divergence: ObservedDivergence | null;
        /** Checkable statements the cause rests on (source lines, gaps, tokens at the divergence point). */
        evidence: string[];
        /** Dollars of re-writing the lost tokens instead of reading them (estimate at list prices; null: no price). */
        usd: number | null;
        oneHourWrite?: RequestDollars['observedOneHour'];
      })
    | null;
};

type Totals = {
  /** Billed tokens (every billed response once, split as the bill is); null when the log records no usage. */
  billed: BilledTokens | null;
  /** Counted: Tierscope's tokenizer over the recorded inputs, and after the pipeline (figures.ts). */
  tokensIn: number;
  tokensAfterPipeline: number;
  tokensSaved: number;
  observed: { prompt: number; cacheRead: number; cacheWrite: number; hitRate: number | null } | null;
  simulated: { prompt: number; cacheRead: number; cacheWrite: number; hitRate: number };
  /** Dollars (SPEC §8): recorded (observed usage), simulated (estimate), and the price list behind them. */
  cost: CostReport;
  /** Estimated dollars of the results re-fetched after the pipeline had dropped them (null: none priced). */
  refetchAfterPipelineUsd: number | null;
  pairingErrors: number;
  pairingWarnings: number;
  refetches: number;
  refetchesAfterPipeline: number;
  refetchTokens: number;
  cacheBreaksObserved: number;
  cacheBreaksSimulated: number;
};

export function estimateRow(e: RequestEstimate | undefined): RequestRow['estimate'] {
  return { basis: e?.basis ?? 'none', anchor: e?.anchor ?? null, note: e?.note ?? null };
}

export type Report = {
  format: string;
  parseIssues: Pick<ParseIssue, 'line' | 'message' | 'severity'>[];
  counts: Counts;
  settings: { preset: string | null; mode: string; provider: string; summarizer: string };
  calibration: { thread: string; factor: number; prefixTokens: number; prefixSource: string; samples: number }[];
  pairing: Omit<PairingViolation, 'provider'>[];
  toolResults: ToolResultRow[];
  requests: RequestRow[];
  refetches: Refetch[];
  totals: Totals;
  /** Observed cache breaks that recur at one divergence point, and advice with its dollar effect (issue 16). */
  cacheFindings: CacheFindings;
  /** Where the provider and the context window came from (the log's defaults or a choice); set by the CLI. */
  defaults?: SettingsOrigin;
  /** Which figure is billed, counted or estimated (figures.ts). */
  figures: typeof REPORT_FIGURES;
  /** How far the estimates are from the billed prompts, and whether the billed responses add up to the log's own
   *  totals (self-check.ts). */
  selfCheck: SelfCheck;
  /** Every compaction audited, and tokens per task (audit.ts); set by analyze.ts. */
  compactions?: CompactionRow[];
  tasks?: TaskRow[];
  taskTotals?: TaskTotals;
};

type StaticRow = Pick<ToolResultRow, 'thread' | 'toolUseId' | 'tool' | 'messageIndex' | 'chars' | 'tokens' | 'isError'>;

/** What the report keeps from one run to the next of one transcript and tokenizer (the engine's RunMemo). */
export class ReportMemo {
  /** Thread → the sizes of every tool result (they do not change between runs). Bound: one list per thread. */
  readonly staticRows: WeakMap<Thread, StaticRow[]>;
  /** Tool result block → its text's runes and tokens (a followed session's growth reads every result again).
   *  Bound: the result blocks alive. */
  readonly resultSizes: WeakMap<Block, { chars: number; tokens: number }>;
  /** The transcript's counts, and its billed tokens (null: no usage). */
  counts: Counts | undefined;
  billed: BilledTokens | null | undefined;
  /** `from`: the memo of an earlier read of a followed session; what is keyed on threads, blocks and replays is
   *  kept (the counts are the whole transcript's). */
  constructor(from?: ReportMemo) {
    this.staticRows = from?.staticRows ?? new WeakMap();
    this.resultSizes = from?.resultSizes ?? new WeakMap();
  }
}

function staticRowsOf(th: Thread, tok: Tokenizer, memo: ReportMemo): StaticRow[] {
  let out = memo.staticRows.get(th);
  if (!out) {
    const calls = indexToolCalls(th.messages);
    const seen = new Set<string>();
    out = [];
    for (const m of th.messages) {
      for (const b of m.blocks) {
        if (b.type !== 'tool_result' || seen.has(b.toolUseId)) continue;
        seen.add(b.toolUseId);
        let size = memo.resultSizes.get(b);
        if (!size) {
          const text = resultText(b);
          size = { chars: runeCount(text), tokens: tok.count(text) };
          memo.resultSizes.set(b, size);
        }
        out.push({
          thread: th.id,
          toolUseId: b.toolUseId,
          tool: calls.get(b.toolUseId)?.name ?? 'unknown',
          messageIndex: m.index,
          chars: size.chars,
          tokens: size.tokens,
          isError: b.isError,
        });
      }
    }
    memo.staticRows.set(th, out);
  }
  return out;
}

/** Per tool result: size, tokens, and what the pipeline did to it, each row made when asked (lib/made-on-read.ts):
 *  the run result's wire writes a row from the static rows and the fates' columns and drops it, so a run keeps no
 *  row objects (~5.5 MB a first-seen run of a 20k-request thread). `statics` of a thread are in the order of its
 *  fates' rows (a thread's results, first occurrence, thread order; checked by id, else looked up), so a row's fate
 *  is read by its place: no id looked up, no fate object made. */
class ToolResultRows implements Items<ToolResultRow> {
  readonly length: number;
  /** The first row of each thread, then the row count. */
  private readonly starts: number[] = [];
  private readonly statics: (readonly StaticRow[])[] = [];
  private readonly fates: (ResultFates | undefined)[] = [];

  constructor(t: Transcript, tok: Tokenizer, replay: Replay | undefined, memo: ReportMemo) {
    let n = 0;
    for (const [ti, th] of t.threads.entries()) {
      const statics = staticRowsOf(th, tok, memo);
      this.starts.push(n);
      this.statics.push(statics);
      this.fates.push(replay?.threads[ti]?.fates);
      n += statics.length;
    }
    this.length = n;
    this.starts.push(n);
  }

  at(i: number): ToolResultRow {
    const { starts } = this;
    const ti = firstIndex(starts.length - 1, (x) => starts[x] > i) - 1;
    return resultRow(this.statics[ti], i - starts[ti], this.fates[ti]);
  }

  toArray(): ToolResultRow[] {
    const rows: ToolResultRow[] = [];
    for (const [ti, statics] of this.statics.entries())
      for (let k = 0; k < statics.length; k++) rows.push(resultRow(statics, k, this.fates[ti]));
    return rows;
  }

  /** Which tiers and marks the rows show (the legend's), read from the columns without making a row. */
  marks(): ResultMarks {
    const m = new MarksTally();
    for (const [ti, statics] of this.statics.entries()) {
      const f = this.fates[ti];
      for (let k = 0; k < statics.length; k++) {
        const s = statics[k];
        const i = f ? f.rowOf(s.toolUseId, k) : -1;
        if (!f || i < 0) m.add(null, false, false, false, false, s.isError);
        else m.add(f.tier(i), f.spilled(i), f.cleared(i), f.foldedAt(i) !== null, f.droppedAt(i) !== null, s.isError);
      }
    }
    return m.marks();
  }
}

/** Which tiers and marks a run's tool-result rows show (`inSummary` is `summarised`, `isError` is `error`). */
export type ResultMarks = {
  tiers: (1 | 2 | 3)[];
  spilled: boolean;
  cleared: boolean;
  summarised: boolean;
  dropped: boolean;
  error: boolean;
};

/** Which tiers and marks occur, tallied one result at a time (from the fates' columns or from made rows). */
export class MarksTally {
  private readonly tiers = new Set<1 | 2 | 3>();
  private readonly flags = { spilled: false, cleared: false, summarised: false, dropped: false, error: false };

  add(
    tier: 1 | 2 | 3 | null,
    spilled: boolean,
    cleared: boolean,
    summarised: boolean,
    dropped: boolean,
    error: boolean,
  ) {
    if (tier !== null) this.tiers.add(tier);
    const f = this.flags;
    f.spilled ||= spilled;
    f.cleared ||= cleared;
    f.summarised ||= summarised;
    f.dropped ||= dropped;
    f.error ||= error;
  }

  /** A made row's marks (`inSummary` is `summarised`). */
  addRow(r: ToolResultRow): void {
    this.add(r.tier, r.spilled, r.cleared, r.inSummary, r.dropped, r.isError);
  }

  marks(): ResultMarks {
    return { tiers: [...this.tiers].sort(), ...this.flags };
  }
}

/** The row of a thread's `k`th result, with its fate (a result the replay has no fate for: never tiered, kept
 *  whole). */
function resultRow(statics: readonly StaticRow[], k: number, fates: ResultFates | undefined): ToolResultRow {
  const s = statics[k];
  const i = fates ? fates.rowOf(s.toolUseId, k) : -1;
  const f = i >= 0 ? fates : undefined;
  return {
    thread: s.thread,
    toolUseId: s.toolUseId,
    tool: s.tool,
    messageIndex: s.messageIndex,
    chars: s.chars,
    tokens: s.tokens,
    isError: s.isError,
    tier: f ? f.tier(i) : null,
    firstTouchRequest: f ? f.firstTouchRequest(i) : null,
    distanceAtFirstTouch: f ? f.distanceAtFirstTouch(i) : null,
    floor: f ? f.floor(i) : false,
    spilled: f ? f.spilled(i) : false,
    summarized: f ? f.summarized(i) : false,
    cleared: f ? f.cleared(i) : false,
    inSummary: f ? f.foldedAt(i) !== null : false,
    dropped: f ? f.droppedAt(i) !== null : false,
    droppedAt: f ? f.droppedAt(i) : null,
    finalChars: (f ? f.finalChars(i) : null) ?? s.chars,
  };
}

/** Shared by the rows without events (frozen). */
const NO_EVENTS: ReportEvent[] = Object.freeze([]) as unknown as ReportEvent[];

function stripEvent(e: PipelineEvent): ReportEvent {
  const { before: _b, after: _a, thread: _t, request: _r, ...rest } = e;
  return rest;
}

export type ReportInput = {
  transcript: Transcript;
  tokenizer: Tokenizer;
  /** What the report keeps between runs (the engine's RunMemo.report). */
  memo: ReportMemo;
  replay: Replay;
  observed: ObservedPoint[];
  simulated: SimulatedPoint[];
  refetches: Refetch[];
  cost: RunCost;
  preset: string | null;
  /** Copy each request's rewrite events into the report (the CLI's JSON); the UI fetches them apart. */
  withEvents?: boolean;
  /** Build the per-request rows (default true). A re-run in the worker skips them (its timeline carries the
   *  same fields) and builds them only when the report is asked for. */
  rows?: boolean;
};

/** The transcript's billed tokens (a copy: the report's own object). */
function billedOf(t: Transcript, memo: ReportMemo): BilledTokens | null {
  if (memo.billed === undefined) memo.billed = billedTokens(t);
  return memo.billed && { ...memo.billed };
}

function countsOf(t: Transcript, memo: ReportMemo): Counts {
  memo.counts ??= transcriptCounts(t);
  return { ...memo.counts };
}

/** A request row's simulated cache break (rounded as the report prints it). */
export function cacheBreakRow(sim: SimulatedPoint | undefined, usd?: RequestDollars): RequestRow['cacheBreak'] {
  if (!sim?.break) return null;
  const row: NonNullable<RequestRow['cacheBreak']> = {
    cause: sim.break.cause,
    tokensLost: Math.round(sim.break.tokensLost),
    detail: sim.break.detail,
    messageIndex: sim.break.messageIndex ?? null,
    events: sim.break.events ?? [],
    usd: usd?.simulatedBreakUsd ?? null,
  };
  if (usd?.simulatedOneHour) row.oneHourWrite = usd.simulatedOneHour;
  return row;
}

/** The report's divergence point (SPEC §8), with the region it lies in. */
type ObservedDivergence = Pick<
  Divergence,
  'messageIndex' | 'blockIndex' | 'tokens' | 'uncertaintyTokens' | 'region' | 'unloggedTokens'
>;

function divergenceRow(d: Divergence | undefined): ObservedDivergence | null {
  if (!d) return null;
  return {
    messageIndex: d.messageIndex,
    blockIndex: d.blockIndex,
    tokens: d.tokens,
    uncertaintyTokens: d.uncertaintyTokens,
    region: d.region,
    unloggedTokens: d.unloggedTokens,
  };
}

/** A request row's observed cache break. */
export function observedBreakRow(obs: ObservedPoint | undefined, usd?: RequestDollars): RequestRow['observedBreak'] {
  if (!obs?.break) return null;
  const row: NonNullable<RequestRow['observedBreak']> = {
    cause: obs.break.cause,
    tokensLost: obs.break.tokensLost,
    detail: obs.break.detail,
    divergence: divergenceRow(obs.break.divergence),
    evidence: obs.break.evidence ?? [],
    usd: usd?.observedBreakUsd ?? null,
  };
  if (usd?.observedOneHour) row.oneHourWrite = usd.observedOneHour;
  return row;
}

/** The usage a row reports: every field, 1-hour writes 0 when the log splits none out. */
function observedRow(u: ObservedUsage | undefined): RequestRow['observed'] {
  if (!u) return null;
  return {
    input: u.input,
    cacheRead: u.cacheRead,
    cacheWrite: u.cacheWrite,
    cacheWrite1h: u.cacheWrite1h ?? 0,
    output: u.output,
  };
}

/** Dollars of the after-pipeline re-fetches (null when there are none, or none could be priced). */
function refetchUsd(found: readonly Refetch[], usd: readonly (number | null)[]): number | null {
  let sum: number | null = null;
  found.forEach((f, i) => {
    const d = usd[i];
    if (f.kind === 'after-pipeline' && d !== null && d !== undefined) sum = (sum ?? 0) + d;
  });
  return sum;
}

export function buildReport(x: ReportInput): Report {
  const { transcript: t, replay } = x;
  // Both timelines list requests in replay order (threads, then requests; observed only those with usage), so
  // one cursor over each finds a request's point without building keyed maps on every re-run.
  let obsAt = 0;
  let simAt = 0;
  const isAt = (p: { thread: string; index: number } | undefined, th: string, i: number) =>
    p !== undefined && p.thread === th && p.index === i;
  const requests: RequestRow[] = [];
  let k = 0;
  const obsTot = { prompt: 0, cacheRead: 0, cacheWrite: 0 };
  const simTot = { prompt: 0, cacheRead: 0, cacheWrite: 0 };
  let tokensIn = 0;
  let tokensAfter = 0;
  const breaks: BreakRecord[] = [];
  /** The self-check, told each request with usage (also when the run skips the rows). */
  const check = new SelfCheckTally(t);
  for (const [ti, tr] of replay.threads.entries()) {
    const thread = t.threads[ti];
    for (const q of tr.requests) {
      const req = thread.requests[q.index];
      const sim = isAt(x.simulated[simAt], tr.thread, q.index) ? x.simulated[simAt++] : undefined;
      const obs = isAt(x.observed[obsAt], tr.thread, q.index) ? x.observed[obsAt++] : undefined;
      const usd = x.cost.byPoint[k++];
      tokensIn += q.inputTokens;
      tokensAfter += q.outputTokens;
      if (obs?.break)
        breaks.push({
          thread: tr.thread,
          index: q.index,
          brk: obs.break,
          usd: usd?.observedBreakUsd ?? null,
          oneHour: usd?.observedOneHour ?? null,
        });
      if (req?.observed) {
        obsTot.prompt += req.observed.input + req.observed.cacheRead + req.observed.cacheWrite;
        obsTot.cacheRead += req.observed.cacheRead;
        obsTot.cacheWrite += req.observed.cacheWrite;
      }
      if (req?.observed)
        check.add(tr.thread, q.index, q.estimateIn, req.observed, tr.calibration.requests[q.index]?.note ?? null);
      if (sim) {
        simTot.prompt += sim.prompt;
        simTot.cacheRead += sim.cacheRead;
        simTot.cacheWrite += sim.cacheWrite;
      }
      if (x.rows === false) continue;
      requests.push({
        thread: tr.thread,
        index: q.index,
        model: q.model ?? null,
        tokensIn: q.inputTokens,
        tokensAfterPipeline: q.outputTokens,
        estimateIn: Math.round(q.estimateIn),
        estimateAfterPipeline: Math.round(q.estimateOut),
        estimate: estimateRow(tr.calibration.requests[q.index]),
        observed: observedRow(req?.observed),
        simulated: { cacheRead: Math.round(sim?.cacheRead ?? 0), cacheWrite: Math.round(sim?.cacheWrite ?? 0) },
        costUsd: { recorded: usd?.recorded ?? null, simulated: usd?.simulated ?? null },
        events: x.withEvents === false || q.events.length === 0 ? NO_EVENTS : q.events.map(stripEvent),
        cacheBreak: cacheBreakRow(sim, usd),
        observedBreak: observedBreakRow(obs, usd),
      });
    }
  }
  const pairing: Report['pairing'] = [];
  for (const tr of replay.threads)
    for (const q of tr.requests) for (const { provider: _p, ...v } of q.pairing) pairing.push(v);
  const hasObserved = obsTot.prompt > 0;
  const report: Report = {
    format: sourceFormat(t),
    parseIssues: t.parseIssues.map((i) => ({ line: i.line, message: i.message, severity: i.severity })),
    counts: countsOf(t, x.memo),
    settings: {
      preset: x.preset,
      mode: replay.options.mode,
      provider: replay.options.provider,
      summarizer: replay.options.summarizer,
    },
    calibration: replay.threads.map((tr) => ({
      thread: tr.thread,
      factor: Number(tr.calibration.factor.toFixed(4)),
      prefixTokens: tr.calibration.prefixTokens,
      prefixSource: tr.calibration.prefixSource,
      samples: tr.calibration.samples,
    })),
    pairing,
    toolResults: [],
    requests,
    figures: REPORT_FIGURES,
    selfCheck: check.result(costCheck(t, x.cost.report)),
    refetches: x.refetches,
    cacheFindings: cacheFindings(breaks),
    totals: {
      billed: billedOf(t, x.memo),
      tokensIn,
      tokensAfterPipeline: tokensAfter,
      tokensSaved: tokensIn - tokensAfter,
      observed: hasObserved ? { ...obsTot, hitRate: obsTot.cacheRead / obsTot.prompt } : null,
      simulated: { ...simTot, hitRate: simTot.prompt > 0 ? simTot.cacheRead / simTot.prompt : 0 },
      cost: x.cost.report,
      refetchAfterPipelineUsd: refetchUsd(x.refetches, x.cost.refetchUsd),
      pairingErrors: pairing.filter((v) => v.severity === 'error').length,
      pairingWarnings: pairing.filter((v) => v.severity === 'warning').length,
      refetches: x.refetches.length,
      refetchesAfterPipeline: x.refetches.filter((r) => r.kind === 'after-pipeline').length,
      refetchTokens: x.refetches.reduce((n, r) => n + r.tokens, 0),
      cacheBreaksObserved: x.observed.filter((p) => p.break).length,
      cacheBreaksSimulated: x.simulated.filter((p) => p.break).length,
    },
  };
  madeOnRead(report, 'toolResults', new ToolResultRows(t, x.tokenizer, replay, x.memo));
  return report;
}
