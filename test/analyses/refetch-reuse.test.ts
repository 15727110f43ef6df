// A run's re-fetches are made once per classification (refetch.ts): a run that classifies a repeat as the last run
// did hands out the last run's object, one that does not a new one; either way each equals what a fresh cache gives.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, newCache } from '../../src/analyses/analyze.ts';
import type { Refetch } from '../../src/analyses/refetch.ts';
import type { Transcript } from '../../src/model/transcript.ts';
import { mergeConfig, type PipelineConfig } from '../../src/pipeline/config.ts';
import { presetConfig } from '../../src/pipeline/presets.ts';
import type { CachedTokenizer } from '../../src/tokens/tokenizer.ts';
import { sessionArb, sessionTranscript } from '../helpers/arbitrary.ts';
import { tokenizer } from '../helpers/replay.ts';

let tk: CachedTokenizer;
beforeAll(async () => {
  tk = await tokenizer();
});

const found = (t: Transcript, config: PipelineConfig, cache = newCache(t, tk)): Refetch[] =>
  analyze(t, { config, preset: 'seeds', mode: 'recorded', provider: 'anthropic', tokenizer: tk, cache }).refetches;

describe('re-fetches made once per classification', () => {
  it('reuses an alike one, makes a new one otherwise, and equals a fresh run', () => {
    let reused = 0;
    let remade = 0;
    fc.assert(
      fc.property(
        sessionArb(30),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 4_000, max: 40_000 }),
        fc.boolean(),
        (s, d1, d2, window, off) => {
          const t = sessionTranscript(s);
          const base = { contextWindow: window, triggerRatio: 0.5, landingRatio: 0.4 };
          const a = mergeConfig(presetConfig('seeds'), { ...base, tier1Distance: d1 });
          // The second run either moves the tiers or turns the pipeline off (no result lost: nothing after-pipeline).
          const b = mergeConfig(presetConfig(off ? 'none' : 'seeds'), { ...base, tier1Distance: d2 });
          const cache = newCache(t, tk);
          const first = found(t, a, cache);
          const second = found(t, b, cache);
          expect(second).toEqual(found(structuredClone(t), b));
          expect(second.length).toBe(first.length);
          second.forEach((f, i) => {
            const alike = f.kind === first[i].kind && f.lostBy === first[i].lostBy;
            expect(f === first[i]).toBe(alike);
            if (alike) reused++;
            else remade++;
          });
        },
      ),
      { numRuns: 40 },
    );
    expect(reused).toBeGreaterThan(0);
    expect(remade).toBeGreaterThan(0);
  }, 120_000);
});
