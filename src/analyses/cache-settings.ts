// The cache rules a request is simulated (or judged) under: the API's own rules for its model (which API follows
// from the run's provider — Bedrock serves Claude with Anthropic's rules — or, for what a log observed, from the
// model's maker), with the run's `cache.*` overrides on top. One place, so the timeline and the cost agree.
import { type CacheApi, type CacheRules, cacheRulesFor, isDeepSeek } from '../catalog/cache-rules.ts';
import { familyOf, parseModelId } from '../catalog/model-id.ts';
import type { Provider } from '../pairing/validate.ts';
import type { CacheConfig } from '../pipeline/config.ts';

/** The caching API behind a pairing provider. */
export function cacheApiOf(provider: Provider): CacheApi {
  if (provider === 'openai-chat' || provider === 'openai-responses') return 'openai';
  if (provider === 'gemini') return 'gemini';
  return 'anthropic';
}

/** The caching API that served a model as a log records it (its maker; Bedrock and Vertex Claude: Anthropic's). */
export function cacheApiOfModel(model: string | undefined): CacheApi {
  const family = model ? familyOf(parseModelId(model).bare) : 'other';
  // DeepSeek caches automatically and best effort, with no write fee: OpenAI's kind of cache (cache-rules.ts).
  return family === 'openai' || isDeepSeek(model) ? 'openai' : family === 'google' ? 'gemini' : 'anthropic';
}

export type EffectiveRules = Pick<CacheRules, 'api' | 'writes' | 'minCacheable' | 'step'> & {
  ttlSeconds: number;
  /** Anthropic writes with a TTL over 5 minutes are 1-hour writes (2× input, not 1.25×). */
  oneHourWrites: boolean;
};

/** `rulesFor` of one API and cache config, by model, for a run's walk over its requests: made once a model, and
 *  consecutive requests (which mostly share a model) answered from the last one without a map lookup. */
export class RulesByModel {
  private readonly byModel = new Map<string | undefined, EffectiveRules>();
  private lastModel: string | undefined;
  private last: EffectiveRules | undefined;
  constructor(
    private readonly api: CacheApi,
    private readonly cache: CacheConfig,
  ) {}
  of(model: string | undefined): EffectiveRules {
    if (this.last !== undefined && model === this.lastModel) return this.last;
    let r = this.byModel.get(model);
    if (r === undefined) {
      r = rulesFor(this.api, model, this.cache);
      this.byModel.set(model, r);
    }
    this.lastModel = model;
    this.last = r;
    return r;
  }
}

/** The rules for one request: the API's for its model, overridden by every non-null `cache.*` value. */
export function rulesFor(api: CacheApi, model: string | undefined, c: CacheConfig): EffectiveRules {
  const r = cacheRulesFor(api, model);
  return {
    api,
    writes: r.writes,
    minCacheable: c.minCacheable ?? r.minCacheable,
    step: c.step ?? r.step,
    ttlSeconds: c.ttlSeconds,
    oneHourWrites: r.writes === 'explicit' && c.ttlSeconds > 300,
  };
}
