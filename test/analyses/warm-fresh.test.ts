// The engine's run cache is only a cache (SPEC §9): settings A, B, A, B run one after another on one
// RunMemo give, for B, exactly what B gives on a fresh cache over a structuredClone of the transcript —
// the report (rows and events included), every request's replay figures and events, and the tool results'
// last sizes. On generated sessions (every preset, small windows so each stage fires) and on every fixture.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Analysis, analyze, newCache } from '../../src/analyses/analyze.ts';
import { logDefaults } from '../../src/analyses/log-defaults.ts';
import { companionFiles, fileFromPath } from '../../src/cli/node-input.ts';
import { parseTranscript } from '../../src/formats/index.ts';
import type { Transcript } from '../../src/model/transcript.ts';
import { KEY_SPECS, mergeConfig } from '../../src/pipeline/config.ts';
import { PRESET_IDS, type PresetId, presetConfig } from '../../src/pipeline/presets.ts';
import type { ReplayMode } from '../../src/replay/inputs.ts';
import type { CachedTokenizer } from '../../src/tokens/tokenizer.ts';
import { configArb, type GenConfig, sessionArb, sessionTranscript } from '../helpers/arbitrary.ts';
import { describeReal, fixtureInputs } from '../helpers/fixtures.ts';
import { tokenizer } from '../helpers/replay.ts';
import { runFingerprint } from '../helpers/run-fingerprint.ts';

let tk: CachedTokenizer;
beforeAll(async () => {
  tk = await tokenizer();
});

type Settings = GenConfig & { mode: ReplayMode };

function run(t: Transcript, s: Settings, cache = newCache(t, tk)): Analysis {
  const config = mergeConfig(presetConfig(s.preset), s.set);
  // withoutPipeline: the no-pipeline cost is one of the cache's memos too (its key leaves out the window).
  return analyze(t, {
    config,
    preset: s.preset,
    mode: s.mode,
    provider: 'anthropic',
    tokenizer: tk,
    cache,
    withoutPipeline: true,
  });
}

/** B after A, B, A on one cache equals B on a fresh cache over a copy. */
function expectWarmEqualsFresh(t: Transcript, a: Settings, b: Settings): void {
  const cache = newCache(t, tk);
  run(t, a, cache);
  run(t, b, cache);
  run(t, a, cache);
  const warm = runFingerprint(run(t, b, cache));
  const copy = structuredClone(t);
  expect(warm).toEqual(runFingerprint(run(copy, b)));
}

/** configArb's settings, plus the keys a slider moves that it leaves alone (the truncation cap, the ratios). */
const settingsArb: fc.Arbitrary<Settings> = fc
  .tuple(
    configArb(PRESET_IDS),
    fc.constantFrom<ReplayMode>('recorded', 'raw'),
    fc.integer({ min: 50, max: 3_000 }),
    fc.double({ min: 0.5, max: 0.95, noNaN: true }),
  )
  .map(([c, mode, tier2Cap, triggerRatio]) => ({
    ...c,
    set: { ...c.set, tier2Cap, triggerRatio, landingRatio: triggerRatio * 0.75 },
    mode,
  }));

/** A slider moved: B is A with one key changed (most memo keys then match, where a stale reuse would show). */
const dragArb: fc.Arbitrary<[Settings, Settings]> = fc
  .tuple(
    settingsArb,
    fc.constantFrom('tier2Cap', 'tier3Window', 'triggerRatio', 'contextWindow', 'tier1Distance'),
    fc.double({ min: 0.3, max: 1.7, noNaN: true }),
  )
  .map(([a, key, f]) => {
    const v = a.set[key];
    const base = typeof v === 'number' ? v : key === 'tier1Distance' ? 20 : 1;
    const spec = KEY_SPECS.find((k) => k.key === key);
    const scaled = key === 'triggerRatio' ? base * f : Math.round(base * f);
    const moved = Math.min(spec?.max ?? Infinity, Math.max(spec?.min ?? 1, scaled, key === 'triggerRatio' ? 0 : 1));
    return [a, { ...a, set: { ...a.set, [key]: moved } }];
  });

describe('warm cache = fresh cache', () => {
  it('on generated sessions, for any two settings', () => {
    fc.assert(
      fc.property(sessionArb(30), settingsArb, settingsArb, (s, a, b) => {
        expectWarmEqualsFresh(sessionTranscript(s), a, b);
      }),
      { numRuns: 30 },
    );
  }, 120_000);

  it('on generated sessions, for a slider moved one step', () => {
    fc.assert(
      fc.property(sessionArb(30), dragArb, (s, [a, b]) => {
        expectWarmEqualsFresh(sessionTranscript(s), a, b);
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});

describe('warm cache = fresh cache when only prices or cache rules move', () => {
  it('a write multiplier or a user price changes the dollars of the kept compaction rows and re-fetches', () => {
    fc.assert(
      fc.property(
        sessionArb(30),
        settingsArb,
        fc.double({ min: 1.1, max: 3, noNaN: true }),
        fc.double({ min: 0.5, max: 20, noNaN: true }),
        (s, a, writeMultiplier, input) => {
          const t = sessionTranscript(s);
          const base = mergeConfig(presetConfig(a.preset), a.set);
          const b: Settings = {
            ...a,
            set: {
              ...a.set,
              cache: { ...base.cache, writeMultiplier },
              prices: Object.fromEntries(
                [...new Set(t.threads.flatMap((th) => th.requests.map((r) => r.model ?? 'unknown')))].map((m) => [
                  m,
                  { input, output: input * 5 },
                ]),
              ),
            },
          };
          expectWarmEqualsFresh(t, a, b);
        },
      ),
      { numRuns: 25 },
    );
  }, 120_000);
});

describeReal('warm cache = fresh cache on every fixture', () => {
  for (const f of fixtureInputs()) {
    it(f.rel, () => {
      const r = parseTranscript(fileFromPath(f.path), companionFiles(f.path));
      if (!r.ok) throw new Error(r.error);
      const t = r.transcript;
      const window = logDefaults(t).contextWindow?.value ?? 200_000;
      const preset: PresetId = 'claude-code';
      // A: the log's own window; B: a quarter of it with a short tier-3 window, every other key as the preset.
      const a: Settings = { preset, set: { contextWindow: window }, mode: 'recorded' };
      const b: Settings = {
        preset: 'seeds',
        set: { contextWindow: Math.max(8_000, Math.floor(window / 4)), tier3Window: 3, tier1Distance: 9 },
        mode: 'raw',
      };
      expectWarmEqualsFresh(t, a, b);
    }, 120_000);
  }
});
