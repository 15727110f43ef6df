// Dollars for a request's tokens at its model's prices (SPEC §5.4): uncached input, output, cache reads and
// 5-minute and 1-hour cache writes, each at its own $/Mtok. A prompt over the long-context threshold is priced
// whole at the long-context tier (Anthropic's and Gemini's rule, as the catalog encodes it). A model's prices
// come from the catalog, or from prices the user typed (for a model the catalog does not list); a model with
// neither is "price unknown", never another model's numbers. Pure.
import type { Tokens } from '../model/units.ts';
import {
  CATALOG,
  type LongContextPrices,
  lookupModel,
  type ModelPrices,
  pricedAlikeAtAnyTime,
  type TokenPrices,
} from './catalog.ts';

/** Tokens of one request (or a sum of them) by how they are billed. */
export type TokenSplit = {
  input: Tokens;
  output: Tokens;
  cacheRead: Tokens;
  cacheWrite5m: Tokens;
  cacheWrite1h: Tokens;
};

/** Dollars by the same parts, and their sum. */
export type UsdSplit = TokenSplit & { usd: number };

/** Prices a user typed for a model, in $ per million tokens. Input and output are needed; a cache price left out
 *  follows the fallbacks of `priceTokens`. */
export type UserPrice = {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite5m?: number;
  cacheWrite1h?: number;
};

/** User prices by model id as the log writes it. */
export type UserPrices = Record<string, UserPrice>;

export type PriceSource = 'catalog' | 'user';

export type ModelPricing =
  | { known: true; source: PriceSource; prices: ModelPrices; catalogId: string | null }
  | { known: false; reason: string };

export const ZERO_TOKENS: TokenSplit = Object.freeze({
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite5m: 0,
  cacheWrite1h: 0,
});

export const ZERO_USD: UsdSplit = Object.freeze({ ...ZERO_TOKENS, usd: 0 });

/** `a` += `b`, part by part (a running sum its owner copies before handing out). */
export function addTokensTo(a: TokenSplit, b: TokenSplit): void {
  a.input += b.input;
  a.output += b.output;
  a.cacheRead += b.cacheRead;
  a.cacheWrite5m += b.cacheWrite5m;
  a.cacheWrite1h += b.cacheWrite1h;
}

/** `a` += `b`, dollars likewise. */
export function addUsdTo(a: UsdSplit, b: UsdSplit): void {
  addTokensTo(a, b);
  a.usd += b.usd;
}

function userPrices(p: UserPrice): ModelPrices {
  return {
    input: p.input,
    output: p.output,
    cacheRead: p.cacheRead ?? null,
    cacheWrite5m: p.cacheWrite5m ?? null,
    cacheWrite1h: p.cacheWrite1h ?? null,
    longContext: null,
  };
}

/** A model's prices at a time: the user's for that id when typed, else the catalog's, else unknown (with why). */
export function pricingOf(model: string | undefined, at: Date | undefined, user: UserPrices): ModelPricing {
  if (!model) return { known: false, reason: 'the log names no model' };
  const typed = user[model];
  if (typed) return { known: true, source: 'user', prices: userPrices(typed), catalogId: null };
  const l = lookupModel(model, at);
  if (!l.known) return { known: false, reason: l.reason };
  if (!l.prices) return { known: false, reason: `${CATALOG.name} ${CATALOG.version} lists no price for ${model}` };
  return { known: true, source: 'catalog', prices: l.prices, catalogId: l.catalogId };
}

/** Whether `pricingOf(model, at, user)` is the same for every `at`: the user typed its prices, or the catalog has
 *  one price list for it. */
export function pricingTimeless(model: string | undefined, user: UserPrices): boolean {
  return !!model && (!!user[model] || pricedAlikeAtAnyTime(model));
}

/** The prices a request pays: the long-context tier once its prompt (input + cache) is over the threshold. */
export function tierFor(p: ModelPrices, prompt: Tokens): TokenPrices | LongContextPrices {
  return p.longContext && prompt > p.longContext.aboveTokens ? p.longContext : p;
}

/** Price of writing the cache for `ttl` (5m or 1h): the listed price; without one, OpenAI and Gemini bill written
 *  tokens as input, and a 1-hour write is Anthropic's 2× input. */
export function writePrice(p: TokenPrices, oneHour: boolean): number {
  if (oneHour) return p.cacheWrite1h ?? 2 * p.input;
  return p.cacheWrite5m ?? p.input;
}

/**
 * Dollars of a request's tokens at a model's prices, or why they cannot be priced: cache reads need a cache-read
 * price (a model without one cannot have been billed for them at a known rate).
 */
export function priceTokens(
  t: TokenSplit,
  p: ModelPrices,
): { usd: UsdSplit; longContext: boolean } | { error: string } {
  const usd: UsdSplit = { ...ZERO_USD };
  const priced = priceInto(t, p, usd);
  return typeof priced === 'string' ? { error: priced } : { usd, longContext: priced };
}

/** `priceTokens` written into `usd` (no object made): whether the long-context tier priced it, or why not. */
export function priceInto(t: TokenSplit, p: ModelPrices, usd: UsdSplit): boolean | string {
  const prompt = t.input + t.cacheRead + t.cacheWrite5m + t.cacheWrite1h;
  const tier = tierFor(p, prompt);
  if (t.cacheRead > 0 && tier.cacheRead === null) return 'the price list has no cache-read price';
  const m = 1e-6;
  usd.input = t.input * tier.input * m;
  usd.output = t.output * tier.output * m;
  usd.cacheRead = t.cacheRead * (tier.cacheRead ?? 0) * m;
  usd.cacheWrite5m = t.cacheWrite5m * writePrice(tier, false) * m;
  usd.cacheWrite1h = t.cacheWrite1h * writePrice(tier, true) * m;
  usd.usd = usd.input + usd.output + usd.cacheRead + usd.cacheWrite5m + usd.cacheWrite1h;
  return tier !== p;
}
