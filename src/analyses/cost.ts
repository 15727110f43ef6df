// Cost in US dollars (SPEC §5.2 "Cost", §5.4), summed per model, per thread and for the session. Each entry is
// priced at its model's prices at its time (the catalog's, or prices the user typed); a model with neither is
// counted as "price unknown" and left out of the dollars, never priced as another model. `CostBook` collects the
// entries of one computation (recorded-cost.ts, simulated-cost.ts) and says what its figures rest on.

import type { CatalogInfo, ModelPrices } from '../catalog/catalog.ts';
import {
  addTokensTo,
  addUsdTo,
  type ModelPricing,
  type PriceSource,
  priceInto,
  pricingOf,
  pricingTimeless,
  type TokenSplit,
  type UsdSplit,
  type UserPrices,
  ZERO_TOKENS,
  ZERO_USD,
} from '../catalog/prices.ts';
import type { BilledResponse, ObservedUsage, Thread } from '../model/transcript.ts';

/** What an entry is: one of a thread's requests, or a response billed apart from them. */
type EntryKind = 'request' | BilledResponse['why'];

export type ModelCost = {
  model: string;
  pricing: PriceSource | 'unknown';
  /** The catalog entry that priced it (`claude-sonnet-4-5` for `claude-sonnet-4-5-20250929`). */
  catalogId: string | null;
  /** Why it has no price (unknown models), or why some of its entries could not be priced. */
  reason: string | null;
  /** Entries left out of the dollars: no price for the model, or none for a part they use. */
  unpriced: number;
  /** Requests, and responses billed apart from the requests, of this model. */
  requests: number;
  apart: number;
  /** Entries priced at the long-context tier (prompt over the model's threshold). */
  longContext: number;
  tokens: TokenSplit;
  /** Dollars by part; null when the price is unknown. */
  usd: UsdSplit | null;
};

export type ThreadCost = {
  thread: string;
  kind: Thread['kind'];
  requests: number;
  usd: number;
  /** Dollars of responses billed apart from the thread's requests (included in `usd`). */
  apartUsd: number;
  unpriced: number;
};

/** A session's cost (SPEC §8 `totals.cost.recorded` / `.simulated`): dollars by part, and where they come from. */
export type CostTotals = UsdSplit & {
  /** observed: the log's usage at list prices; estimated: the simulated cache of the replay. */
  basis: 'observed' | 'estimated';
  tokens: TokenSplit;
  /** Entries priced (requests and responses billed apart). */
  priced: number;
  /** Dollars of the requests alone (the part the replay can change). */
  requestsUsd: number;
  /** Dollars of responses on rewound branches (included in `usd`: they were paid for). */
  abandonedUsd: number;
  /** Dollars of calls the log records only by their usage (included in `usd`). */
  noRequestUsd: number;
  /** Entries of models without a price: left out of the dollars. */
  unpriced: { entries: number; models: string[] };
  byModel: ModelCost[];
  byThread: ThreadCost[];
};

export type CostReport = {
  recorded: CostTotals | null;
  simulated: CostTotals;
  /** The simulated cost of the recorded inputs without the pipeline (same cache rules): the preset's saving is
   *  this minus `simulated`. Absent when the run did not compute it. */
  withoutPipeline?: CostTotals;
  catalog: CatalogInfo;
};

/** Observed usage as billed parts (Anthropic semantics: cache writes split into 5-minute and 1-hour). */
export function usageTokens(u: ObservedUsage): TokenSplit {
  const oneHour = Math.min(u.cacheWrite, u.cacheWrite1h ?? 0);
  return {
    input: u.input,
    output: u.output,
    cacheRead: u.cacheRead,
    cacheWrite5m: u.cacheWrite - oneHour,
    cacheWrite1h: oneHour,
  };
}

const HOUR = 3_600_000;

/** One entry of a book: a request or a response billed apart, its model, time and tokens. */
export type BookEntry = {
  thread: Thread;
  kind: EntryKind;
  model: string | undefined;
  time: number | undefined;
  tokens: TokenSplit;
};

