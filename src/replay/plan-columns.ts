// A thread's request plans (plan.ts) kept in columns, by request index, for one mode: typed arrays for positions,
// plain arrays for token counts (small integers stay small integers: a Float64Array hands out doubles, which make
// every row the replay writes from them hold boxed numbers), one reference per request for the rest, a reset's
// delta kept apart. A million-message log has half a million
// plans, kept by the run cache for every re-run: as objects (with their view and delta) they weighed ~0.25 KB each.
import type { Message, Request } from '../model/transcript.ts';
import type { PairingViolation } from '../pairing/types.ts';
import type { KnownMessages } from '../pipeline/working.ts';
import type { InputDelta } from './inputs.ts';
import { carryScan, type RepeatScan, scanRepeats } from './pairing-window.ts';
import type { RequestPlan, ThreadPlans } from './types.ts';

/**
 * The plans of a thread's requests in columns, by request index: a plan is read as an object (`at`) but kept as a
 * few numbers and references per request (plan objects with their view and delta weighed ~0.25 KB a request). The
 * recorded input's pairing checks are kept here too, by key (`check`, `keepCheck`).
 */
export class PlanColumns implements ThreadPlans {
  readonly length: number;
  private readonly arrays: (readonly Message[])[];
  private readonly start: Int32Array;
  private readonly end: Int32Array;
  private readonly exact: Uint8Array;
  /** Deltas that are resets (the first request, compactions), by request; the others append from `appendFrom`. */
  private readonly resets = new Map<number, Extract<InputDelta, { kind: 'reset' }>>();
  private readonly appendFrom: Int32Array;
  private readonly from: Int32Array;
  private readonly knowns: KnownMessages[];
  private readonly rawInputTokens: number[];
  private readonly toolsKeys: string[];
  private readonly systemKeys: string[];
  private readonly toolsTokens: number[];
  private readonly staticTokens: number[];
  /** Check key → by request: what the recorded input's check found (the shared empty list when nothing). */
  private readonly checks = new Map<string, (PairingViolation[] | undefined)[]>();
  /** The first request whose input repeats a tool id (firstRepeat), and the ids of every request while none does (a
   *  grown read's copy goes on from them instead of from request 0). */
  private repeats: RepeatScan | undefined;

  /** `earlier`: the plans of the first requests as an earlier read of the thread had them (a followed session's
   *  growth, replay/resume.ts); they are copied, and only the plans after them are set. */
  constructor(
    private readonly requests: readonly Request[],
    earlier?: PlanColumns,
  ) {
    const n = requests.length;
    this.length = n;
    this.arrays = new Array(n);
    this.start = new Int32Array(n);
    this.end = new Int32Array(n);
    this.exact = new Uint8Array(n);
    this.appendFrom = new Int32Array(n);
    this.from = new Int32Array(n);
    this.knowns = new Array(n);
    this.rawInputTokens = new Array(n);
    this.toolsKeys = new Array(n);
    this.systemKeys = new Array(n);
    this.toolsTokens = new Array(n);
    this.staticTokens = new Array(n);
    if (earlier) this.copy(earlier);
  }

  /** The plans (and checks) of `e`, an earlier read's first requests, at the same indices. */
  private copy(e: PlanColumns): void {
    const k = Math.min(e.length, this.length);
    for (let i = 0; i < k; i++) {
      this.arrays[i] = e.arrays[i];
      this.knowns[i] = e.knowns[i];
      this.rawInputTokens[i] = e.rawInputTokens[i];
      this.toolsKeys[i] = e.toolsKeys[i];
      this.systemKeys[i] = e.systemKeys[i];
      this.toolsTokens[i] = e.toolsTokens[i];
      this.staticTokens[i] = e.staticTokens[i];
      const reset = e.resets.get(i);
      if (reset) this.resets.set(i, reset);
    }
    this.start.set(e.start.subarray(0, k));
    this.end.set(e.end.subarray(0, k));
    this.exact.set(e.exact.subarray(0, k));
    this.appendFrom.set(e.appendFrom.subarray(0, k));
    this.from.set(e.from.subarray(0, k));
    // A repeat among the copied requests stays first; else the scan goes on from where the earlier one stopped.
    if (e.repeats && k === e.length) this.repeats = e.repeats.at < k ? e.repeats : carryScan(e.repeats);
    for (const [key, column] of e.checks) {
      const c: (PairingViolation[] | undefined)[] = new Array(this.length);
      for (let i = 0; i < k; i++) c[i] = column[i];
      this.checks.set(key, c);
    }
  }

  set(k: number, p: Omit<RequestPlan, 'request'>): void {
    this.arrays[k] = p.view.array;
    this.start[k] = p.view.start;
    this.end[k] = p.view.end;
    this.exact[k] = p.view.exact ? 1 : 0;
    if (p.delta.kind === 'reset') this.resets.set(k, p.delta);
    else this.appendFrom[k] = p.delta.from;
    this.from[k] = p.from;
    this.knowns[k] = p.known;
    this.rawInputTokens[k] = p.rawInputTokens;
    this.toolsKeys[k] = p.toolsKey;
    this.systemKeys[k] = p.systemKey;
    this.toolsTokens[k] = p.toolsTokens;
    this.staticTokens[k] = p.staticTokens;
  }

  /** The plan of request `k`, made now. */
  at(k: number): RequestPlan {
    return {
      request: this.requests[k],
      view: { array: this.arrays[k], start: this.start[k], end: this.end[k], exact: this.exact[k] === 1 },
      delta: this.resets.get(k) ?? { kind: 'append', from: this.appendFrom[k] },
      from: this.from[k],
      known: this.knowns[k],
      rawInputTokens: this.rawInputTokens[k],
      toolsKey: this.toolsKeys[k],
      systemKey: this.systemKeys[k],
      toolsTokens: this.toolsTokens[k],
      staticTokens: this.staticTokens[k],
    };
  }

  /** The first request whose recorded input repeats a tool id, found on first use. */
  firstRepeat(): number {
    this.repeats = scanRepeats(this, this.repeats);
    return this.repeats.at;
  }

  /** What request `k`'s recorded input check under `key` found, if it was made. */
  check(k: number, key: string): PairingViolation[] | undefined {
    return this.checks.get(key)?.[k];
  }

  /** Keep what request `k`'s check under `key` found (a check that found nothing as `none`, a shared empty list). */
  keepCheck(k: number, key: string, found: PairingViolation[], none: PairingViolation[]): PairingViolation[] {
    let column = this.checks.get(key);
    if (!column) {
      column = new Array(this.length);
      this.checks.set(key, column);
    }
    const kept = found.length === 0 ? none : found;
    column[k] = kept;
    return kept;
  }
}
