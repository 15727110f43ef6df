// Resolve analysis settings from CLI flags: --preset, --config file.json, repeatable --set key=value,
// --mode, --provider, --encoding; and which flags each command (analyze, share, minimize) takes. Every bad
// value is a UsageError (exit 2) with a one-line reason. The provider, the context window and the cache TTL
// default to the log's own (analyses/log-defaults.ts) unless a flag or the config file sets them.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { type LogDefaults, withLogDefaults } from '../analyses/settings-origin.ts';
import { PROVIDERS, type Provider } from '../pairing/validate.ts';
import { ConfigError, mergeConfig, type PipelineConfig, setKey } from '../pipeline/config.ts';
import { PRESET_IDS, type PresetId, presetConfig } from '../pipeline/presets.ts';
import type { ReplayMode } from '../replay/inputs.ts';
import { ENCODINGS, type EncodingName } from '../tokens/tokenizer.ts';
import { option, type ParsedArgs, UsageError } from './args.ts';

export type Settings = {
  preset: PresetId;
  config: PipelineConfig;
  mode: ReplayMode;
  provider: Provider;
  encoding: EncodingName;
};

const VALUED = ['format', 'provider', 'encoding', 'preset', 'config', 'set', 'mode', 'session'] as const;

export type CommandFlags = { valued: readonly string[]; booleans: readonly string[] };

/** Flags each command accepts (a flag of another command is an unknown option there). */
export const COMMANDS: Record<'analyze' | 'share' | 'minimize' | 'scan' | 'serve', CommandFlags> = {
  analyze: { valued: VALUED, booleans: ['json', 'help'] },
  share: {
    valued: [...VALUED, 'base-url', 'minimize', 'max-evals', 'out', 'view'],
    booleans: ['redact', 'redact-paths', 'help'],
  },
  minimize: { valued: [...VALUED, 'predicate', 'out', 'max-evals'], booleans: ['redact', 'redact-paths', 'help'] },
  scan: { valued: ['since', 'until', 'cache-dir'], booleans: ['json', 'ndjson', 'csv', 'no-cache', 'help'] },
  serve: { valued: ['host', 'port', 'app'], booleans: ['open', 'help'] },
};

/** Every flag of every command: to find the command before parsing with its own flags. */
export const ALL_FLAGS: CommandFlags = {
  valued: [...new Set(Object.values(COMMANDS).flatMap((c) => c.valued))],
  booleans: [...new Set(Object.values(COMMANDS).flatMap((c) => c.booleans))],
};

/** A positive integer flag (e.g. --max-evals), or the fallback when absent. */
export function positiveInt(args: ParsedArgs, name: string, fallback: number): number {
  const v = option(args, name);
  if (v === undefined) return fallback;
  if (!/^\d+$/.test(v) || Number(v) < 1) throw new UsageError(`--${name} needs a positive integer (got "${v}")`);
  return Number(v);
}

function oneOf<T extends string, F extends T | null>(
  name: string,
  value: string | undefined,
  allowed: readonly T[],
  fallback: F,
): T | F {
  if (value === undefined) return fallback;
  if (!allowed.includes(value as T)) throw new UsageError(`unknown ${name} "${value}" (one of ${allowed.join(', ')})`);
  return value as T;
}

/** Settings as the flags give them: provider null and `windowChosen`/`ttlChosen` false leave those to the log. */
export type FlagSettings = Omit<Settings, 'provider'> & {
  provider: Provider | null;
  windowChosen: boolean;
  ttlChosen: boolean;
};

/** The settings of a run: the flags, with the log's provider, window and cache TTL where the flags leave them open. */
export function settingsFor(f: FlagSettings, d: LogDefaults): Settings {
  const { windowChosen, ttlChosen, provider, config, ...rest } = f;
  const log = withLogDefaults(config, d);
  return {
    ...rest,
    config: {
      ...log,
      contextWindow: windowChosen ? config.contextWindow : log.contextWindow,
      cache: { ...log.cache, ttlSeconds: ttlChosen ? config.cache.ttlSeconds : log.cache.ttlSeconds },
    },
    provider: provider ?? d.provider.value,
  };
}

const setsKey = (assignment: string, key: string) => assignment.slice(0, assignment.indexOf('=')).trim() === key;

export function resolveSettings(args: ParsedArgs): FlagSettings {
  const preset = oneOf('preset', option(args, 'preset'), PRESET_IDS, 'seeds');
  let config = presetConfig(preset);
  let windowChosen = false;
  let ttlChosen = false;
  try {
    const file = option(args, 'config');
    if (file !== undefined) {
      let parsed: unknown;
      // Only a regular file: a FIFO or a device would block the read forever (issue 19, item 10).
      if (!existsSync(file) || !statSync(file).isFile())
        throw new UsageError(`cannot read config ${file}: ${existsSync(file) ? 'not a regular file' : 'no such file'}`);
      try {
        parsed = JSON.parse(readFileSync(file, 'utf8'));
      } catch (e) {
        throw new UsageError(`cannot read config ${file}: ${e instanceof Error ? e.message : String(e)}`);
      }
      const p = (parsed as { preset?: unknown }).preset;
      if (typeof p === 'string' && option(args, 'preset') === undefined) {
        config = presetConfig(oneOf('preset', p, PRESET_IDS, 'seeds'));
      }
      config = mergeConfig(config, parsed);
      windowChosen = typeof parsed === 'object' && parsed !== null && 'contextWindow' in parsed;
      const cache = (parsed as { cache?: unknown }).cache;
      ttlChosen =
        (typeof cache === 'object' && cache !== null && 'ttlSeconds' in cache) ||
        (typeof parsed === 'object' && parsed !== null && 'cache.ttlSeconds' in parsed);
    }
    for (const a of args.options.get('set') ?? []) {
      config = setKey(config, a);
      windowChosen ||= setsKey(a, 'contextWindow');
      ttlChosen ||= setsKey(a, 'cache.ttlSeconds');
    }
  } catch (e) {
    if (e instanceof ConfigError) throw new UsageError(e.message);
    throw e;
  }
  return {
    preset,
    config,
    mode: oneOf('mode', option(args, 'mode'), ['recorded', 'raw'] as const, 'recorded'),
    provider: oneOf('provider', option(args, 'provider'), PROVIDERS, null),
    encoding: oneOf('encoding', option(args, 'encoding'), ENCODINGS, 'o200k_base'),
    windowChosen,
    ttlChosen,
  };
}
