// A CostBook's pricing per (model, hour): the answer kept for the last one asked (a thread's requests mostly ask
// for the one before's) is the answer a fresh book gives, whatever the order of models and hours asked.
import { describe, expect, it } from 'vitest';
import { CostBook, CostMemo } from '../../src/analyses/cost.ts';

const HOUR = 3_600_000;
const t0 = Date.UTC(2025, 9, 1, 10);

describe('CostBook pricing', () => {
  it('answers each (model, hour) as a fresh book does, and the same object when asked again', () => {
    const user = { 'my-model': { input: 1, output: 2 } };
    const double = (p: Parameters<NonNullable<ConstructorParameters<typeof CostBook>[2]>>[0]) => ({
      ...p,
      input: p.input * 2,
    });
    const memo = new CostMemo();
    const book = new CostBook('estimated', user, double, memo);
    const asks: [string | undefined, number | undefined][] = [
      ['claude-sonnet-4-5-20250929', t0],
      ['claude-sonnet-4-5-20250929', t0 + 10],
      ['claude-sonnet-4-5-20250929', t0 + HOUR],
      ['gpt-4o', t0 + HOUR],
      ['claude-sonnet-4-5-20250929', t0],
      [undefined, t0],
      ['my-model', undefined],
      ['no-such-model-xyz', t0 + 5 * HOUR],
      ['no-such-model-xyz', t0 + 5 * HOUR + 1],
      ['my-model', t0 + 400 * HOUR],
      ['claude-sonnet-4-5-20250929', undefined],
    ];
    const first = new Map<string, unknown>();
    for (const [model, time] of asks) {
      const got = book.pricing(model, time);
      expect(got).toEqual(new CostBook('estimated', user, double).pricing(model, time));
      const key = `${model}|${time === undefined ? '-' : Math.floor(time / HOUR)}`;
      if (first.has(key)) expect(got).toBe(first.get(key));
      else first.set(key, got);
    }
  });
});
