// The reconstruction's self-check (SPEC §2): per session, how far the estimate of each request's prompt is from
// the prompt the provider billed — the share within ±3% (of requests billed ≥ 2,000 prompt tokens, the accuracy
// target's base), the worst miss and where — and whether the billed responses add up to the log's own running
// totals (Codex `total_token_usage`; for a fork, its final total minus the total it inherited), and whether our
// dollars match the run's cost where the log states one (SWE-agent, mini-swe-agent `info.model_stats.instance_cost`).
// A request more than 10% off, a sum that disagrees, or recorded dollars more than 3% off are flagged: a format or
// price change shows up as a warning, not as silently wrong numbers. Pure over the transcript and what the report
// tells it of each request, so every format and view can use it.
import { grouped } from '../lib/digits.ts';
import { fmtUsd } from '../lib/money.ts';
import type { Transcript, UsageTotals } from '../model/transcript.ts';
import type { CostReport } from './cost.ts';

/** The accuracy target's base and bounds (SPEC §9, issue 26). */
const CHECK_MIN_PROMPT = 2000;
const WITHIN = 0.03;
const FLAG_AT = 0.1;

export type CheckedRequest = {
  thread: string;
  request: number;
  /** Source line of the request (its response's first line), and its file when not the main one. */
  line: number | null;
  file: string | null;
  estimate: number;
  billed: number;
  /** (estimate − billed) / billed. */
  miss: number;
  note: string | null;
};

export type TotalsCheck = {
  thread: string;
  /** Line of the log's last running total. */
  line: number;
  /** What the log's totals say this thread was billed (final − inherited) and what its responses add up to. */
  log: UsageTotals;
  billed: UsageTotals;
  agrees: boolean;
};

/** The run's cost as the log states it, against ours. */
export type CostCheck = {
  /** Where the log states it. */
  source: string;
  log: number;
  /** Ours: recorded (the log's usage at list prices) when the log has usage, else estimated (the simulated cost of
   *  the recorded inputs, without the pipeline). */
  ours: number;
  basis: 'recorded' | 'estimated';
  /** (ours − log) / log. */
  miss: number;
  agrees: boolean;
};

/** Keys of meta.extra where a format puts the run's stated cost in USD (formats/mini-swe-agent.ts runFacts). */
const STATED_COST = ['model_stats.instance_cost'];

/** Our dollars against the cost the log states for the run, or null when it states none. */
export function costCheck(t: Transcript, cost: CostReport): CostCheck | null {
  const key = STATED_COST.find((k) => typeof t.meta.extra?.[k] === 'number');
  const log = key ? (t.meta.extra?.[key] as number) : 0;
  if (!key || !(log > 0)) return null;
  const recorded = cost.recorded?.usd;
  const estimated = cost.withoutPipeline?.usd;
  const ours = recorded ?? estimated;
  if (ours === undefined) return null;
  const miss = (ours - log) / log;
  return {
    source: `info.${key}`,
    log,
    ours,
    basis: recorded !== undefined ? 'recorded' : 'estimated',
    miss,
    agrees: Math.abs(miss) <= WITHIN,
  };
}

/** The cost check in words. */
function costLine(c: CostCheck): string {
  return c.agrees
    ? `${c.basis} dollars agree with the log's own cost (${fmtUsd(c.log)}, ${c.source})`
    : `${c.basis} dollars ${fmtUsd(c.ours)} are ${pct(c.miss)} from the log's own cost ${fmtUsd(c.log)} (${c.source})`;
}

export type SelfCheck = {
  /** Requests with a billed prompt ≥ CHECK_MIN_PROMPT, and the share of them within ±3%. */
  requests: number;
  within: number | null;
  worst: CheckedRequest | null;
  /** Requests (any size) whose estimate is more than 10% off their billed prompt. */
  flagged: CheckedRequest[];
  totals: TotalsCheck[];
  /** Where the log states the run's cost. */
  cost: CostCheck | null;
  /** Nothing flagged, every sum agrees, and recorded dollars agree with the stated cost. */
  ok: boolean;
  summary: string;
};

/** A request's billed usage, as the check reads it. */
type CheckUsage = { input: number; cacheRead: number; cacheWrite: number };

const pct = (x: number) => `${x >= 0 ? '+' : '−'}${(Math.abs(x) * 100).toFixed(1)}%`;

