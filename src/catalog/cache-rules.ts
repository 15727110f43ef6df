// How each API caches prompts (SPEC §5.4), which the simulated cache follows: Anthropic writes what a breakpoint
// marks and bills the write at a premium (1.25× input for 5 minutes, 2× for 1 hour), with a minimum cacheable
// length per model; OpenAI caches every prompt of 1,024 tokens or more by itself, in 128-token steps, with no write
// fee; Gemini caches implicitly from a per-model minimum, also without a write fee. Bedrock serves Claude with
// Anthropic's rules. The numbers and their sources are in reference/peers-and-bugs.md §4 (read 2026-12-01).

import { grouped } from '../lib/digits.ts';
import { parseModelId } from './model-id.ts';

export type CacheApi = 'anthropic' | 'openai' | 'gemini';

export type CacheRules = {
  api: CacheApi;
  /** explicit: the prompt up to the breakpoint is written (and billed as a write); automatic: the provider caches
   *  by itself and the uncached part is billed as plain input. */
  writes: 'explicit' | 'automatic';
  /** Shortest prefix the API caches, for this model. */
  minCacheable: number;
  /** A cache hit covers the shared prefix rounded down to a multiple of this many tokens past the minimum. */
  step: number;
  /** How long an entry lives without being read, as the provider documents it. */
  ttlSeconds: number;
  /** Where the minimum comes from, in words. */
  why: string;
};

/** Anthropic's minimum cacheable prompt by model (orq.ai and LiteLLM docs; the Anthropic page lists the same). A
 *  pattern matches the bare id with or without a date suffix (`claude-sonnet-4-20250514`). */
const ANTHROPIC_MIN: { models: RegExp; tokens: number }[] = [
  { models: /^claude-(opus-4-[56]|haiku-4-5)(-\d{8})?$/, tokens: 4096 },
  { models: /^claude-(sonnet-4-6|3-haiku|3-5-haiku)(-\d{8}|-latest)?$/, tokens: 2048 },
  {
    models: /^claude-(sonnet-4|sonnet-4-[05]|opus-4|opus-4-[01]|3-7-sonnet|3-5-sonnet|3-opus)(-\d{8}|-latest)?$/,
    tokens: 1024,
  },
];

/** Gemini's implicit-caching minimum (the newer caching page: 2,048 for 2.5 Flash and Pro, 4,096 for 3.x). */
const GEMINI_MIN: { models: RegExp; tokens: number }[] = [
  { models: /^gemini-3/, tokens: 4096 },
  { models: /^gemini-2\.5-(pro|flash)/, tokens: 2048 },
];

const OPENAI: CacheRules = {
  api: 'openai',
  writes: 'automatic',
  minCacheable: 1024,
  step: 128,
  ttlSeconds: 300,
  why: 'OpenAI caches prompts of 1,024 tokens or more, in 128-token steps, kept 5–10 minutes idle (the lower bound is used)',
};

/** DeepSeek's context caching (its "Context Caching" guide): automatic for every request, no write fee, prefixes
 *  stored in 64-token units, best effort ("cache construction takes seconds"), cleared when unused "within a few
 *  hours to a few days" (an hour is assumed). Served through the OpenAI-compatible API, read as `cached_tokens`. */
const DEEPSEEK: CacheRules = {
  api: 'openai',
  writes: 'automatic',
  minCacheable: 64,
  step: 64,
  ttlSeconds: 3600,
  why: 'DeepSeek caches every prompt by itself in 64-token units, best effort, for hours when unused (one hour assumed)',
};

/** A DeepSeek model (served with DeepSeek's own cache rules through an OpenAI-compatible API). */
export const isDeepSeek = (model: string | undefined) =>
  model !== undefined && parseModelId(model).bare.toLowerCase().startsWith('deepseek');

/** Per-model minimum tables: the API, how it writes, its table, the minimum of a model it does not list, and
 *  how its rule reads. */
const BY_TABLE = {
  anthropic: {
    writes: 'explicit',
    table: ANTHROPIC_MIN,
    fallback: 1024,
    listed: (name: string, min: string) => `Anthropic caches ${name} from ${min} tokens`,
    unlisted: (name: string) =>
      `${name} is not in Anthropic's minimum table: the documented floor of 1,024 tokens is used`,
  },
  gemini: {
    writes: 'automatic',
    table: GEMINI_MIN,
    fallback: 2048,
    listed: (name: string, min: string) =>
      `Gemini caches ${name} implicitly from ${min} tokens (lifetime undocumented: 5 minutes assumed)`,
    unlisted: (name: string) =>
      `${name} is not in Gemini's minimum table: 2,048 tokens assumed (lifetime undocumented: 5 minutes assumed)`,
  },
} as const;

/** The cache rules of `api` for a model (its bare id decides the minimum). */
export function cacheRulesFor(api: CacheApi, model: string | undefined): CacheRules {
  if (api === 'openai') return isDeepSeek(model) ? DEEPSEEK : OPENAI;
  const t = BY_TABLE[api];
  const bare = model ? parseModelId(model).bare.toLowerCase() : '';
  const name = model ?? 'an unnamed model';
  const min = t.table.find((row) => row.models.test(bare))?.tokens;
  return {
    api,
    writes: t.writes,
    minCacheable: min ?? t.fallback,
    step: 1,
    ttlSeconds: 300,
    why: min !== undefined ? t.listed(name, grouped(min)) : t.unlisted(name),
  };
}

/** Tokens read from cache for a shared prefix of `shared` tokens: none below the minimum, else rounded down to the
 *  API's step past the minimum (OpenAI: 1,024, 1,152, 1,280 …). */
export function cachedPrefix(shared: number, minCacheable: number, step: number): number {
  if (shared < minCacheable || shared <= 0) return 0;
  if (step <= 1) return shared;
  return minCacheable + Math.floor((shared - minCacheable) / step) * step;
}
