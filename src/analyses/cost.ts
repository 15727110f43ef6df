// Prompt cost (SPEC §5.2 "Cost"): uncached input × 1, cache reads × readMultiplier, cache writes ×
// writeMultiplier (1-hour writes × 2), in input-token equivalents; the UI multiplies by a $/Mtok price.
// Recorded cost comes from observed usage, simulated cost from the replay's simulated cache.

import type { ObservedUsage } from '../model/transcript.ts';
import type { PipelineConfig } from '../pipeline/config.ts';

export type CostUnits = { input: number; cacheRead: number; cacheWrite: number; total: number };

export function observedCost(u: ObservedUsage, c: PipelineConfig): CostUnits {
  const oneHour = u.cacheWrite1h ?? 0;
  const fiveMin = Math.max(0, u.cacheWrite - oneHour);
  const cacheWrite = fiveMin * c.cache.writeMultiplier + oneHour * 2;
  const cacheRead = u.cacheRead * c.cache.readMultiplier;
  return { input: u.input, cacheRead, cacheWrite, total: u.input + cacheRead + cacheWrite };
}

export function simulatedCost(
  p: { uncached: number; cacheRead: number; cacheWrite: number },
  c: PipelineConfig,
): CostUnits {
  const cacheRead = p.cacheRead * c.cache.readMultiplier;
  const cacheWrite = p.cacheWrite * c.cache.writeMultiplier;
  return { input: p.uncached, cacheRead, cacheWrite, total: p.uncached + cacheRead + cacheWrite };
}

export function addCost(a: CostUnits, b: CostUnits): CostUnits {
  return {
    input: a.input + b.input,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    total: a.total + b.total,
  };
}

export const ZERO_COST: CostUnits = { input: 0, cacheRead: 0, cacheWrite: 0, total: 0 };