/** What the dollars keep from one run to the next of one transcript (the engine's RunMemo): prices do not
 *  move with the thresholds a drag changes. */
export class CostMemo {
  /** (user prices, model, hour) → its pricing before the simulation's multipliers. Assumes the catalog does not
   *  change while the engine lives. Bound: models × hours of the log × price settings tried. A scan hands every
   *  session's memo the same map (pricings do not depend on the transcript). */
  constructor(readonly pricings = new Map<string, ModelPricing>()) {}
  /** The recorded cost for the user prices it was made with (it depends on nothing else). Bound: one. */
  recorded: { key: string; value: unknown } | undefined;
}

/** Collects priced entries; pricing lookups are kept per model and hour for the life of one book, and across
 *  books in `memo` when one is given. */
export class CostBook {
  private readonly models = new Map<string, ModelCost>();
  private readonly threads = new Map<string, ThreadCost>();
  /** model → its pricing at any time, or by hour (the hour's number; undefined: no time). */
  private readonly pricings = new Map<
    string,
    { any: ModelPricing | undefined; hours: Map<number | undefined, ModelPricing> }
  >();
  /** Sums kept in place (the book is read once, by `totals`, which copies them). */
  private readonly total: UsdSplit = { ...ZERO_USD };
  private readonly tokens: TokenSplit = { ...ZERO_TOKENS };
  /** One entry's dollars, written by `priceInto` for each entry. */
  private readonly entryUsd: UsdSplit = { ...ZERO_USD };
  private requestsUsd = 0;
  private abandonedUsd = 0;
  private noRequestUsd = 0;
  private priced = 0;
  private unpriced = 0;
  /** The last pricing looked up (by model and hour), the last entry's model row (by model and pricing) and its
   *  thread row. */
  private lastPricing: { model: string | undefined; hour: number | undefined; pricing: ModelPricing } | undefined;
  private lastRow: { model: string | undefined; pricingOf: ModelPricing; row: ModelCost } | undefined;
  private lastThread: ThreadCost | undefined;

  /** `adjust` rewrites a model's prices before use (the simulation's `cache.*` multipliers). */
  private readonly userKey: string;
  constructor(
    private readonly basis: CostTotals['basis'],
    private readonly user: UserPrices,
    private readonly adjust?: (p: ModelPrices) => ModelPrices,
    private readonly memo?: CostMemo,
  ) {
    this.userKey = memo ? JSON.stringify(user) : '';
  }

  /** The pricing of a model at a time (its hour: price lists change by date, a few by time of day). Found again
   *  by model and hour number, without a key string a lookup. */
  pricing(model: string | undefined, time: number | undefined): ModelPricing {
    const hour = time === undefined ? undefined : Math.floor(time / HOUR);
    // Consecutive lookups mostly ask for the same model and hour: the last answer is checked first.
    const last = this.lastPricing;
    if (last && last.model === model && last.hour === hour) return last.pricing;
    const p = this.pricingAt(model, hour);
    this.lastPricing = { model, hour, pricing: p };
    return p;
  }

  private pricingAt(model: string | undefined, hour: number | undefined): ModelPricing {
    let slot = this.pricings.get(model ?? '');
    if (!slot) {
      slot = { hours: new Map(), any: undefined };
      this.pricings.set(model ?? '', slot);
    }
    let p = slot.hours.get(hour) ?? slot.any;
    if (!p) {
      const key = `${model ?? ''}\u0000${hour ?? 'newest'}`;
      // A model priced alike at any time (most are) is looked up once, not once per hour of the log.
      const anyTime = `${model ?? ''}\u0000any`;
      const at = hour === undefined ? undefined : new Date(hour * HOUR + HOUR / 2);
      const memo = this.memo?.pricings;
      const shared = `${this.userKey}\u0000${key}`;
      const sharedAny = `${this.userKey}\u0000${anyTime}`;
      p = memo?.get(shared) ?? memo?.get(sharedAny);
      let timeless = p !== undefined && memo?.get(sharedAny) === p;
      if (!p) {
        p = pricingOf(model, at, this.user);
        timeless = p.known && pricingTimeless(model, this.user);
        memo?.set(timeless ? sharedAny : shared, p);
      }
      if (p.known && this.adjust) p = { ...p, prices: this.adjust(p.prices) };
      if (timeless) slot.any = p;
      else slot.hours.set(hour, p);
    }
    return p;
  }

