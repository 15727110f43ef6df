// Dollars of a request's tokens at its model's prices: each part at its own price, a prompt over the
// long-context threshold priced whole at the long-context tier, a 1-hour write without a listed price at
// Anthropic's 2× input, cache reads without a price refused; user prices for a model the catalog lacks; and the
// dollar format of the CLI and the UI.
import { describe, expect, it } from 'vitest';
import type { ModelPrices } from '../../src/catalog/catalog.ts';
import { priceTokens, pricingOf, type TokenSplit } from '../../src/catalog/prices.ts';
import { fmtUsd } from '../../src/lib/money.ts';

const tokens = (o: Partial<TokenSplit>): TokenSplit => ({
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite5m: 0,
  cacheWrite1h: 0,
  ...o,
});

function known(model: string, at?: Date): ModelPrices {
  const p = pricingOf(model, at, {});
  if (!p.known) throw new Error(p.reason);
  return p.prices;
}

function usd(t: TokenSplit, p: ModelPrices) {
  const r = priceTokens(t, p);
  if ('error' in r) throw new Error(r.error);
  return r;
}

describe('priceTokens', () => {
  it('prices every part at its own rate (Sonnet 4.5: $3 in, $15 out, $0.30 read, $3.75 5m write, $6 1h write)', () => {
    const r = usd(
      tokens({ input: 1000, output: 2000, cacheRead: 100_000, cacheWrite5m: 4000, cacheWrite1h: 8000 }),
      known('claude-sonnet-4-5-20250929'),
    );
    expect(r.longContext).toBe(false);
    expect(r.usd.input).toBeCloseTo(0.003, 12);
    expect(r.usd.output).toBeCloseTo(0.03, 12);
    expect(r.usd.cacheRead).toBeCloseTo(0.03, 12);
    expect(r.usd.cacheWrite5m).toBeCloseTo(0.015, 12);
    expect(r.usd.cacheWrite1h).toBeCloseTo(0.048, 12);
    expect(r.usd.usd).toBeCloseTo(0.126, 12);
  });

  it('a prompt over 200K tokens is priced whole at the long-context tier (input, output and cache)', () => {
    const p = known('claude-sonnet-4-5-20250929');
    const below = usd(tokens({ input: 10, cacheRead: 199_990, output: 1000 }), p);
    const above = usd(tokens({ input: 10, cacheRead: 200_000, output: 1000 }), p);
    expect(below.longContext).toBe(false);
    expect(above.longContext).toBe(true);
    expect(above.usd.output).toBeCloseTo((1000 * 22.5) / 1e6, 12);
    expect(above.usd.cacheRead).toBeCloseTo((200_000 * 0.6) / 1e6, 12);
    expect(above.usd.input).toBeCloseTo((10 * 6) / 1e6, 12);
  });

  it('a 1-hour write the price list does not price is 2× input (Bedrock lists no 1-hour price)', () => {
    const p = known('us.anthropic.claude-sonnet-4-20250514-v1:0');
    expect(p.cacheWrite1h).toBeNull();
    expect(usd(tokens({ cacheWrite1h: 1_000_000 }), p).usd.usd).toBeCloseTo(2 * p.input, 12);
  });

  it('OpenAI lists no write price: written tokens cost input; cache reads cost the cached-input price', () => {
    const p = known('gpt-4o');
    expect(p.cacheWrite5m).toBeNull();
    const r = usd(tokens({ cacheWrite5m: 1_000_000, cacheRead: 1_000_000 }), p);
    expect(r.usd.cacheWrite5m).toBeCloseTo(p.input, 12);
    expect(r.usd.cacheRead).toBeCloseTo(1.25, 12);
  });

  it('cache reads of a model with no cache-read price cannot be priced', () => {
    const p: ModelPrices = {
      input: 1,
      output: 2,
      cacheRead: null,
      cacheWrite5m: null,
      cacheWrite1h: null,
      longContext: null,
    };
    expect(priceTokens(tokens({ cacheRead: 10 }), p)).toEqual({ error: 'the price list has no cache-read price' });
    expect(usd(tokens({ input: 1_000_000 }), p).usd.usd).toBe(1);
  });
});

describe('pricingOf', () => {
  it('an unknown model is "price unknown" with the reason, never another model’s prices', () => {
    const p = pricingOf('acme-llm-7', undefined, {});
    expect(p.known).toBe(false);
    if (!p.known) expect(p.reason).toMatch(/acme-llm-7/);
    expect(pricingOf(undefined, undefined, {})).toEqual({ known: false, reason: 'the log names no model' });
  });

  it('prices the user typed take the model’s place, as the user’s', () => {
    const p = pricingOf('acme-llm-7', undefined, { 'acme-llm-7': { input: 2, output: 8, cacheRead: 0.2 } });
    expect(p).toMatchObject({ known: true, source: 'user', catalogId: null });
    if (!p.known) return;
    expect(usd(tokens({ input: 1_000_000, output: 1_000_000, cacheRead: 1_000_000 }), p.prices).usd.usd).toBeCloseTo(
      10.2,
      12,
    );
  });

  it('the catalog entry and the prices in force at the request’s date', () => {
    const p = pricingOf('claude-opus-4-5-20251101', new Date('2025-12-01T12:00:00Z'), {});
    expect(p).toMatchObject({ known: true, source: 'catalog', catalogId: 'claude-opus-4-5' });
  });
});

describe('fmtUsd', () => {
  it('cents from a dollar, four decimals below, a floor for tiny amounts', () => {
    expect(fmtUsd(2.3932)).toBe('$2.39');
    expect(fmtUsd(0.0932)).toBe('$0.0932');
    expect(fmtUsd(0)).toBe('$0.00');
    expect(fmtUsd(0.00001)).toBe('<$0.0001');
    expect(fmtUsd(-0.12)).toBe('−$0.1200');
  });
});
