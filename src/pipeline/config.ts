// Pipeline configuration (SPEC §4 table): every key with its default (the `seeds` preset), a JSON
// schema for the UI editor, and helpers to resolve partial configs and set dotted keys from the CLI
// (`--set tier3Window=5`). Values are validated here so stages can trust them.

import type { UserPrices } from '../catalog/prices.ts';

type SummarizerKind = 'extractive' | 'http' | 'fail';

/** The simulated prompt cache (SPEC §4 `cache.*`). A null value follows the API's own rules for each request's
 *  model (catalog/cache-rules.ts) and its catalog prices; a number overrides them for every request. */
export type CacheConfig = {
  ttlSeconds: number;
  minCacheable: number | null;
  /** Tokens a cache hit is rounded down to past the minimum (OpenAI: 128). */
  step: number | null;
  /** Cache read price as a multiple of the input price. */
  readMultiplier: number | null;
  /** Cache write price as a multiple of the input price (whatever the TTL). */
  writeMultiplier: number | null;
};

export type PipelineConfig = {
  contextWindow: number;
  outputReserve: number;
  triggerRatio: number;
  /** When set, trigger = max(triggerRatio × window, window − triggerBufferTokens) (Kocoro's absolute buffer). */
  triggerBufferTokens: number | null;
  landingRatio: number;
  /** When set, landing = max(landingRatio × window, window − landingBufferTokens). */
  landingBufferTokens: number | null;
  observationWindow: number;
  guiTools: string[];
  spillThreshold: number;
  spillPreview: number;
  batchAggregateTarget: number;
  minAggregateSpill: number;
  selfCappedTools: string[];
  /** Declared per-tool result caps (runes): a result over its cap spills even below spillThreshold. */
  toolCaps: Record<string, number>;
  tiersEnabled: boolean;
  tier3Window: number;
  tier1Distance: number;
  tier2Cap: number;
  tier2SummarizeMin: number;
  summaryAttemptsPerPass: number;
  floorTools: string[];
  floorScope: 'block' | 'message';
  microcompact: { enabled: boolean; keepRecent: number; excludeTools: string[]; clearAtLeast: number };
  summarize: { enabled: boolean; breakerFailures: number; breakerCooldown: number };
  hardcap: { enabled: boolean; minRecentTurns: number; keepLastMessages: number | null };
  summarizer: SummarizerKind;
  cache: CacheConfig;
  /** Prices typed by the user ($/Mtok) for models the catalog does not list, by model id as the log writes it. */
  prices: UserPrices;
};

export const DEFAULT_CONFIG: PipelineConfig = {
  contextWindow: 200_000,
  outputReserve: 32_000,
  triggerRatio: 0.8,
  triggerBufferTokens: null,
  landingRatio: 0.6,
  landingBufferTokens: null,
  observationWindow: 3,
  guiTools: ['screenshot', 'computer', 'computer_use', 'browser', 'browser_*'],
  spillThreshold: 50_000,
  spillPreview: 2_000,
  batchAggregateTarget: 200_000,
  minAggregateSpill: 5_000,
  selfCappedTools: ['file_read'],
  toolCaps: {},
  tiersEnabled: true,
  tier3Window: 8,
  tier1Distance: 20,
  tier2Cap: 300,
  tier2SummarizeMin: 2_000,
  summaryAttemptsPerPass: 2,
  floorTools: ['file_read', 'grep', 'glob', 'directory_list', 'browser_*'],
  floorScope: 'block',
  microcompact: { enabled: false, keepRecent: 5, excludeTools: [], clearAtLeast: 0 },
  summarize: { enabled: true, breakerFailures: 3, breakerCooldown: 5 },
  hardcap: { enabled: true, minRecentTurns: 2, keepLastMessages: null },
  summarizer: 'extractive',
  cache: { ttlSeconds: 300, minCacheable: null, step: null, readMultiplier: null, writeMultiplier: null },
  prices: {},
};

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Describes every key for the UI (control type, bounds, help) and for validation. */
export type KeySpec = {
  key: string;
  kind: 'int' | 'ratio' | 'bool' | 'list' | 'enum' | 'map' | 'int-or-null' | 'ratio-or-null' | 'prices';
  min?: number;
  max?: number;
  options?: string[];
  help: string;
  /** What null means for an `-or-null` key (shown in place of a number): "off", "per model" … */
  nullLabel?: string;
  /** What an arrow key moves the control by (1, or 0.01 for ratios, when unset), and with Shift held. */
  step?: number;
  bigStep?: number;
};

/** Token sizes of a window move in steps a person uses: 1k, or 4k with Shift. */
const TOKENS_STEP = { step: 1000, bigStep: 4000 };

