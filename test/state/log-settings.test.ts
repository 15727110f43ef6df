// The settings a load starts from: a file opened after the sample starts from its own defaults (the log's provider
// and window), never from the sample's overrides, and nothing then differs from the preset; a sample's settings
// and a share link's are applied and named; the preset and mode the user picked carry over.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { logDefaults } from '../../src/analyses/log-defaults.ts';
import { fileFromPath } from '../../src/cli/node-input.ts';
import { parseTranscript } from '../../src/formats/index.ts';
import { diffKeys } from '../../src/pipeline/config.ts';
import { presetConfig } from '../../src/pipeline/presets.ts';
import { baselineConfig, freshConfig, INITIAL_CONFIG, loadedConfig } from '../../src/state/log-settings.ts';
import type { ConfigState } from '../../src/state/types.ts';
import { settingsOf } from '../../src/state/url-state.ts';
import { describeReal, loadReal, REPO_ROOT } from '../helpers/fixtures.ts';

const START: ConfigState = INITIAL_CONFIG;

function story() {
  const r = parseTranscript(fileFromPath(join(REPO_ROOT, 'public/samples/story-37-1.tierscope.json')), [], {});
  if (!r.ok) throw new Error(r.error);
  return logDefaults(r.transcript);
}

/** The bundled story sample opened the way the app opens it (its own settings over the log's). */
function afterSample(): ConfigState {
  const sample = { id: 'story-37-1', preset: 'seeds' as const, set: { contextWindow: 44_000, outputReserve: 8_000 } };
  const { config, warnings } = loadedConfig(START, story(), { sample }, null);
  expect(warnings).toEqual([]);
  return config;
}

describe('a sample brings its own settings, and says so', () => {
  it('the story opens with 44,000 / 8,000 over the log’s 200,000: two keys differ, named as the sample’s', () => {
    const c = afterSample();
    expect(c.config.contextWindow).toBe(44_000);
    expect(c.log?.contextWindow.value).toBe(200_000);
    expect(c.from).toEqual({ kind: 'sample', name: 'story-37-1', contextWindow: 44_000, provider: 'anthropic' });
    expect(diffKeys(c.config, baselineConfig(c.preset, c.log))).toEqual(['contextWindow', 'outputReserve']);
    expect(c.provider).toBe('anthropic');
  });

  it('invalid sample settings are reported and left out', () => {
    const { config, warnings } = loadedConfig(START, story(), { sample: { id: 'x', set: { tier3Window: -1 } } }, null);
    expect(warnings[0]).toMatch(/the sample's settings are invalid .*tier3Window/);
    expect(diffKeys(config.config, baselineConfig(config.preset, config.log))).toEqual([]);
  });
});

describeReal('a file opened after the sample starts from its own defaults', () => {
  for (const [rel, provider, window] of [
    ['swe-agent/swe-agent-marshmallow-1867-function-calling-replace.traj', 'openai-chat', 128_000],
    ['codex/simonw-codex-0.77-homelab.jsonl', 'openai-responses', 400_000],
    ['claude-code/ccviewer-fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl', 'anthropic', 200_000],
  ] as const)
    it(`${rel}: ${provider}, ${window}, 0 keys differ from the preset`, () => {
      const prev = { ...afterSample(), provider: 'bedrock' as const }; // and a provider override on top
      const log = logDefaults(loadReal(rel));
      const { config } = loadedConfig(prev, log, undefined, null);
      expect(config.provider).toBe(provider);
      expect(config.config.contextWindow).toBe(window);
      expect(config.config.outputReserve).toBe(32_000);
      expect(config.from).toBeNull();
      expect(diffKeys(config.config, baselineConfig(config.preset, config.log))).toEqual([]);
    });
});

describe('the user’s preset and mode carry over; overrides do not', () => {
  it('a preset and mode the user picked stay for the next file, with that file’s window', () => {
    const picked: ConfigState = {
      ...START,
      preset: 'kocoro-source',
      mode: 'raw',
      config: { ...presetConfig('kocoro-source'), tier3Window: 3 },
      lens: { preset: 'kocoro-source', mode: 'raw', encoding: 'o200k_base' },
    };
    const log = logDefaults({
      format: 'swe-agent',
      meta: { extra: { model: 'gpt-4o' } },
      threads: [],
      parseIssues: [],
    });
    const c = freshConfig(picked, log);
    expect(c.preset).toBe('kocoro-source');
    expect(c.mode).toBe('raw');
    expect(c.config).toEqual({ ...presetConfig('kocoro-source'), contextWindow: 128_000 });
    expect(c.provider).toBe('openai-chat');
  });
});

describe('a share link restores its settings, and says so', () => {
  it('the link’s provider and window are kept (overrides of the log’s, named as the link’s)', () => {
    const link = settingsOf({
      ...START,
      provider: 'gemini',
      config: { ...presetConfig('none'), contextWindow: 50_000 },
      preset: 'none',
    });
    const { config, warnings } = loadedConfig(START, story(), { settings: link }, { kind: 'link', name: 'share link' });
    expect(warnings).toEqual([]);
    expect(config).toMatchObject({
      preset: 'none',
      provider: 'gemini',
      from: { kind: 'link', contextWindow: 50_000, provider: 'gemini' },
    });
    expect(config.config.contextWindow).toBe(50_000);
    expect(config.log?.contextWindow.value).toBe(200_000);
    expect(config.lens).toEqual(START.lens);
  });

  it('a link with a preset this build does not know: the log’s defaults, with a warning', () => {
    const link = { ...settingsOf(START), preset: 'future-preset' };
    const { config, warnings } = loadedConfig(START, story(), { settings: link }, { kind: 'link', name: 'share link' });
    expect(warnings).toEqual(['preset "future-preset" is unknown; the log\'s defaults are used']);
    expect(config.from).toBeNull();
    expect(config.config.contextWindow).toBe(200_000);
  });
});
