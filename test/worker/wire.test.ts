import { describe, expect, it } from 'vitest';
import { mergePart, PART_ITEMS, packJson, partValue, planParts, unpackJson } from '../../worker/wire.ts';

function roundTrip(value: unknown, keys: readonly string[]): unknown {
  const plan = planParts(value, keys);
  let acc: unknown;
  for (let k = 0; k < plan.length; k++)
    acc = mergePart(acc, plan, k, unpackJson(packJson(partValue(value, plan, k, keys))));
  return acc;
}

describe('worker replies in parts', () => {
  it('reassembles an array split into parts', () => {
    const rows = Array.from({ length: PART_ITEMS * 2 + 7 }, (_, i) => ({ index: i, preview: `row ${i} 日本` }));
    expect(planParts(rows, [])).toHaveLength(3);
    expect(roundTrip(rows, [])).toEqual(rows);
    expect(roundTrip([], [])).toEqual([]);
  });

  it('reassembles an object whose big arrays are split, other fields in the first part', () => {
    const run = {
      runId: 3,
      totals: { tokensIn: 10 },
      timeline: Array.from({ length: PART_ITEMS + 1 }, (_, i) => ({ index: i })),
      events: [],
      pairing: [{ rule: 'orphan-result' }],
    };
    const plan = planParts(run, ['timeline', 'events', 'pairing', 'missing']);
    expect(plan.map((p) => p.key)).toEqual([null, 'timeline', 'timeline', 'events', 'pairing']);
    expect(roundTrip(run, ['timeline', 'events', 'pairing', 'missing'])).toEqual(run);
  });

  it('passes a stale-run reply (no arrays) through as one part', () => {
    expect(roundTrip({ runId: 2, stale: true }, ['timeline'])).toEqual({ runId: 2, stale: true });
  });
});
