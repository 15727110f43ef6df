// Re-runs replay only the threads a settings change can affect (SPEC §9). While a thread replays, every
// config key its stages read is recorded with its value (a proxy over the config); a later run whose config
// holds the same values for all of those keys replays that thread identically — the replay is deterministic
// in the thread, the keys it read, the meter, calibration, mode, provider and a local summarizer — so the
// earlier result is reused. A sub-agent that never reached the trigger never read tier3Window, so moving
// that slider re-runs only the threads that did.
import type { PipelineConfig } from '../pipeline/config.ts';

/** Config paths read (`tier3Window`, `summarize.enabled`; `*` for the whole config) → JSON of the value. */
export type ConfigReads = Map<string, string>;

const WHOLE = '*';

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function track<T extends object>(target: T, prefix: string, reads: ConfigReads): T {
  // Stages read the config in their inner loops: after a key's first read, a get costs two lookups.
  const nested = new Map<string, object>();
  const seen = new Set<string>();
  const note = (key: string, value: unknown) => {
    seen.add(key);
    const path = prefix + key;
    if (!reads.has(path)) reads.set(path, JSON.stringify(value) ?? 'undefined');
  };
  return new Proxy(target, {
    get(t, key) {
      const value = (t as Record<string | symbol, unknown>)[key];
      if (typeof key !== 'string' || seen.has(key)) return value;
      const inner = nested.get(key);
      if (inner) return inner;
      if (isRecord(value)) {
        const p = track(value, `${prefix}${key}.`, reads);
        nested.set(key, p);
        return p;
      }
      note(key, value);
      return value;
    },
    has(t, key) {
      if (typeof key === 'string' && !seen.has(key)) note(key, Reflect.get(t, key));
      return Reflect.has(t, key);
    },
    ownKeys(t) {
      // Enumerating (a spread, JSON.stringify, Object.keys) depends on every key below this point.
      const path = prefix === '' ? WHOLE : prefix.slice(0, -1);
      if (!reads.has(path)) reads.set(path, JSON.stringify(t));
      return Reflect.ownKeys(t);
    },
    set() {
      throw new Error('the pipeline config is read-only during a replay');
    },
  });
}

/** `config` as the stages see it, recording into `reads` what they read. */
export function trackedConfig(config: PipelineConfig, reads: ConfigReads): PipelineConfig {
  return track(config, '', reads);
}

function valueAt(config: PipelineConfig, path: string): unknown {
  if (path === WHOLE) return config;
  let v: unknown = config;
  for (const part of path.split('.')) v = isRecord(v) ? v[part] : undefined;
  return v;
}

/** True when `config` holds the same value for every path in `reads`. */
export function sameReads(config: PipelineConfig, reads: ConfigReads): boolean {
  for (const [path, json] of reads) if ((JSON.stringify(valueAt(config, path)) ?? 'undefined') !== json) return false;
  return true;
}
