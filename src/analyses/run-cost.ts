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
import type { ObservedPoint, SimulatedPoint } from './cache-timeline.ts';
import type { CostMemo, CostReport } from './cost.ts';
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
  for (const [ti, tr] of replay.threads.entries()) {
    for (const q of tr.requests) {
      const s = simulated[k];
      const o = observed[obsAt];
      const obs = o && o.thread === tr.thread && o.index === q.index ? observed[obsAt++] : undefined;
      const model = q.model;
      const ttl = (b: typeof s.break, onApi: typeof api) =>
        b?.cause === 'ttl-expired' ? oneHourAdvice(b, model, q.time, onApi, book) : null;
      byPoint.push({
        recorded: rec.byRequest[ti]?.[q.index] ?? null,
        simulated: sim.byPoint[k] ?? null,
        observedOneHour: obs?.break
          ? ttl(
              obs.break,
              getOrInsert(apiOfModel, model, () => cacheApiOfModel(model)),
            )
          : null,
        simulatedOneHour: ttl(s?.break ?? null, api),
        observedBreakUsd: obs?.break
          ? breakUsd(
              obs.break.tokensLost,
              model,
              q.time,
              cacheApiOfModel(model),
              (t.threads[ti]?.requests[q.index]?.observed?.cacheWrite1h ?? 0) > 0,
              book,
            )
          : null,
        simulatedBreakUsd: s?.break
          ? breakUsd(s.break.tokensLost, model, q.time, api, cfg.cache.ttlSeconds > 300, book)
          : null,
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