export const KEY_SPECS: readonly KeySpec[] = [
  { key: 'contextWindow', kind: 'int', min: 1000, max: 10_000_000, help: 'context window (tokens)', ...TOKENS_STEP },
  {
    key: 'outputReserve',
    kind: 'int',
    min: 0,
    max: 1_000_000,
    help: 'tokens kept free for the reply',
    ...TOKENS_STEP,
  },
  { key: 'triggerRatio', kind: 'ratio', min: 0, max: 1, help: 'lossy stages run while estimate ≥ ratio × window' },
  {
    key: 'triggerBufferTokens',
    kind: 'int-or-null',
    min: 0,
    max: 10_000_000,
    help: 'trigger = max(ratio·W, W − buffer)',
    ...TOKENS_STEP,
  },
  { key: 'landingRatio', kind: 'ratio', min: 0, max: 1, help: 'summarisation aims below ratio × window' },
  {
    key: 'landingBufferTokens',
    kind: 'int-or-null',
    min: 0,
    max: 10_000_000,
    help: 'landing = max(ratio·W, W − buffer)',
    ...TOKENS_STEP,
  },
  { key: 'observationWindow', kind: 'int', min: 0, max: 10_000_000, help: 'GUI observation calls kept verbatim' },
  { key: 'guiTools', kind: 'list', help: 'GUI tool name patterns (* wildcard)' },
  { key: 'spillThreshold', kind: 'int', min: 1, max: 100_000_000, help: 'results over this many runes spill' },
  { key: 'spillPreview', kind: 'int', min: 0, max: 1_000_000, help: 'runes kept as spill preview' },
  { key: 'batchAggregateTarget', kind: 'int', min: 1, max: 100_000_000, help: 'per-batch rune target' },
  { key: 'minAggregateSpill', kind: 'int', min: 0, max: 100_000_000, help: 'smallest result the batch target spills' },
  { key: 'selfCappedTools', kind: 'list', help: 'tools never spilled' },
  { key: 'toolCaps', kind: 'map', help: 'declared per-tool result caps (runes)' },
  { key: 'tiersEnabled', kind: 'bool', help: 'run the tiers stage' },
  { key: 'tier3Window', kind: 'int', min: 0, max: 10_000, help: 'tool-result messages kept untouched' },
  { key: 'tier1Distance', kind: 'int', min: 0, max: 10_000, help: 'distance from which results become stubs' },
  { key: 'tier2Cap', kind: 'int', min: 10, max: 1_000_000, help: 'runes after Tier-2 compression' },
  { key: 'tier2SummarizeMin', kind: 'int', min: 0, max: 100_000_000, help: 'runes above which Tier 2 tries a summary' },
  {
    key: 'summaryAttemptsPerPass',
    kind: 'int',
    min: 0,
    max: 1000,
    help: 'summary attempts per pass (success or failure)',
  },
  { key: 'floorTools', kind: 'list', help: 'tools never below Tier 2' },
  { key: 'floorScope', kind: 'enum', options: ['block', 'message'], help: 'floor per block or per message' },
  { key: 'microcompact.enabled', kind: 'bool', help: 'clear old tool results' },
  { key: 'microcompact.keepRecent', kind: 'int', min: 0, max: 10_000, help: 'results kept' },
  { key: 'microcompact.excludeTools', kind: 'list', help: 'tools never cleared' },
  {
    key: 'microcompact.clearAtLeast',
    kind: 'int',
    min: 0,
    max: 10_000_000,
    help: 'clear only if this many tokens are freed',
  },
  { key: 'summarize.enabled', kind: 'bool', help: 'summarise old turns' },
  { key: 'summarize.breakerFailures', kind: 'int', min: 1, max: 1000, help: 'failures that open the breaker' },
  {
    key: 'summarize.breakerCooldown',
    kind: 'int',
    min: 0,
    max: 100_000,
    help: 'requests without summarising after that',
  },
  { key: 'hardcap.enabled', kind: 'bool', help: 'drop oldest messages to fit' },
  { key: 'hardcap.minRecentTurns', kind: 'int', min: 0, max: 1000, help: 'recent turns never dropped' },
  {
    key: 'hardcap.keepLastMessages',
    kind: 'int-or-null',
    min: 1,
    max: 1_000_000,
    help: 'keep only the last N messages (sliding window)',
  },
  { key: 'summarizer', kind: 'enum', options: ['extractive', 'http', 'fail'], help: 'summary source' },
  {
    key: 'cache.ttlSeconds',
    kind: 'int',
    min: 0,
    max: 86_400,
    help: 'prompt-cache TTL (s); over 300 on Anthropic: 1-hour writes',
  },
  {
    key: 'cache.minCacheable',
    kind: 'int-or-null',
    min: 0,
    max: 1_000_000,
    help: 'minimum cacheable prefix (tokens)',
    nullLabel: 'per model',
  },
  {
    key: 'cache.step',
    kind: 'int-or-null',
    min: 1,
    max: 100_000,
    help: 'cache hits rounded down to this many tokens (OpenAI 128)',
    nullLabel: 'per API',
  },
  {
    key: 'cache.readMultiplier',
    kind: 'ratio-or-null',
    min: 0,
    max: 10,
    help: 'cache read price × input',
    nullLabel: 'catalog price',
  },
  {
    key: 'cache.writeMultiplier',
    kind: 'ratio-or-null',
    min: 0,
    max: 10,
    help: 'cache write price × input',
    nullLabel: 'catalog price',
  },
  { key: 'prices', kind: 'prices', help: 'your prices ($/Mtok) for models without a catalog price' },
];

