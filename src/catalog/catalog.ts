// The model catalog (SPEC §5.4): for a model id as a log writes it, its maker, where it was served, its context
// window and prices (input, output, cache read, 5-minute and 1-hour cache writes, the long-context tier), from
// @pydantic/genai-prices — a maintained, offline price list bundled with the app and the CLI (no network: its
// `updatePrices` is never called). A model the catalog does not list comes back `known: false` with the reason;
// nothing here falls back to another model's numbers.
import { calcPrice, findProvider, type ModelInfo, type ModelPrice, type Provider } from '@pydantic/genai-prices';
import type { Tokens } from '../model/units.ts';
import { familyOf, type ModelFamily, type ParsedModelId, parseModelId } from './model-id.ts';

/** The catalog this build carries (checked against node_modules by test/catalog/catalog.test.ts). */
export const CATALOG = {
  name: '@pydantic/genai-prices',
  version: '0.1.8',
  /** The day that version was published on the npm registry. */
  published: '2026-09-23',
} as const;

export type CatalogInfo = typeof CATALOG;

/** US dollars per million tokens. */
type UsdPerMtok = number;

export type TokenPrices = {
  input: UsdPerMtok;
  output: UsdPerMtok;
  /** null: the catalog lists no cache-read price for this model. */
  cacheRead: UsdPerMtok | null;
  /** null: no separate price for writing the cache (OpenAI and Gemini bill written tokens as input). */
  cacheWrite5m: UsdPerMtok | null;
  /** null: the model has no 1-hour cache, or the catalog does not price it. */
  cacheWrite1h: UsdPerMtok | null;
};

/** Prices that apply to the whole request once its input exceeds `aboveTokens` (Anthropic and Gemini rule). */
export type LongContextPrices = TokenPrices & { aboveTokens: Tokens };

export type ModelPrices = TokenPrices & { longContext: LongContextPrices | null };

export type KnownModel = {
  known: true;
  id: ParsedModelId;
  /** The catalog entry that matched (`gpt-5.1-codex-max` is priced as `gpt-5.1`), and its provider. */
  catalogId: string;
  catalogProvider: string;
  name: string;
  /** null: the catalog lists no context window for it. */
  contextWindow: Tokens | null;
  /** The prices in force at the date asked for (the catalog keeps dated price changes). */
  prices: ModelPrices | null;
  catalog: CatalogInfo;
};

type UnknownModel = { known: false; id: ParsedModelId; reason: string; catalog: CatalogInfo };

export type ModelLookup = KnownModel | UnknownModel;

/** The catalog provider holding a model: the cloud for Bedrock/Vertex/OpenRouter/Azure, else its maker. */
function catalogProviderOf(id: ParsedModelId): Provider | undefined {
  switch (id.host) {
    case 'bedrock':
      return findProvider({ providerId: 'aws' });
    case 'vertex':
      return findProvider({ providerId: 'google' });
    case 'openrouter':
      return findProvider({ providerId: 'openrouter' });
    case 'azure':
      return findProvider({ providerId: 'azure' });
    case 'direct':
      break;
  }
  if (id.family === 'anthropic') return findProvider({ providerId: 'anthropic' });
  if (id.family === 'openai') return findProvider({ providerId: 'openai' });
  if (id.family === 'google') return findProvider({ providerId: 'google' });
  return id.bare ? findProvider({ modelId: id.bare }) : undefined;
}

/** The id the catalog provider matches on (Bedrock and OpenRouter entries match their own spelling). */
function lookupId(id: ParsedModelId): string {
  if (id.host === 'bedrock') return id.hostId.includes('.') ? id.hostId : `anthropic.${id.bare}`;
  return id.host === 'openrouter' ? id.hostId : id.bare;
}

type Field = ModelPrice[string];

function base(v: Field): number | null {
  if (typeof v === 'number') return v;
  return v ? v.base : null;
}

function tierAt(v: Field, start: number): number | null {
  if (typeof v === 'number') return v;
  if (!v) return null;
  return v.tiers.find((t) => t.start === start)?.price ?? v.base;
}

function pricesOf(p: ModelPrice): ModelPrices | null {
  const input = base(p.input_mtok);
  const output = base(p.output_mtok);
  if (input === null || output === null) return null;
  // Every tiered field of a catalog entry starts its (single) tier at the same input size.
  const tiered = [p.input_mtok, p.output_mtok, p.cache_read_mtok, p.cache_write_mtok, p.cache_write_1h_mtok].find(
    (v) => typeof v === 'object' && v.tiers.length > 0,
  );
  const start = typeof tiered === 'object' ? tiered.tiers[0].start : null;
  return {
    input,
    output,
    cacheRead: base(p.cache_read_mtok),
    cacheWrite5m: base(p.cache_write_mtok),
    cacheWrite1h: base(p.cache_write_1h_mtok),
    longContext:
      start === null
        ? null
        : {
            aboveTokens: start,
            input: tierAt(p.input_mtok, start) ?? input,
            output: tierAt(p.output_mtok, start) ?? output,
            cacheRead: tierAt(p.cache_read_mtok, start),
            cacheWrite5m: tierAt(p.cache_write_mtok, start),
            cacheWrite1h: tierAt(p.cache_write_1h_mtok, start),
          },
  };
}

/** Without a date: the newest prices the catalog lists (a fixed far date, so a lookup never reads the clock;
 *  noon UTC falls in the peak hours of the few providers with time-of-day prices). */
const NEWEST = new Date('9999-12-31T12:00:00Z');

/**
 * Look a model up as the log names it. `at` picks the prices in force then (a request's time; default: the
 * newest); an id the catalog does not list is `known: false` with the reason, never another model's numbers.
 */
export function lookupModel(raw: string, at: Date = NEWEST): ModelLookup {
  const id = parseModelId(raw);
  const unknown = (reason: string): UnknownModel => ({ known: false, id, reason, catalog: CATALOG });
  if (!id.bare) return unknown('no model id');
  const provider = catalogProviderOf(id);
  if (!provider) return unknown(`${CATALOG.name} ${CATALOG.version} knows no provider for "${raw}"`);
  const found = calcPrice({}, lookupId(id), { provider, timestamp: at });
  if (!found) return unknown(`${CATALOG.name} ${CATALOG.version} does not list "${raw}" (${provider.name})`);
  const model: ModelInfo = found.model;
  return {
    known: true,
    id,
    catalogId: model.id,
    catalogProvider: provider.id,
    name: model.name ?? model.id,
    contextWindow: model.context_window ?? null,
    prices: pricesOf(found.model_price),
    catalog: CATALOG,
  };
}

/** Whether the catalog prices a model the same at any time: one price list, not prices by date or time of day
 *  (then a lookup at one time answers for every time). False for a model it does not list. */
export function pricedAlikeAtAnyTime(raw: string): boolean {
  const id = parseModelId(raw);
  const provider = id.bare ? catalogProviderOf(id) : undefined;
  const found = provider ? calcPrice({}, lookupId(id), { provider }) : null;
  return found ? !Array.isArray(found.model.prices) : false;
}

/** The distinct context windows the catalog lists for a maker's models (its own API), ascending. */
export function familyWindows(family: ModelFamily): Tokens[] {
  const id =
    family === 'anthropic' ? 'anthropic' : family === 'openai' ? 'openai' : family === 'google' ? 'google' : '';
  const provider = id ? findProvider({ providerId: id }) : undefined;
  const windows = new Set<number>();
  for (const m of provider?.models ?? [])
    if (m.context_window && familyOf(m.id) === family) windows.add(m.context_window);
  return [...windows].sort((a, b) => a - b);
}
