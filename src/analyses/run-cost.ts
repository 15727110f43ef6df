// The dollars of one run (SPEC §8 `totals.cost`, `requests[].costUsd`): the session's recorded and simulated
// cost, each replayed request's recorded and simulated USD, what a 1-hour write would have changed at each
// TTL break (observed and simulated), and what each re-fetch cost. Made once per run, so the CLI's report rows
// and the UI's summary bar and timeline hover show the same figures.

import type { CacheApi } from '../catalog/cache-rules.ts';
import { CATALOG } from '../catalog/catalog.ts';
import { getOrInsert } from '../lib/maps.ts';
import type { Transcript } from '../model/transcript.ts';
import type { Replay } from '../replay/transcript.ts';
import { cacheApiOf, cacheApiOfModel } from './cache-settings.ts';
import type { BreakInfo, ObservedPoint, SimulatedPoint } from './cache-timeline.ts';
import type { CostBook, CostMemo, CostReport } from './cost.ts';
import { recordedCost } from './recorded-cost.ts';
import type { Refetch } from './refetch.ts';
import { simulatedCost } from './simulated-cost.ts';
import { breakUsd, type OneHourAdvice, oneHourAdvice, priceBook, refetchCost } from './trade-off-cost.ts';

export type RequestDollars = {
  /** Observed usage at list prices (null: no usage recorded, or no price). */
  recorded: number | null;
  /** The simulated cache at the model's prices (an estimate; null: no price). */
  simulated: number | null;
  /** At a ttl-expired break: what a 1-hour write would have cost and saved. */
  observedOneHour: OneHourAdvice | null;
  simulatedOneHour: OneHourAdvice | null;
  /** At an observed break: the lost tokens billed again instead of read (estimate at list prices; null: none). */
  observedBreakUsd: number | null;
  /** The same at a simulated break, under the provider's rules the replay follows (estimate; null: none). */
  simulatedBreakUsd: number | null;
};

export type RunCost = {
  report: CostReport;
  /** One per simulated point (replay order). */
  byPoint: RequestDollars[];
  /** One per re-fetch (null: no price). */
  refetchUsd: (number | null)[];
};

/** At a ttl-expired break, what a 1-hour write would have changed (null at another cause). */
function ttlAdvice(
  b: BreakInfo,
  model: string | undefined,
  time: number | undefined,
  api: CacheApi,
  book: CostBook,
): OneHourAdvice | null {
  return b.cause === 'ttl-expired' ? oneHourAdvice(b, model, time, api, book) : null;
}

export function runCost(
  t: Transcript,
  replay: Replay,
  observed: readonly ObservedPoint[],
  simulated: readonly SimulatedPoint[],
  refetches: readonly Refetch[],
  memo?: CostMemo,
): RunCost {
  const cfg = replay.options.config;
  const rec = recordedCost(t, cfg.prices, memo);
  const sim = simulatedCost(t, replay, simulated, memo);
  const book = priceBook(cfg, memo);
  const api = cacheApiOf(replay.options.provider);
  const byPoint: RequestDollars[] = [];
  // A request's API follows from its model: looked up once per model of the log, not per request.
  const apiOfModel = new Map<string | undefined, CacheApi>();
  let k = 0;
  let obsAt = 0;
  const oneHourWrites = cfg.cache.ttlSeconds > 300;
  for (const [ti, tr] of replay.threads.entries()) {
    const recorded = rec.byRequest[ti];
    const thread = t.threads[ti];
    for (const q of tr.requests) {
      const s = simulated[k];
      const o = observed[obsAt];
      const obs = o && o.thread === tr.thread && o.index === q.index ? observed[obsAt++] : undefined;
      const model = q.model;
      const ob = obs?.break;
      const sb = s?.break;
      // The API the log's own request went to (its model's), for its observed break.
      const obsApi = ob ? getOrInsert(apiOfModel, model, () => cacheApiOfModel(model)) : api;
      byPoint.push({
        recorded: recorded?.[q.index] ?? null,
        simulated: sim.byPoint[k] ?? null,
        observedOneHour: ob ? ttlAdvice(ob, model, q.time, obsApi, book) : null,
        simulatedOneHour: sb ? ttlAdvice(sb, model, q.time, api, book) : null,
        observedBreakUsd: ob
          ? breakUsd(
              ob.tokensLost,
              model,
              q.time,
              obsApi,
              (thread?.requests[q.index]?.observed?.cacheWrite1h ?? 0) > 0,
              book,
            )
          : null,
        simulatedBreakUsd: sb ? breakUsd(sb.tokensLost, model, q.time, api, oneHourWrites, book) : null,
      });
      k++;
    }
  }
  return {
    report: { recorded: rec.totals, simulated: sim.totals, catalog: CATALOG },
    byPoint,
    refetchUsd: refetchCost(refetches, t, cfg, api, book),
  };
}