/** Each thread with the log's own running totals: what they say it was billed, and what its responses add up to. */
export function totalsCheck(t: Transcript): TotalsCheck[] {
  const out: TotalsCheck[] = [];
  for (const th of t.threads) {
    const lt = th.logTotals;
    // A log whose running totals stay at zero (a trimmed fixture) states nothing to check against.
    if (!lt || lt.final.prompt + lt.final.output === 0) continue;
    const from = lt.inherited ?? { prompt: 0, cached: 0, output: 0 };
    const log = {
      prompt: lt.final.prompt - from.prompt,
      cached: lt.final.cached - from.cached,
      output: lt.final.output - from.output,
    };
    const billed = { prompt: 0, cached: 0, output: 0 };
    const usages = [
      ...th.requests.flatMap((r) => (r.observed ? [r.observed] : [])),
      ...(th.billedApart ?? []).map((b) => b.usage),
    ];
    for (const u of usages) {
      billed.prompt += u.input + u.cacheRead + u.cacheWrite;
      billed.cached += u.cacheRead;
      billed.output += u.output;
    }
    const agrees = log.prompt === billed.prompt && log.cached === billed.cached && log.output === billed.output;
    out.push({ thread: th.id, line: lt.line, log, billed, agrees });
  }
  return out;
}

/** Where a request is, as a reader finds it. */
export function whereIs(c: Pick<CheckedRequest, 'thread' | 'request' | 'line' | 'file'>): string {
  const at = c.line !== null ? `, line ${c.line}${c.file ? ` of ${c.file}` : ''}` : '';
  return `${c.thread} request ${c.request}${at}`;
}

/** The self-check, told one request with usage at a time (the report's loop over requests): a request's
 *  CheckedRequest is made only when it is flagged or the worst so far. */
export class SelfCheckTally {
  private readonly threads: Map<string, Transcript['threads'][number]>;
  private base = 0;
  private within = 0;
  private worst: CheckedRequest | null = null;
  private readonly flagged: CheckedRequest[] = [];

  constructor(private readonly t: Transcript) {
    this.threads = new Map(t.threads.map((th) => [th.id, th]));
  }

  /** One request with usage: its estimate of the recorded input and the calibration's note on it. */
  add(thread: string, index: number, estimateIn: number, observed: CheckUsage, note: string | null): void {
    const billed = observed.input + observed.cacheRead + observed.cacheWrite;
    if (billed <= 0) return;
    const miss = (estimateIn - billed) / billed;
    let c: CheckedRequest | undefined;
    if (billed >= CHECK_MIN_PROMPT) {
      this.base++;
      if (Math.abs(miss) <= WITHIN) this.within++;
      if (!this.worst || Math.abs(miss) > Math.abs(this.worst.miss)) {
        c = this.checked(thread, index, estimateIn, billed, miss, note);
        this.worst = c;
      }
    }
    if (Math.abs(miss) > FLAG_AT) this.flagged.push(c ?? this.checked(thread, index, estimateIn, billed, miss, note));
  }

  private checked(
    thread: string,
    index: number,
    estimateIn: number,
    billed: number,
    miss: number,
    note: string | null,
  ): CheckedRequest {
    const th = this.threads.get(thread);
    const req = th?.requests[index];
    return {
      thread,
      request: index,
      line: req?.line ?? null,
      file: th?.file ?? null,
      estimate: Math.round(estimateIn),
      billed,
      miss,
      note,
    };
  }

  result(cost: CostCheck | null = null): SelfCheck {
    return summarize(this.t, this.base, this.within, this.worst, this.flagged, cost);
  }
}

function summarize(
  t: Transcript,
  base: number,
  within: number,
  worst: CheckedRequest | null,
  flagged: CheckedRequest[],
  cost: CostCheck | null,
): SelfCheck {
  const totals = totalsCheck(t);
  const off = totals.filter((x) => !x.agrees);
  const share = base > 0 ? within / base : null;
  const parts: string[] = [];
  if (share !== null)
    parts.push(
      `${Math.round(share * 100)}% of ${grouped(base)} requests (billed prompt ≥ ${grouped(CHECK_MIN_PROMPT)}) estimated within ±3%; worst ${worst ? `${pct(worst.miss)} (${whereIs(worst)})` : '—'}`,
    );
  else parts.push('no billed prompt to check the estimates against');
  if (flagged.length > 0) parts.push(`${flagged.length} request(s) more than 10% off`);
  if (totals.length > 0)
    parts.push(
      off.length === 0
        ? "billed responses add up to the log's own totals"
        : `${off.length} thread(s) whose billed responses disagree with the log's own totals`,
    );
  if (cost) parts.push(costLine(cost));
  return {
    requests: base,
    within: share,
    worst,
    flagged,
    totals,
    cost,
    // An estimate (no usage in the log) is expected to miss the stated cost: said, not flagged.
    ok: flagged.length === 0 && off.length === 0 && !(cost && !cost.agrees && cost.basis === 'recorded'),
    summary: parts.join('; '),
  };
}