  /** Add one entry; returns its dollars, or null when its model has no price. Keeps none of `e`'s objects. */
  add(e: BookEntry): number | null {
    // Consecutive entries mostly share a model, an hour and a thread: the last one's lookups are kept.
    const pricing = this.pricing(e.model, e.time);
    let last = this.lastRow;
    if (last?.pricingOf !== pricing || last.model !== e.model) {
      last = { model: e.model, pricingOf: pricing, row: this.modelRow(e.model ?? '(no model)', pricing) };
      this.lastRow = last;
    }
    const m = last.row;
    let th = this.lastThread;
    if (th?.thread !== e.thread.id) {
      th = this.threadRow(e.thread);
      this.lastThread = th;
    }
    if (e.kind === 'request') {
      m.requests++;
      th.requests++;
    } else m.apart++;
    addTokensTo(m.tokens, e.tokens);
    addTokensTo(this.tokens, e.tokens);
    const priced = pricing.known ? priceInto(e.tokens, pricing.prices, this.entryUsd) : pricing.reason;
    if (typeof priced === 'string') {
      m.reason ??= priced;
      m.unpriced++;
      th.unpriced++;
      this.unpriced++;
      return null;
    }
    const usd = this.entryUsd;
    if (priced) m.longContext++;
    m.usd ??= { ...ZERO_USD };
    addUsdTo(m.usd, usd);
    addUsdTo(this.total, usd);
    this.priced++;
    th.usd += usd.usd;
    if (e.kind === 'request') this.requestsUsd += usd.usd;
    else {
      th.apartUsd += usd.usd;
      if (e.kind === 'abandoned-branch') this.abandonedUsd += usd.usd;
      else this.noRequestUsd += usd.usd;
    }
    return usd.usd;
  }

  private modelRow(name: string, pricing: ModelPricing): ModelCost {
    let m = this.models.get(name);
    if (!m) {
      m = {
        model: name,
        pricing: pricing.known ? pricing.source : 'unknown',
        catalogId: pricing.known ? pricing.catalogId : null,
        reason: pricing.known ? null : pricing.reason,
        unpriced: 0,
        requests: 0,
        apart: 0,
        longContext: 0,
        tokens: { ...ZERO_TOKENS },
        usd: pricing.known ? { ...ZERO_USD } : null,
      };
      this.models.set(name, m);
    }
    return m;
  }

  private threadRow(t: Thread): ThreadCost {
    let row = this.threads.get(t.id);
    if (!row) {
      row = { thread: t.id, kind: t.kind, requests: 0, usd: 0, apartUsd: 0, unpriced: 0 };
      this.threads.set(t.id, row);
    }
    return row;
  }

  totals(): CostTotals {
    const byModel = [...this.models.values()].sort(
      (a, b) => (b.usd?.usd ?? -1) - (a.usd?.usd ?? -1) || a.model.localeCompare(b.model),
    );
    return {
      ...this.total,
      basis: this.basis,
      tokens: { ...this.tokens },
      priced: this.priced,
      requestsUsd: this.requestsUsd,
      abandonedUsd: this.abandonedUsd,
      noRequestUsd: this.noRequestUsd,
      unpriced: { entries: this.unpriced, models: byModel.filter((m) => m.unpriced > 0).map((m) => m.model) },
      byModel,
      byThread: [...this.threads.values()],
    };
  }
}
