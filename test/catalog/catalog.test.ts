// The model catalog over @pydantic/genai-prices: every model our fixtures name is found under the ids logs write
// (date suffixes, vendor prefixes, Bedrock and Vertex ids) with its window and prices; unknown models say so;
// dated prices are honoured; the pinned version is the installed one.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findProvider } from '@pydantic/genai-prices';
import { describe, expect, it } from 'vitest';
import { CATALOG, familyWindows, type KnownModel, lookupModel } from '../../src/catalog/catalog.ts';
import { REPO_ROOT } from '../helpers/fixtures.ts';

function known(id: string, at?: Date): KnownModel {
  const r = lookupModel(id, at);
  if (!r.known) throw new Error(`${id}: ${r.reason}`);
  return r;
}

describe('catalog version', () => {
  it('is the installed @pydantic/genai-prices, pinned exactly in package.json', () => {
    const installed = JSON.parse(
      readFileSync(join(REPO_ROOT, 'node_modules/@pydantic/genai-prices/package.json'), 'utf8'),
    ) as { version: string };
    // A build-time dependency: the CLI and the app bundle it (the package has no runtime dependencies).
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    expect(CATALOG.name).toBe('@pydantic/genai-prices');
    expect(installed.version).toBe(CATALOG.version);
    expect(pkg.devDependencies[CATALOG.name]).toBe(CATALOG.version);
    expect(CATALOG.published).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});

describe('the models of the fixtures', () => {
  // [id as in the logs, catalog entry, provider family, window]
  const CASES: [string, string, string, number][] = [
    ['claude-opus-4-7', 'claude-opus-4-7', 'anthropic', 1_000_000],
    ['claude-opus-4-6', 'claude-opus-4-6', 'anthropic', 1_000_000],
    ['claude-opus-4-5-20251101', 'claude-opus-4-5', 'anthropic', 200_000],
    ['claude-opus-4-1-20250805', 'claude-opus-4-1', 'anthropic', 200_000],
    ['claude-opus-4-20250514', 'claude-opus-4-0', 'anthropic', 200_000],
    ['claude-sonnet-4-5-20250929', 'claude-sonnet-4-5', 'anthropic', 200_000],
    ['claude-sonnet-4-20250514', 'claude-sonnet-4-0', 'anthropic', 200_000],
    ['claude-haiku-4-5-20251001', 'claude-haiku-4-5', 'anthropic', 200_000],
    ['claude-3-5-haiku-20241022', 'claude-3-5-haiku-latest', 'anthropic', 200_000],
    ['claude-3-5-haiku', 'claude-3-5-haiku-latest', 'anthropic', 200_000],
    ['gpt-5-codex', 'gpt-5', 'openai', 400_000],
    ['gpt-5.1-codex-max', 'gpt-5.1', 'openai', 400_000],
    ['gpt-5.2-codex', 'gpt-5.2', 'openai', 400_000],
    ['gpt-4o', 'gpt-4o', 'openai', 128_000],
    ['gpt-4o-2024-08-06', 'gpt-4o', 'openai', 128_000],
    ['gpt-4o-mini', 'gpt-4o-mini', 'openai', 128_000],
    ['gpt-4o-mini-2024-07-18', 'gpt-4o-mini', 'openai', 128_000],
    ['gemini-2.5-flash', 'gemini-2.5-flash', 'google', 1_048_576],
  ];
  for (const [id, entry, family, window] of CASES)
    it(`${id} → ${entry}, ${window.toLocaleString('en-US')} tokens`, () => {
      const m = known(id);
      expect(m.catalogId).toBe(entry);
      expect(m.id.family).toBe(family);
      expect(m.id.host).toBe('direct');
      expect(m.contextWindow).toBe(window);
      expect(m.catalog).toBe(CATALOG);
      expect(m.prices?.input).toBeGreaterThan(0);
      expect(m.prices?.output).toBeGreaterThan(m.prices?.input ?? 0);
    });

  it('Anthropic prices: cache read, 5-minute and 1-hour writes, and the long-context tier', () => {
    expect(known('claude-sonnet-4-5-20250929').prices).toEqual({
      input: 3,
      output: 15,
      cacheRead: 0.3,
      cacheWrite5m: 3.75,
      cacheWrite1h: 6,
      longContext: {
        aboveTokens: 200_000,
        input: 6,
        output: 22.5,
        cacheRead: 0.6,
        cacheWrite5m: 7.5,
        cacheWrite1h: 12,
      },
    });
    expect(known('claude-haiku-4-5-20251001').prices).toEqual({
      input: 1,
      output: 5,
      cacheRead: 0.1,
      cacheWrite5m: 1.25,
      cacheWrite1h: 2,
      longContext: null,
    });
  });

  it('OpenAI prices: a cache-read price and no cache-write price (written tokens bill as input)', () => {
    expect(known('gpt-4o-mini').prices).toEqual({
      input: 0.15,
      output: 0.6,
      cacheRead: 0.075,
      cacheWrite5m: null,
      cacheWrite1h: null,
      longContext: null,
    });
    expect(known('gpt-5-codex').prices?.cacheRead).toBe(0.125);
  });

  it('Gemini: the long-context tier above 200K, and a model without a listed window says so (null)', () => {
    const pro = known('gemini-2.5-pro');
    expect(pro.contextWindow).toBeNull();
    expect(pro.prices?.longContext).toMatchObject({ aboveTokens: 200_000, input: 2.5, output: 15, cacheRead: 0.25 });
  });

  it('prices in force at a date: Opus 4.6 had long-context tiers before 2026-03-13, none after', () => {
    expect(known('claude-opus-4-6', new Date('2026-01-15T12:00:00Z')).prices?.longContext).toEqual({
      aboveTokens: 200_000,
      input: 10,
      output: 37.5,
      cacheRead: 1,
      cacheWrite5m: 12.5,
      cacheWrite1h: 20,
    });
    expect(known('claude-opus-4-6', new Date('2026-06-01T12:00:00Z')).prices?.longContext).toBeNull();
    expect(known('claude-opus-4-6').prices?.longContext).toBeNull(); // no date: the newest prices
  });
});

describe('ids as logs write them', () => {
  it('vendor prefixes (Inspect, LiteLLM, the Gemini API) find the same entry', () => {
    expect(known('anthropic/claude-sonnet-4-5-20250929').catalogId).toBe('claude-sonnet-4-5');
    expect(known('openai/gpt-4o-mini').catalogId).toBe('gpt-4o-mini');
    expect(known('models/gemini-2.5-flash').catalogId).toBe('gemini-2.5-flash');
    expect(known('google/gemini-2.5-flash').catalogId).toBe('gemini-2.5-flash');
  });

  it('Bedrock ids (cross-region, plain, ARN, LiteLLM prefix) are Bedrock entries, without 1-hour writes', () => {
    for (const id of [
      'us.anthropic.claude-sonnet-4-20250514-v1:0',
      'anthropic.claude-sonnet-4-20250514-v1:0',
      'bedrock/us.anthropic.claude-sonnet-4-20250514-v1:0',
      'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-sonnet-4-20250514-v1:0',
    ]) {
      const m = known(id);
      expect(m.id.host, id).toBe('bedrock');
      expect(m.id.bare, id).toBe('claude-sonnet-4-20250514');
      expect(m.catalogProvider, id).toBe('aws');
      expect(m.contextWindow, id).toBe(200_000);
      expect(m.prices, id).toMatchObject({ input: 3, output: 15, cacheWrite1h: null });
    }
    expect(known('global.anthropic.claude-sonnet-4-5-20250929-v1:0').catalogId).toBe(
      'global.anthropic.claude-sonnet-4-5-20250929-v1:0',
    );
  });

  it('Vertex ids (`@` versions, LiteLLM prefix) are Google-hosted entries', () => {
    const v = known('claude-sonnet-4@20250514');
    expect(v.id).toMatchObject({ host: 'vertex', bare: 'claude-sonnet-4-20250514', family: 'anthropic' });
    expect(v.catalogProvider).toBe('google');
    expect(v.contextWindow).toBe(200_000);
    expect(known('vertex_ai/claude-opus-4-5@20251101').catalogId).toBe('claude-opus-4-5');
  });

  it('OpenRouter ids are looked up in its own listing', () => {
    const m = known('openrouter/anthropic/claude-sonnet-4.5');
    expect(m.catalogProvider).toBe('openrouter');
    expect(m.id.family).toBe('anthropic');
  });
});

describe('unknown models say so', () => {
  for (const id of ['codex-auto-review', 'haiku', '<synthetic>', 'totally-made-up-model', '', '   '])
    it(`"${id}"`, () => {
      const r = lookupModel(id);
      expect(r.known).toBe(false);
      if (r.known) return;
      expect(r.reason).toMatch(id.trim() ? /@pydantic\/genai-prices 0\.1\.8|no model id/ : /no model id/);
      expect(r.catalog).toBe(CATALOG);
    });
});

describe('catalog shape the module relies on', () => {
  it('every tiered price has one tier, starting at the same input size across a model’s fields', () => {
    let tiered = 0;
    for (const id of ['anthropic', 'openai', 'google', 'aws', 'openrouter', 'azure', 'deepseek', 'mistral']) {
      for (const m of findProvider({ providerId: id })?.models ?? []) {
        const all = Array.isArray(m.prices) ? m.prices.map((c) => c.prices) : [m.prices];
        for (const p of all) {
          const starts = new Set<number>();
          for (const v of Object.values(p))
            if (typeof v === 'object' && v) {
              expect(v.tiers.length, `${id}/${m.id}`).toBeLessThanOrEqual(1);
              for (const t of v.tiers) starts.add(t.start);
            }
          expect(starts.size, `${id}/${m.id}`).toBeLessThanOrEqual(1);
          if (starts.size) tiered++;
        }
      }
    }
    expect(tiered).toBeGreaterThan(10);
  });

  it('the windows a maker sells: Anthropic 200K and 1M; OpenAI up to ~1M', () => {
    expect(familyWindows('anthropic')).toEqual([200_000, 1_000_000]);
    expect(familyWindows('openai')).toEqual(expect.arrayContaining([128_000, 400_000]));
    expect(familyWindows('other')).toEqual([]);
  });
});