const PRICE_FIELDS = ['input', 'output', 'cacheRead', 'cacheWrite5m', 'cacheWrite1h'] as const;

/** User prices: `{ "<model>": { input, output, cacheRead?, cacheWrite5m?, cacheWrite1h? } }` in $/Mtok. */
function checkPrices(value: unknown, bad: (why: string) => ConfigError): UserPrices {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad('must be an object');
  const out: UserPrices = {};
  for (const [model, p] of Object.entries(value)) {
    if (model.trim() === '') throw bad('a model id is empty');
    if (typeof p !== 'object' || p === null || Array.isArray(p)) throw bad(`prices of "${model}" must be an object`);
    const rec = p as Record<string, unknown>;
    for (const k of Object.keys(rec))
      if (!(PRICE_FIELDS as readonly string[]).includes(k)) throw bad(`"${model}": unknown price "${k}"`);
    for (const k of PRICE_FIELDS) {
      const v = rec[k];
      if (v === undefined && k !== 'input' && k !== 'output') continue;
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 100_000)
        throw bad(`"${model}".${k} must be a price in $/Mtok between 0 and 100000`);
    }
    out[model] = { ...(rec as UserPrices[string]) };
  }
  return out;
}

const SPEC_BY_KEY = new Map(KEY_SPECS.map((s) => [s.key, s]));

export class ConfigError extends Error {}

function getPath(o: unknown, key: string): unknown {
  let cur = o;
  for (const part of key.split('.')) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

function setPath(o: Record<string, unknown>, key: string, value: unknown): void {
  const parts = key.split('.');
  let cur = o;
  for (const p of parts.slice(0, -1)) {
    const next = cur[p];
    cur[p] = typeof next === 'object' && next !== null ? { ...(next as Record<string, unknown>) } : {};
    cur = cur[p] as Record<string, unknown>;
  }
  cur[parts[parts.length - 1]] = value;
}

/** Check one value against its key spec; returns the normalized value or throws ConfigError. */
export function checkValue(key: string, value: unknown): unknown {
  const spec = SPEC_BY_KEY.get(key);
  if (!spec) throw new ConfigError(`unknown config key "${key}"`);
  const bad = (why: string) => new ConfigError(`${key}: ${why} (got ${JSON.stringify(value)})`);
  switch (spec.kind) {
    case 'int':
    case 'int-or-null':
    case 'ratio-or-null':
    case 'ratio': {
      if (value === null && spec.kind.endsWith('-or-null')) return null;
      if (typeof value !== 'number' || !Number.isFinite(value)) throw bad('must be a number');
      if (!spec.kind.startsWith('ratio') && !Number.isInteger(value)) throw bad('must be an integer');
      if (spec.min !== undefined && value < spec.min) throw bad(`must be ≥ ${spec.min}`);
      if (spec.max !== undefined && value > spec.max) throw bad(`must be ≤ ${spec.max}`);
      return value;
    }
    case 'bool':
      if (typeof value !== 'boolean') throw bad('must be true or false');
      return value;
    case 'list':
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw bad('must be a list of strings');
      return [...value];
    case 'enum':
      if (typeof value !== 'string' || !spec.options?.includes(value))
        throw bad(`must be one of ${spec.options?.join(', ')}`);
      return value;
    case 'map':
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad('must be an object');
      for (const v of Object.values(value)) if (typeof v !== 'number' || v < 0) throw bad('values must be numbers ≥ 0');
      return { ...(value as Record<string, number>) };
    case 'prices':
      return checkPrices(value, bad);
  }
}

/** Merge a partial config (as parsed from JSON) over a base, validating every key it sets. */
export function mergeConfig(base: PipelineConfig, partial: unknown): PipelineConfig {
  if (typeof partial !== 'object' || partial === null || Array.isArray(partial)) {
    throw new ConfigError('config must be a JSON object');
  }
  const out = structuredClone(base) as unknown as Record<string, unknown>;
  const visit = (o: Record<string, unknown>, prefix: string) => {
    for (const [k, v] of Object.entries(o)) {
      const key = prefix ? `${prefix}.${k}` : k;
      if (k === 'preset' && !prefix) continue;
      if (!SPEC_BY_KEY.has(key) && typeof v === 'object' && v !== null && !Array.isArray(v)) {
        visit(v as Record<string, unknown>, key);
        continue;
      }
      setPath(out, key, checkValue(key, v));
    }
  };
  visit(partial as Record<string, unknown>, '');
  return out as unknown as PipelineConfig;
}

/** Parse a `key=value` pair from the CLI (value as JSON, else a bare string) and apply it. */
export function setKey(base: PipelineConfig, assignment: string): PipelineConfig {
  const eq = assignment.indexOf('=');
  if (eq <= 0) throw new ConfigError(`--set needs key=value (got "${assignment}")`);
  const key = assignment.slice(0, eq).trim();
  const raw = assignment.slice(eq + 1).trim();
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    value =
      SPEC_BY_KEY.get(key)?.kind === 'list'
        ? raw
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : raw;
  }
  const out = structuredClone(base) as unknown as Record<string, unknown>;
  setPath(out, key, checkValue(key, value));
  return out as unknown as PipelineConfig;
}

