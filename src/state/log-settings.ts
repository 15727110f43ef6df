// The settings a load starts from (SPEC §1.1 "Defaults come from the log"), pure: the preset and mode the user
// picked, with the log's provider and context window — never the previous file's overrides. A share link or
// share file restores its own settings, and a bundled sample applies its own over the log's; both are named in
// `from` so the config panel can say so. What differs from the log's defaults is an override, shown as such.
import {
  DEFAULT_SETTINGS,
  type LogDefaults,
  mergeConfig,
  type PipelineConfig,
  type PresetId,
  presetConfig,
  withLogDefaults,
} from '../protocol/index.ts';
import type { ConfigState, Restore, SettingsSource } from './types.ts';
import { configOf } from './url-state.ts';

/** The config slice before anything is loaded: the default settings (the seeds preset), no log yet. */
export const INITIAL_CONFIG: ConfigState = {
  ...DEFAULT_SETTINGS,
  config: presetConfig(DEFAULT_SETTINGS.preset),
  log: null,
  lens: { preset: DEFAULT_SETTINGS.preset, mode: DEFAULT_SETTINGS.mode, encoding: DEFAULT_SETTINGS.encoding },
  from: null,
};

/** A preset's config with the log's window: what "differs from the preset" and every reset compare against. */
export function baselineConfig(preset: PresetId, log: LogDefaults | null): PipelineConfig {
  return withLogDefaults(presetConfig(preset), log);
}

/** The config slice for a freshly opened file: the user's preset, mode and encoding, the log's defaults. */
export function freshConfig(prev: ConfigState, log: LogDefaults): ConfigState {
  return {
    ...prev.lens,
    config: baselineConfig(prev.lens.preset, log),
    provider: log.provider.value,
    log,
    lens: prev.lens,
    from: null,
  };
}

/** The config slice after a load, and the warnings of what could not be restored. */
export function loadedConfig(
  prev: ConfigState,
  log: LogDefaults,
  restore: Restore | undefined,
  from: Pick<SettingsSource, 'kind' | 'name'> | null,
): { config: ConfigState; warnings: string[] } {
  const fresh = freshConfig(prev, log);
  if (restore?.settings) {
    const restored = configOf(restore.settings);
    if (!restored)
      return {
        config: fresh,
        warnings: [`preset "${restore.settings.preset}" is unknown; the log's defaults are used`],
      };
    const source = from && { ...from, contextWindow: restored.config.contextWindow, provider: restored.provider };
    return { config: { ...fresh, ...restored, from: source }, warnings: [] };
  }
  const sample = restore?.sample;
  if (!sample) return { config: fresh, warnings: [] };
  const preset = sample.preset ?? fresh.preset;
  let config = baselineConfig(preset, log);
  const warnings: string[] = [];
  try {
    if (sample.set) config = mergeConfig(config, sample.set);
  } catch (e) {
    warnings.push(`the sample's settings are invalid (${e instanceof Error ? e.message : String(e)}); not applied`);
  }
  const provider = sample.provider ?? fresh.provider;
  return {
    config: {
      ...fresh,
      preset,
      config,
      mode: sample.mode ?? fresh.mode,
      provider,
      from: { kind: 'sample', name: sample.id, contextWindow: config.contextWindow, provider },
    },
    warnings,
  };
}
