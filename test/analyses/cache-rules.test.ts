// Each provider's cache rule, pinned on small crafted logs run through analyze(): what the simulated cache reads
// and writes, and what that costs at the catalog's prices. OpenAI caches by itself from 1,024 tokens in 128-token
// steps with no write fee; Anthropic writes at a premium (1.25× input for 5 minutes, 2× for 1 hour) from a
// per-model minimum; Gemini caches implicitly from its minimum; Bedrock serves Claude with Anthropic's rules.
import { beforeAll, describe, expect, it } from 'vitest';
import { type Analysis, analyze } from '../../src/analyses/analyze.ts';
import type { Transcript } from '../../src/model/transcript.ts';
import type { Provider } from '../../src/pairing/validate.ts';
import type { CachedTokenizer } from '../../src/tokens/tokenizer.ts';
import { transcript } from '../helpers/dsl.ts';
import { configOf, tokenizer } from '../helpers/replay.ts';

let tok: CachedTokenizer;
beforeAll(async () => {
  tok = await tokenizer();
});

/** A session of tool calls whose results have these sizes (runes), `gap` seconds apart, all with `model`. */
function session(model: string, sizes: number[], gap = 10): Transcript {
  const lines = ['U start'];
  sizes.forEach((n, i) => {
    lines.push(`A{t=${i * gap},model=${model}} tu(c${i}) Bash ls`, `U tr(c${i}) ${n} chars`);
  });
  lines.push(`A{t=${sizes.length * gap},model=${model}} done`);
  return transcript(lines.join('\n'));
}

function run(t: Transcript, provider: Provider, set: Record<string, unknown> = {}): Analysis {
  return analyze(t, {
    config: configOf({ preset: 'none', set }),
    preset: 'none',
    mode: 'recorded',
    provider,
    tokenizer: tok,
  });
}

/** The simulated request k: its prompt, read, write and uncached tokens, the shared prefix and its dollars. */
function at(a: Analysis, k: number) {
  const p = a.simulated[k];
  const rr = a.replay.threads[0].requests[k];
  return { ...p, shared: rr.commonTokens, usd: a.cost.byPoint[k].simulated };
}

const M = 1e-6;

describe('OpenAI: automatic prefix caching, 1,024-token minimum, 128-token steps, no write fee', () => {
  it('a 1,000-token prompt is not cached, and it costs input price only', () => {
    const a = run(session('gpt-4o', [1550, 1550, 1550]), 'openai-chat');
    const last = at(a, 3);
    expect(last.prompt).toBeGreaterThan(900);
    expect(last.prompt).toBeLessThan(1024);
    for (let k = 0; k < 4; k++) {
      const p = at(a, k);
      expect(p.cacheRead).toBe(0);
      expect(p.cacheWrite).toBe(0);
      expect(p.usd).toBeCloseTo(p.prompt * 2.5 * M, 12); // gpt-4o: $2.50 per Mtok of input
    }
  });

  it('a cache hit is the shared prefix rounded down to 1,024 + 128·k tokens, read at the cached-input price', () => {
    const a = run(session('gpt-4o', [9000, 4000, 4000]), 'openai-chat');
    for (const k of [2, 3]) {
      const p = at(a, k);
      expect(p.shared).toBeGreaterThan(1024);
      expect((p.cacheRead - 1024) % 128).toBe(0);
      expect(p.cacheRead).toBeLessThanOrEqual(p.shared);
      expect(p.shared - p.cacheRead).toBeLessThan(128);
      expect(p.uncached).toBeCloseTo(p.prompt - p.cacheRead, 9);
      expect(p.usd).toBeCloseTo(p.cacheRead * 1.25 * M + (p.prompt - p.cacheRead) * 2.5 * M, 12);
    }
  });

  it('no write premium: the first prompt is billed as plain input, where Anthropic bills a 1.25× write', () => {
    const t = session('gpt-4o', [9000]);
    const openai = at(run(t, 'openai-chat'), 1);
    expect(openai.prompt).toBeGreaterThan(1024);
    expect(openai.cacheWrite).toBe(0);
    expect(openai.usd).toBeCloseTo(openai.prompt * 2.5 * M, 12);
    const claude = at(run(session('claude-sonnet-4-5-20250929', [9000]), 'anthropic'), 1);
    expect(claude.cacheWrite).toBeCloseTo(claude.prompt, 9);
    expect(claude.usd).toBeCloseTo(claude.prompt * 3.75 * M, 12); // 1.25 × $3
  });
});

