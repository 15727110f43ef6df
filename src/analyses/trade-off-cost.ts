// Dollars of the trade-offs the UI weighs: at a cache break from an expired TTL, what a 1-hour cache write would
// have cost more and saved (Anthropic: the lost prefix written at the 1-hour price instead of the 5-minute one,
// then read at the break instead of written again); and what re-fetched tool results cost (their tokens sent
// again: written to cache where the API bills writes, plain input where it does not). Estimates at each request's
// model prices and the run's `cache.*` settings.

import type { CacheApi } from '../catalog/cache-rules.ts';
import { tierFor, writePrice } from '../catalog/prices.ts';
import { grouped } from '../lib/digits.ts';
import { firstIndex } from '../lib/search.ts';
import type { Transcript } from '../model/transcript.ts';
import type { PipelineConfig } from '../pipeline/config.ts';
import { RulesByModel } from './cache-settings.ts';
import type { BreakInfo } from './cache-timeline.ts';
import { CostBook, type CostMemo } from './cost.ts';
import type { Refetch } from './refetch.ts';
import { simulationPrices } from './simulated-cost.ts';

export type OneHourAdvice = {
  /** A 1-hour write would have kept the prefix through the gap and its saving beats its premium. */
  helps: boolean;
  /** Extra cost of writing the lost prefix for 1 hour, and what reading it instead of re-writing saves. */
  extraUsd: number | null;
  savedUsd: number | null;
  why: string;
};

const HOUR_MS = 3_600_000;
const usd = (x: number) => `$${x < 0.01 ? x.toFixed(4) : x.toFixed(2)}`;

/** A book for price lookups under the run's cache settings (its totals are not used). */
export function priceBook(c: PipelineConfig, memo?: CostMemo): CostBook {
  return new CostBook('estimated', c.prices, simulationPrices(c.cache), memo);
}

/** What a 1-hour write would have changed at a ttl-expired break of a request of `model` at `time`; null where the
 *  API offers no paid longer TTL (OpenAI, Gemini). */
export function oneHourAdvice(
  b: Pick<BreakInfo, 'gapMs' | 'ttlMs' | 'tokensLost'>,
  model: string | undefined,
  time: number | undefined,
  api: CacheApi,
  book: CostBook,
): OneHourAdvice | null {
  if (api !== 'anthropic' || b.gapMs === undefined) return null;
  const none = (why: string): OneHourAdvice => ({ helps: false, extraUsd: null, savedUsd: null, why });
  if ((b.ttlMs ?? 0) >= HOUR_MS) return none('the prefix was already cached for 1 hour');
  if (b.gapMs > HOUR_MS)
    return none(
      `the gap of ${Math.round(b.gapMs / 60_000)} min is over an hour: a 1-hour write would have expired too`,
    );
  const pricing = book.pricing(model, time);
  if (!pricing.known) return none(`price unknown for ${model ?? 'this request'}: ${pricing.reason}`);
  const p = tierFor(pricing.prices, b.tokensLost);
  if (p.cacheRead === null) return none(`no cache-read price for ${model}`);
  const extra = (b.tokensLost * (writePrice(p, true) - writePrice(p, false))) / 1e6;
  const saved = (b.tokensLost * (writePrice(p, false) - p.cacheRead)) / 1e6;
  return {
    helps: saved > extra,
    extraUsd: extra,
    savedUsd: saved,
    why: `writing the ${grouped(Math.round(b.tokensLost))} lost tokens for 1 hour costs ${usd(extra)} more; reading them here instead of writing them again saves ${usd(saved)}`,
  };
}

/** Dollars an observed break cost: the lost tokens billed again (written where the API bills writes — at the
 *  1-hour price when the request wrote 1-hour entries — plain input elsewhere) instead of read from cache. An
 *  estimate at list prices; null without a price. */
export function breakUsd(
  tokensLost: number,
  model: string | undefined,
  time: number | undefined,
  api: CacheApi,
  oneHour: boolean,
  book: CostBook,
): number | null {
  const pricing = book.pricing(model, time);
  if (!pricing.known || tokensLost <= 0) return null;
  const p = tierFor(pricing.prices, tokensLost);
  if (p.cacheRead === null) return null;
  const rate = api === 'anthropic' ? writePrice(p, oneHour) : p.input;
  return (tokensLost * (rate - p.cacheRead)) / 1e6;
}

/** Dollars of each re-fetched result (null: no price), priced at the request that sent it again. */
export function refetchCost(
  found: readonly Pick<Refetch, 'thread' | 'repeatMessageIndex' | 'tokens'>[],
  t: Transcript,
  c: PipelineConfig,
  api: CacheApi,
  book: CostBook,
): (number | null)[] {
  return refetchPricer(t, c, api, book)(found);
}

/** refetchCost with its thread index and cache rules made once, for pricing many lists in one run. */
export function refetchPricer(
  t: Transcript,
  c: PipelineConfig,
  api: CacheApi,
  book: CostBook,
): (found: readonly Pick<Refetch, 'thread' | 'repeatMessageIndex' | 'tokens'>[]) => (number | null)[] {
  const threads = new Map(t.threads.map((th) => [th.id, th]));
  // Rules depend on the model alone here (one API, one cache config): once per model, not per re-fetch.
  const rulesOf = new RulesByModel(api, c.cache);
  // A list is mostly in thread and message order: the last re-fetch's thread, request and rate are checked first.
  let lastThread: Transcript['threads'][number] | undefined;
  let lastAt = -1;
  let lastRate: number | null = null;
  return (found) =>
    found.map((f) => {
      const th = lastThread?.id === f.thread ? lastThread : threads.get(f.thread);
      // The first request whose input holds the repeat (inputEnd grows with the request index in a thread).
      const reqs = th?.requests ?? [];
      const m = f.repeatMessageIndex;
      // Searched from the last answer when the repeat is at or after it (its own request: the last rate).
      let lo = 0;
      const at0 = lastAt;
      if (th && th === lastThread && at0 >= 0 && at0 < reqs.length && (at0 === 0 || reqs[at0 - 1].inputEnd <= m)) {
        if (reqs[at0].inputEnd > m) return lastRate === null ? null : (f.tokens * lastRate) / 1e6;
        lo = at0 + 1;
      }
      const at = firstIndex(reqs.length, (i) => reqs[i].inputEnd > m, lo);
      lastThread = th;
      lastAt = at;
      lastRate = null;
      const req = at < reqs.length ? reqs[at] : undefined;
      if (!req) return null;
      const pricing = book.pricing(req.model, req.time);
      if (!pricing.known) return null;
      const rules = rulesOf.of(req.model);
      const p = pricing.prices;
      lastRate = rules.writes === 'explicit' ? writePrice(p, rules.oneHourWrites) : p.input;
      return (f.tokens * lastRate) / 1e6;
    });
}
