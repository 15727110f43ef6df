// Simulated cost (SPEC §8 `totals.cost.simulated`): each replayed request's simulated cache reads, writes and
// uncached input (cache-timeline.ts, under the provider's rules) at its model's prices, plus the output the log
// observed for it — the replay changes what is sent, not what came back. Cache reads and writes cost the config's
// multiples of the input price where set, else the model's own cache prices; an Anthropic write under a TTL over
// 5 minutes is a 1-hour write. Every figure is an estimate (calibrated prompt sizes).

import type { ModelPrices, TokenPrices } from '../catalog/catalog.ts';
import type { TokenSplit } from '../catalog/prices.ts';
import type { Transcript } from '../model/transcript.ts';
import type { CacheConfig } from '../pipeline/config.ts';
import type { Replay } from '../replay/transcript.ts';
import { cacheApiOf, RulesByModel } from './cache-settings.ts';
import type { SimulatedPoint } from './cache-timeline.ts';
import { type BookEntry, CostBook, type CostMemo, type CostTotals } from './cost.ts';

export type SimulatedCost = {
  totals: CostTotals;
  /** Dollars of each simulated point (replay order; null: no price). */
  byPoint: (number | null)[];
};

/** A tier's prices with the config's cache multipliers applied (a null multiplier keeps the listed price). */
function withMultipliers<T extends TokenPrices>(p: T, c: CacheConfig): T {
  const write = c.writeMultiplier === null ? null : p.input * c.writeMultiplier;
  return {
    ...p,
    cacheRead: c.readMultiplier === null ? p.cacheRead : p.input * c.readMultiplier,
    cacheWrite5m: write ?? p.cacheWrite5m,
    cacheWrite1h: write ?? p.cacheWrite1h,
  };
}

/** The prices the simulation pays for a model under the config's `cache.*` multipliers. */
export function simulationPrices(c: CacheConfig): ((p: ModelPrices) => ModelPrices) | undefined {
  if (c.readMultiplier === null && c.writeMultiplier === null) return undefined;
  return (p) => ({ ...withMultipliers(p, c), longContext: p.longContext && withMultipliers(p.longContext, c) });
}

export function simulatedCost(
  t: Transcript,
  replay: Replay,
  points: readonly SimulatedPoint[],
  memo?: CostMemo,
): SimulatedCost {
  const cfg = replay.options.config;
  const book = new CostBook('estimated', cfg.prices, simulationPrices(cfg.cache), memo);
  const rulesOf = new RulesByModel(cacheApiOf(replay.options.provider), cfg.cache);
  const byPoint: (number | null)[] = [];
  // One split and one entry rewritten for each point: the book adds their numbers and keeps none of their objects.
  const tokens: TokenSplit = { input: 0, output: 0, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0 };
  let k = 0;
  for (let ti = 0; ti < replay.threads.length; ti++) {
    const thread = t.threads[ti];
    const entry: BookEntry = { thread, kind: 'request', model: undefined, time: undefined, tokens };
    for (const q of replay.threads[ti].requests) {
      const p = points[k];
      const req = thread.requests[q.index];
      const model = q.model;
      const oneHour = rulesOf.of(model).oneHourWrites;
      tokens.input = p.uncached;
      tokens.output = req?.observed?.output ?? 0;
      tokens.cacheRead = p.cacheRead;
      tokens.cacheWrite5m = oneHour ? 0 : p.cacheWrite;
      tokens.cacheWrite1h = oneHour ? p.cacheWrite : 0;
      entry.model = model;
      entry.time = q.time;
      byPoint.push(book.add(entry));
      k++;
    }
  }
  return { totals: book.totals(), byPoint };
}
