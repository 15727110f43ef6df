// A thread's request plans (plan.ts) kept in columns, by request index, for one mode: typed arrays for positions,
// plain arrays for token counts (small integers stay small integers: a Float64Array hands out doubles, which make
// every row the replay writes from them hold boxed numbers), one reference per request for the rest, a reset's
// delta kept apart. A million-message log has half a million
// plans, kept by the run cache for every re-run: as objects (with their view and delta) they weighed ~0.25 KB each.
import type { Message, Request } from '../model/transcript.ts';
import type { PairingViolation } from '../pairing/types.ts';
import type { KnownMessages } from '../pipeline/working.ts';
import type { InputDelta } from './inputs.ts';
import type { RequestPlan } from './types.ts';

/**
 * The plans of a thread's requests in columns, by request index: a plan is read as an object (`at`) but kept as a
 * few numbers and references per request (plan objects with their view and delta weighed ~0.25 KB a request). The
 * recorded input's pairing checks are kept here too, by key (`check`, `keepCheck`).
 */
export class PlanColumns {
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

  constructor(private readonly requests: readonly Request[]) {
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