describe('Anthropic: explicit writes at a premium, minimum per model', () => {
  const sonnet = 'claude-sonnet-4-5-20250929';

  it('a 1-hour write costs 2× input, a 5-minute write 1.25×', () => {
    const t = session(sonnet, [9000]);
    const hour = at(run(t, 'anthropic', { 'cache.ttlSeconds': 3600 }), 1);
    const five = at(run(t, 'anthropic', { 'cache.ttlSeconds': 300 }), 1);
    expect(hour.prompt).toBeGreaterThan(1024);
    expect(hour.cacheWrite).toBeCloseTo(hour.prompt, 9);
    expect(hour.usd).toBeCloseTo(hour.prompt * 2 * 3 * M, 12);
    expect(five.usd).toBeCloseTo(five.prompt * 1.25 * 3 * M, 12);
  });

  it('after a 20-minute pause a 5-minute cache is gone and a 1-hour one is read; the break says what 1 hour would change', () => {
    const t = session(sonnet, [9000, 400], 1200);
    const five = run(t, 'anthropic', { 'cache.ttlSeconds': 300 });
    const hour = run(t, 'anthropic', { 'cache.ttlSeconds': 3600 });
    expect(at(five, 2).cacheRead).toBe(0);
    expect(at(five, 2).break?.cause).toBe('ttl-expired');
    expect(at(hour, 2).cacheRead).toBeCloseTo(at(hour, 2).shared, 9);
    expect(at(hour, 2).break).toBeNull();
    const lost = at(five, 2).break?.tokensLost ?? 0;
    expect(lost).toBeGreaterThan(1024);
    const advice = five.cost.byPoint[2].simulatedOneHour;
    expect(advice?.helps).toBe(true);
    expect(advice?.extraUsd).toBeCloseTo(lost * (6 - 3.75) * M, 12);
    expect(advice?.savedUsd).toBeCloseTo(lost * (3.75 - 0.3) * M, 12);
  });

  it('the minimum follows the model: 4,096 for Haiku 4.5, 1,024 for Sonnet 4.5', () => {
    const sizes = [12_000];
    const haiku = at(run(session('claude-haiku-4-5-20251001', sizes), 'anthropic'), 1);
    const son = at(run(session(sonnet, sizes), 'anthropic'), 1);
    expect(haiku.prompt).toBeGreaterThan(1024);
    expect(haiku.prompt).toBeLessThan(4096);
    expect(haiku.cacheWrite).toBe(0);
    expect(haiku.uncached).toBeCloseTo(haiku.prompt, 9);
    expect(haiku.usd).toBeCloseTo(haiku.prompt * 1 * M, 12); // Haiku 4.5: $1 per Mtok, no write below its minimum
    expect(son.cacheWrite).toBeCloseTo(son.prompt, 9);
  });

  it('cache.* overrides the model’s own: a minimum of 500 caches Haiku, a read multiplier prices reads', () => {
    const t = session('claude-haiku-4-5-20251001', [12_000, 2000]);
    const a = run(t, 'anthropic', { 'cache.minCacheable': 500, 'cache.readMultiplier': 0.5 });
    const p = at(a, 2);
    expect(at(a, 1).cacheWrite).toBeGreaterThan(0);
    expect(p.cacheRead).toBeCloseTo(p.shared, 9);
    expect(p.usd).toBeCloseTo(p.cacheRead * 0.5 * M + p.cacheWrite * 1.25 * M, 12);
  });
});

describe('Gemini: implicit caching from a per-model minimum, no write fee', () => {
  it('2.5 Flash reads a shared prefix of 2,048 tokens or more at its cached price, below that nothing', () => {
    const big = run(session('gemini-2.5-flash', [14_000, 2000]), 'gemini');
    const p = at(big, 2);
    expect(p.shared).toBeGreaterThan(2048);
    expect(p.cacheRead).toBeCloseTo(p.shared, 9);
    expect(p.cacheWrite).toBe(0);
    expect(p.usd).toBeCloseTo(p.cacheRead * 0.03 * M + (p.prompt - p.cacheRead) * 0.3 * M, 12);
    const small = at(run(session('gemini-2.5-flash', [7000, 2000]), 'gemini'), 2);
    expect(small.shared).toBeGreaterThan(1024);
    expect(small.shared).toBeLessThan(2048);
    expect(small.cacheRead).toBe(0);
    // OpenAI would have cached that prefix
    expect(at(run(session('gpt-4o', [7000, 2000]), 'openai-chat'), 2).cacheRead).toBeGreaterThan(1024);
  });
});

describe('Bedrock: Claude with Anthropic’s rules at Bedrock’s prices', () => {
  it('writes are explicit and billed at the 5-minute write price, reads at the cache-read price', () => {
    const model = 'us.anthropic.claude-sonnet-4-20250514-v1:0';
    const a = run(session(model, [9000, 3000]), 'bedrock');
    const first = at(a, 1);
    expect(first.cacheWrite).toBeGreaterThan(0);
    const second = at(a, 2);
    expect(second.cacheRead).toBeCloseTo(second.shared, 9);
    expect(second.usd).toBeCloseTo(second.cacheRead * 0.3 * M + second.cacheWrite * 3.75 * M, 12);
    expect(a.cost.report.simulated.byModel[0]).toMatchObject({ model, pricing: 'catalog' });
  });
});
