// Shrunk counterexamples the property tests found (test/pipeline/properties.test.ts), kept as named
// regression tests in the DSL. Each names the bug it pinned; the fix is in the stage named.
import { beforeAll, describe, expect, it } from 'vitest';
import { PRESET_IDS, presetConfig } from '../../src/pipeline/presets.ts';
import type { CachedTokenizer } from '../../src/tokens/tokenizer.ts';
import { transcript } from '../helpers/dsl.ts';
import { loop, repeat, withRetries } from '../helpers/loop.ts';
import { configOf, outputsOf, type RunOptions, replayFirst, resultContent, tokenizer } from '../helpers/replay.ts';

let tk: CachedTokenizer;
beforeAll(async () => {
  tk = await tokenizer();
});

const TINY = { tier3Window: 1, tier1Distance: 1, observationWindow: 0, spillPreview: 0, batchAggregateTarget: 1_000 };

describe('regressions found by the property tests', () => {
  it('every preset loads (none had observationWindow 1,000,000, over the key maximum, and threw)', () => {
    for (const id of PRESET_IDS) expect(() => presetConfig(id)).not.toThrow();
    const r = replayFirst(tk, loop(repeat(5, { tool: 'screenshot', args: '{}', result: '3000 chars' })), {
      preset: 'none',
    });
    expect(r.requests.flatMap((q) => q.events)).toEqual([]);
  });

  it('spill: a replacement longer than the result (preview ≥ a tiny threshold) is not applied', () => {
    const t = transcript(`
      U Refactor internal/auth/session.go
      -
      A tu(g0_0) mcp__pw__browser_snapshot {"url":"https://example.com/p0"}
      A tu(g0_1) Read src/mod0/file0.ts
      -
      U tr!(g0_0) 301 chars
      U tr!(g0_1) 400 chars
      -
      A Done.`);
    const o: RunOptions = { set: { spillThreshold: 300, spillPreview: 186 } };
    expect(replayFirst(tk, t, o).requests.flatMap((q) => q.events)).toEqual([]);
    expect(resultContent(outputsOf(tk, t, o).at(-1) ?? [], 'g0_0')).toHaveLength(301);
  });

  it('hardcap: recent CJK turns too big for the window are cut below the old 200-rune floor until it fits', () => {
    const t = transcript(`
      U Refactor internal/auth/session.go
      -
      A tu(g0_0) Read src/mod0/file0.ts
      A tu(g0_1) Read src/mod0/${'deep/'.repeat(30)}/file0.ts
      -
      U tr!(g0_0) 181 cjk
      U tr!(g0_1) 1957 cjk
      -
      U check the tests
      -
      A Done.`);
    const o: RunOptions = { set: { ...TINY, contextWindow: 1_000, outputReserve: 299, spillThreshold: 300 } };
    for (const q of replayFirst(tk, t, o).requests) expect(q.estimateOut).toBeLessThanOrEqual(701);
  });

  it('summarize: no summary bigger than the three tiny turns it would replace (claude-code, 1,000-token window)', () => {
    const t = transcript(`
      U Refactor internal/auth/session.go
      A tu(g0_0) Read src/mod0/file0.ts
      U tr!(g0_0) 1 chars
      A tu(g1_0) Read src/mod0/file0.ts
      U tr!(g1_0) 1 chars
      A tu(g2_0) Read src/mod0/file0.ts
      U tr!(g2_0) 1 chars
      A Done.`);
    const r = replayFirst(tk, t, { preset: 'claude-code', set: { ...TINY, contextWindow: 1_000, outputReserve: 0 } });
    const ev = r.requests.flatMap((q) => q.events);
    expect(ev.filter((e) => e.stage === 'summarize')).toEqual([]);
    for (const e of ev) expect(e.tokensAfter).toBeLessThanOrEqual(e.tokensBefore);
  });

  it('summarize/hardcap never fold or drop the latest assistant turn when it carries thinking (minRecentTurns 0)', () => {
    const t = transcript(`
      U Refactor internal/auth/session.go
      -
      A think weighing step 0
      A tu(g0_0) Read src/mod0/file0.ts
      -
      U tr!(g0_0) 49990 chars
      -
      U check the tests
      -
      A Done.`);
    const o: RunOptions = { set: { ...TINY, contextWindow: 1_000, outputReserve: 0, hardcap: { minRecentTurns: 0 } } };
    const r = replayFirst(tk, t, o);
    expect(r.requests.flatMap((q) => q.pairing)).toEqual([]);
    const out = outputsOf(tk, t, o).at(-1) ?? [];
    expect(out.some((m) => m.blocks.some((b) => b.type === 'thinking'))).toBe(true);
  });

  it('summarize is idempotent on a retry when the trigger sits under the landing line (claude-code, small window)', () => {
    const t = transcript(`
      U Refactor internal/auth/session.go
      -
      A tu(g0_0) Read src/mod0/file0.ts
      A tu(g0_1) Read src/mod0/file0.ts
      -
      U tr!(g0_0) 900 cjk
      U tr!(g0_1) 1 chars
      -
      U check the tests
      -
      A check the tests
      A tu(g2_0) Read src/mod0/file0.ts
      -
      U tr!(g2_0) 49999 chars
      -
      U check the tests
      -
      A Done.`);
    for (const set of [
      { contextWindow: 1_960, outputReserve: 0, hardcap: { minRecentTurns: 0 }, microcompact: { keepRecent: 1 } },
      { contextWindow: 30_000, outputReserve: 0, hardcap: { minRecentTurns: 0 }, microcompact: { keepRecent: 0 } },
    ]) {
      const r = replayFirst(tk, withRetries(t), { preset: 'claude-code', set: { ...TINY, ...set } });
      for (let k = 1; k < r.requests.length; k += 2) expect(r.requests[k].events).toEqual([]);
    }
  });

  it('sliding window keeps the first user message, so Gemini never sees a call turn first', () => {
    const t = loop(repeat(25, { tool: 'Bash', args: 'go test', result: '50 chars' }));
    const r = replayFirst(tk, t, { preset: 'sliding-window', provider: 'gemini' });
    expect(r.requests.some((q) => q.events.some((e) => e.action === 'drop'))).toBe(true);
    expect(r.requests.flatMap((q) => q.pairing)).toEqual([]);
    expect(configOf({ preset: 'sliding-window' }).hardcap.keepLastMessages).toBe(40);
  });
});