/** Read a (dotted) key of a config, for the UI controls. */
export function getKey(config: PipelineConfig, key: string): Json {
  return getPath(config, key) as Json;
}

/** Keys whose values differ between two configs (dotted), for URL state and "modified" badges. */
export function diffKeys(a: PipelineConfig, b: PipelineConfig): string[] {
  return KEY_SPECS.filter((s) => JSON.stringify(getPath(a, s.key)) !== JSON.stringify(getPath(b, s.key))).map(
    (s) => s.key,
  );
}

/** Trigger line in tokens. */
export function triggerTokens(c: PipelineConfig): number {
  const byRatio = c.triggerRatio * c.contextWindow;
  return c.triggerBufferTokens === null ? byRatio : Math.max(byRatio, c.contextWindow - c.triggerBufferTokens);
}

/** Landing line in tokens (summarisation aims below it). */
export function landingTokens(c: PipelineConfig): number {
  const byRatio = c.landingRatio * c.contextWindow;
  return c.landingBufferTokens === null ? byRatio : Math.max(byRatio, c.contextWindow - c.landingBufferTokens);
}

/** The hard cap: what must fit (window minus the output reserve). */
export function hardcapTokens(c: PipelineConfig): number {
  return c.contextWindow - c.outputReserve;
}

/** The thresholds a stage compares the prompt's estimate with before it does anything: the trigger (tiers,
 *  microcompact), the trigger or landing line whichever is higher (summarize), the hard cap (hardcap). */
export type Gate = 'trigger' | 'summarize' | 'hardcap';

/** Whether `gate` stays shut for an estimate of `estimate` tokens under `c` (the stage does nothing): below the
 *  line, or for the hard cap at or below it. Monotone: shut for an estimate, shut for every smaller one. */
export function gateShut(gate: Gate, estimate: number, c: PipelineConfig): boolean {
  if (gate === 'hardcap') return estimate - hardcapTokens(c) <= 0;
  const line = gate === 'trigger' ? triggerTokens(c) : Math.max(triggerTokens(c), landingTokens(c));
  return estimate < line;
}

const PRICE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['input', 'output'],
  properties: Object.fromEntries(PRICE_FIELDS.map((k) => [k, { type: 'number', minimum: 0, maximum: 100_000 }])),
};

/** JSON schema of the config (for the UI's Monaco editor validation). */
export function configSchema(): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const s of KEY_SPECS) {
    const t =
      s.kind === 'bool'
        ? { type: 'boolean' }
        : s.kind === 'list'
          ? { type: 'array', items: { type: 'string' } }
          : s.kind === 'enum'
            ? { enum: s.options }
            : s.kind === 'map'
              ? { type: 'object', additionalProperties: { type: 'number', minimum: 0 } }
              : s.kind === 'prices'
                ? { type: 'object', additionalProperties: PRICE_SCHEMA }
                : {
                    type:
                      s.kind === 'int-or-null'
                        ? ['integer', 'null']
                        : s.kind === 'ratio-or-null'
                          ? ['number', 'null']
                          : s.kind === 'ratio'
                            ? 'number'
                            : 'integer',
                    minimum: s.min,
                    maximum: s.max,
                  };
    setPath(props, s.key.replace(/\./g, '.properties.'), { ...t, description: s.help });
  }
  const objectify = (o: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(o)) {
      const rec = v as Record<string, unknown>;
      out[k] =
        'properties' in rec && !('type' in rec)
          ? {
              type: 'object',
              additionalProperties: false,
              properties: objectify(rec.properties as Record<string, unknown>),
            }
          : v;
    }
    return out;
  };
  return {
    type: 'object',
    additionalProperties: false,
    properties: { preset: { type: 'string' }, ...objectify(props) },
  };
}
