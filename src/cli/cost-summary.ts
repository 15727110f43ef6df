// The dollars of a report for the terminal: recorded (the log's usage at list prices, what the bill shows) →
// simulated (the replay under the provider's cache rules, an estimate), what was billed apart from the requests,
// then one row per model with its parts. A model without a price says so and how to give it one.
import type { CostReport, CostTotals, ModelCost } from '../analyses/cost.ts';
import { maxOf } from '../lib/arrays.ts';
import { grouped } from '../lib/digits.ts';
import { fmtUsd } from '../lib/money.ts';

const n = (x: number) => grouped(Math.round(x));

function modelLine(m: ModelCost, sim: ModelCost | undefined, width: number): string {
  const name = m.model.padEnd(width);
  const count = `${m.requests} req${m.apart > 0 ? ` +${m.apart} apart` : ''}`.padEnd(16);
  if (m.usd === null)
    return `  ${name} ${count} price unknown (${m.reason ?? 'no price'}) — give one with --set 'prices={"${m.model}":{"input":…,"output":…}}'`;
  const u = m.usd;
  const parts = [
    `input ${fmtUsd(u.input)}`,
    `output ${fmtUsd(u.output)}`,
    `cache read ${fmtUsd(u.cacheRead)}`,
    `write 5m ${fmtUsd(u.cacheWrite5m)}`,
    `write 1h ${fmtUsd(u.cacheWrite1h)}`,
  ].join(' · ');
  const source = m.pricing === 'user' ? ' (your price)' : '';
  const simulated = sim?.usd ? ` → ≈${fmtUsd(sim.usd.usd)}` : '';
  const unpriced = m.unpriced > 0 ? ` (${m.unpriced} not priced: ${m.reason})` : '';
  return `  ${name} ${count} ${fmtUsd(u.usd)}${source}${simulated}  ${parts}${unpriced}`;
}

function apartLine(r: CostTotals): string | null {
  const parts: string[] = [];
  if (r.abandonedUsd > 0) parts.push(`${fmtUsd(r.abandonedUsd)} on rewound branches`);
  if (r.noRequestUsd > 0) parts.push(`${fmtUsd(r.noRequestUsd)} for calls the log records only by their usage`);
  return parts.length > 0 ? `  incl. ${parts.join(', ')} (billed, not in the replay)` : null;
}

export function costLines(c: CostReport): string[] {
  const r = c.recorded;
  const s = c.simulated;
  const lines = [
    `cost (USD, list prices of ${c.catalog.name} ${c.catalog.version}): recorded ${r ? `${fmtUsd(r.usd)} (observed usage)` : 'n/a (the log records no usage)'} → simulated ≈${fmtUsd(s.usd)} (estimate)`,
  ];
  if (r) {
    const apart = apartLine(r);
    if (apart) lines.push(apart);
  }
  const w = c.withoutPipeline;
  if (w) {
    const saved = w.requestsUsd - s.requestsUsd;
    const what =
      Math.abs(saved) < 0.00005
        ? `changes nothing billed (≈${fmtUsd(w.requestsUsd)})`
        : `${saved >= 0 ? 'saves' : 'costs'} ≈${fmtUsd(Math.abs(saved))} of ≈${fmtUsd(w.requestsUsd)}`;
    lines.push(`  the pipeline ${what} (with and without it, simulated under the same cache rules)`);
  }
  const rows = r ?? s;
  const sims = new Map(s.byModel.map((m) => [m.model, m]));
  const width = Math.max(maxOf(rows.byModel.map((m) => m.model.length)), 5);
  for (const m of rows.byModel) lines.push(modelLine(m, r ? sims.get(m.model) : undefined, width));
  const unpriced = rows.unpriced.entries;
  if (unpriced > 0)
    lines.push(
      `  ${n(unpriced)} ${unpriced === 1 ? 'response not priced is' : 'responses not priced are'} left out of the dollars above`,
    );
  return lines;
}
