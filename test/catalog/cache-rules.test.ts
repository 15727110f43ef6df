// Each API's cache rules by model: Anthropic's minimum per model (and a model missing from the table said so),
// Gemini's implicit minimum, OpenAI's 1,024 tokens in 128-token steps; and how a shared prefix becomes a hit.
import { describe, expect, it } from 'vitest';
import { cachedPrefix, cacheRulesFor } from '../../src/catalog/cache-rules.ts';

describe('cacheRulesFor', () => {
  it('Anthropic: 4,096 for Opus 4.5/4.6 and Haiku 4.5, 2,048 for Sonnet 4.6 and Haiku 3.x, 1,024 for Sonnet/Opus 4', () => {
    const min = (m: string) => cacheRulesFor('anthropic', m).minCacheable;
    expect(min('claude-opus-4-5-20251101')).toBe(4096);
    expect(min('claude-opus-4-6')).toBe(4096);
    expect(min('claude-haiku-4-5-20251001')).toBe(4096);
    expect(min('claude-sonnet-4-6')).toBe(2048);
    expect(min('claude-3-5-haiku-20241022')).toBe(2048);
    expect(min('claude-sonnet-4-20250514')).toBe(1024);
    expect(min('claude-sonnet-4-5-20250929')).toBe(1024);
    expect(min('claude-opus-4-1-20250805')).toBe(1024);
    // Bedrock and Vertex ids are the same models
    expect(min('us.anthropic.claude-haiku-4-5-20251001-v1:0')).toBe(4096);
    expect(cacheRulesFor('anthropic', 'claude-sonnet-4-5-20250929')).toMatchObject({ writes: 'explicit', step: 1 });
  });

  it('a model the table does not list says so and takes the documented floor', () => {
    const r = cacheRulesFor('anthropic', 'claude-opus-4-7');
    expect(r.minCacheable).toBe(1024);
    expect(r.why).toMatch(/not in Anthropic's minimum table/);
  });

  it('Gemini caches implicitly: 2,048 for 2.5 Flash and Pro, 4,096 for 3.x; OpenAI: 1,024 in 128-token steps', () => {
    expect(cacheRulesFor('gemini', 'gemini-2.5-flash')).toMatchObject({ writes: 'automatic', minCacheable: 2048 });
    expect(cacheRulesFor('gemini', 'models/gemini-2.5-pro').minCacheable).toBe(2048);
    expect(cacheRulesFor('gemini', 'gemini-3-pro-preview').minCacheable).toBe(4096);
    expect(cacheRulesFor('openai', 'gpt-5-codex')).toMatchObject({
      writes: 'automatic',
      minCacheable: 1024,
      step: 128,
    });
  });
});

describe('cachedPrefix', () => {
  it('nothing below the minimum; past it, OpenAI rounds down to 128-token steps, Anthropic keeps every token', () => {
    expect(cachedPrefix(1000, 1024, 128)).toBe(0);
    expect(cachedPrefix(1024, 1024, 128)).toBe(1024);
    expect(cachedPrefix(1151, 1024, 128)).toBe(1024);
    expect(cachedPrefix(1152, 1024, 128)).toBe(1152);
    expect(cachedPrefix(3000, 1024, 128)).toBe(2944);
    expect(cachedPrefix(3000, 1024, 1)).toBe(3000);
    expect(cachedPrefix(0, 0, 1)).toBe(0);
  });
});
