// Re-runs replay only the threads a settings change can affect (SPEC §9). While a thread replays, every
// config key its stages read is recorded with its value (accessors over the config); a later run whose config
// holds the same values for all of those keys replays that thread identically — the replay is deterministic
// in the thread, the keys it read, the meter, calibration, mode, provider and a local summarizer — so the
// earlier result is reused. A sub-agent that never reached the trigger never read tier3Window, so moving
// that slider re-runs only the threads that did. A gate a stage asked about and found shut (the trigger, the
// summarize line, the hard cap) is recorded as the largest estimate it saw, not as the window and ratios: the
// thread replays the same for any line still above it, so dragging the window or the trigger re-runs only the
// threads that come near the line.
import { DEFAULT_CONFIG, type Gate, gateShut, type PipelineConfig } from '../pipeline/config.ts';

/** Config keys read (`tier3Window`, `summarize` — groups whole) → JSON of the value; `gate:<gate>` → the largest
 *  estimate that gate was found shut for (a number). */
export type ConfigReads = Map<string, string>;

const GATE = 'gate:';

/** Record that `gate` was shut for `estimate` (keeps the largest). */
export function noteShut(reads: ConfigReads, gate: Gate, estimate: number): void {
  const key = GATE + gate;
  const was = reads.get(key);
  if (was === undefined || Number(was) < estimate) reads.set(key, String(estimate));
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function note(reads: ConfigReads, path: string, value: unknown): void {
  if (!reads.has(path)) reads.set(path, JSON.stringify(value) ?? 'undefined');
}

function readOnly(): never {
  throw new Error('the pipeline config is read-only during a replay');
}

/** Per-instance state of a tracked config (under a symbol: spreads and JSON see only the keys). */
type Slots = { target: Record<string, unknown>; reads: ConfigReads; seen: Uint8Array; values: unknown[] };
const SLOTS = Symbol('tracked');
type Tracked = { [SLOTS]: Slots };

/**
 * The tracked config has one own accessor per key, made once for the default key set, so every tracked
 * config has the same hidden class and a read after the first costs a flag check (the stages read the
 * config in their inner loops; a Proxy trap on every read cost several percent of a re-run). A group
 * (`summarize`, `hardcap`, `toolCaps` …) is recorded whole on its first read and handed out frozen.
 */
const KEYS = Object.keys(DEFAULT_CONFIG);
const DESCRIPTORS: PropertyDescriptorMap = {};
KEYS.forEach((key, i) => {
  DESCRIPTORS[key] = {
    enumerable: true,
    configurable: false,
    get(this: Tracked) {
      const s = this[SLOTS];
      if (s.seen[i] === 0) first(s, key, i);
      return s.values[i];
    },
    set: readOnly,
  };
});

function first(s: Slots, key: string, i: number): void {
  const value = s.target[key];
  s.seen[i] = 1;
  s.values[i] = isRecord(value) ? Object.freeze({ ...value }) : value;
  note(s.reads, key, value);
}

/** `config` as the stages see it, recording into `reads` what they read. Every config holds the default
 *  key set (mergeConfig fills it); a key outside it is not readable here. */
export function trackedConfig(config: PipelineConfig, reads: ConfigReads): PipelineConfig {
  const o = {} as Tracked;
  const slots: Slots = {
    target: config as unknown as Record<string, unknown>,
    reads,
    seen: new Uint8Array(KEYS.length),
    values: new Array(KEYS.length),
  };
  Object.defineProperty(o, SLOTS, { value: slots, enumerable: false });
  Object.defineProperties(o, DESCRIPTORS);
  Object.preventExtensions(o);
  return o as unknown as PipelineConfig;
}

/** True when `config` holds the same value for every key in `reads` and keeps every recorded gate shut. */
export function sameReads(config: PipelineConfig, reads: ConfigReads): boolean {
  const c = config as unknown as Record<string, unknown>;
  for (const [key, json] of reads) {
    if (key.startsWith(GATE)) {
      if (!gateShut(key.slice(GATE.length) as Gate, Number(json), config)) return false;
    } else if ((JSON.stringify(c[key]) ?? 'undefined') !== json) return false;
  }
  return true;
}
