// Recorded cost (SPEC §5.2 "Cost", §8 `totals.cost.recorded`): every billed response of the log once — each
// request with observed usage, and the responses billed apart from the requests (rewound branches, usage-only
// calls) — at its model's list prices at its time. The tokens are observed; the dollars are what ccusage computes
// from the same lines. Depends on the transcript and the user's prices only.

import type { UserPrices } from '../catalog/prices.ts';
import type { Transcript } from '../model/transcript.ts';
import { CostBook, type CostMemo, type CostTotals, usageTokens } from './cost.ts';

export type RecordedCost = {
  /** null: the log records no usage at all. */
  totals: CostTotals | null;
  /** Dollars of each request, by thread index then request index (null: no usage, or no price). */
  byRequest: (number | null)[][];
  /** Dollars of each response billed apart (rewound branches, usage-only calls), with its time, in log order. */
  apart: { time: number | undefined; usd: number | null }[];
};

/** `memo` (the run cache's): the cost is kept for the prices it was made with, and price lookups are shared. */
export function recordedCost(t: Transcript, user: UserPrices, memo?: CostMemo): RecordedCost {
  const key = JSON.stringify(user);
  if (memo?.recorded?.key === key) return memo.recorded.value as RecordedCost;
  const book = new CostBook('observed', user, undefined, memo);
  let entries = 0;
  const byRequest = t.threads.map((th) =>
    th.requests.map((r) => {
      if (!r.observed) return null;
      entries++;
      return book.add({ thread: th, kind: 'request', model: r.model, time: r.time, tokens: usageTokens(r.observed) });
    }),
  );
  const apart: RecordedCost['apart'] = [];
  for (const th of t.threads)
    for (const b of th.billedApart ?? []) {
      entries++;
      const usd = book.add({ thread: th, kind: b.why, model: b.model, time: b.time, tokens: usageTokens(b.usage) });
      apart.push({ time: b.time, usd });
    }
  const value = { totals: entries > 0 ? book.totals() : null, byRequest, apart };
  if (memo) memo.recorded = { key, value };
  return value;
}
