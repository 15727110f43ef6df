// RulesByModel (cache-settings.ts): a run's cache rules by model answer what rulesFor answers for each model, made
// once a model, whether consecutive requests share a model or alternate.
import { expect, it } from 'vitest';
import { RulesByModel, rulesFor } from '../../src/analyses/cache-settings.ts';
import { presetConfig } from '../../src/pipeline/presets.ts';

it('answers rulesFor for every model, one object a model', () => {
  const cache = { ...presetConfig('seeds').cache, ttlSeconds: 3600, minCacheable: null, step: null };
  const rules = new RulesByModel('anthropic', cache);
  const models = [
    'claude-sonnet-4-5',
    'claude-sonnet-4-5',
    undefined,
    'claude-haiku-4-5',
    undefined,
    'claude-sonnet-4-5',
  ];
  const seen = new Map<string | undefined, unknown>();
  for (const m of models) {
    const r = rules.of(m);
    expect(r).toEqual(rulesFor('anthropic', m, cache));
    if (seen.has(m)) expect(r).toBe(seen.get(m));
    seen.set(m, r);
  }
  expect(rules.of('claude-haiku-4-5')).not.toBe(rules.of('claude-sonnet-4-5'));
});
