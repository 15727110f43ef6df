// Observed cache breaks on small logs where the truth is known (issue 16): usage is made from the counted tokens
// of each request's input plus a fixed unlogged prefix, so the place a read stops is known exactly. Each case
// asserts the cause, the divergence message (±1), the tokens lost, and the evidence a reader would check.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyses/analyze.ts';
import type { Report, RequestRow } from '../../src/analyses/report.ts';
import type { Transcript } from '../../src/model/transcript.ts';
import { TokenMeter } from '../../src/tokens/meter.ts';
import type { CachedTokenizer } from '../../src/tokens/tokenizer.ts';
import { filler, transcript } from '../helpers/dsl.ts';
import { configOf, tokenizer } from '../helpers/replay.ts';

const OFFSET = 3000;
const CLAUDE = 'claude-sonnet-4-5-20250929';
const GPT = 'gpt-4o-2024-08-06';
let tk: CachedTokenizer;

beforeAll(async () => {
  tk = await tokenizer();
});

/** A session of `turns` user/assistant pairs, each text `runes` long (distinct filler), one request per turn. */
function session(turns: number, model: string, runes = 3000): Transcript {
  const lines: string[] = [];
  for (let i = 0; i < turns; i++) lines.push(`U{} u${i}`, `A{t=${i * 30},model=${model}} a${i}`);
  const t = transcript(lines.join('\n'));
  t.threads[0].messages.forEach((m, i) => {
    m.blocks = [{ type: 'text', text: filler(runes, 'chars', i + 1) }];
  });
  return t;
}

type Change = { read?: number; shrink?: number };

/** Observed usage: prompt = OFFSET + counted input (− shrink); read = the previous prompt unless changed. */
function withUsage(t: Transcript, changes: Record<number, Change> = {}): { starts: number[]; prompts: number[] } {
  const th = t.threads[0];
  const meter = new TokenMeter(tk);
  const starts: number[] = [OFFSET];
  for (const m of th.messages)
    starts.push(starts[starts.length - 1] + m.blocks.reduce((n, b) => n + meter.block(b), 0));
  const prompts: number[] = [];
  th.requests.forEach((r, i) => {
    const prompt = starts[r.inputEnd] - (changes[i]?.shrink ?? 0);
    const read = i === 0 ? 0 : (changes[i]?.read ?? prompts[i - 1]);
    prompts.push(prompt);
    r.observed = { input: 3, cacheRead: read, cacheWrite: prompt - read - 3, output: 40 };
  });
  return { starts, prompts };
}

function report(t: Transcript): Report {
  const config = configOf({ preset: 'none' });
  return analyze(t, { config, preset: 'none', mode: 'recorded', provider: 'anthropic', tokenizer: tk }).report;
}

function breakAt(r: Report, index: number): NonNullable<RequestRow['observedBreak']> {
  const b = r.requests.find((q) => q.thread === 'main' && q.index === index)?.observedBreak;
  if (!b) throw new Error(`no observed break at request ${index}`);
  return b;
}

describe('divergence and cause on session logs (no exact input)', () => {
  it('a rewrite of message k: the cached prefix ends in message k, the history was rewritten there', () => {
    const t = session(8, CLAUDE);
    const k = 4; // message 4 = the user text of turn 2
    const u = withUsage(t);
    const { starts, prompts } = withUsage(t, { 6: { read: u.starts[k] + 120 } });
    const b = breakAt(report(t), 6);
    expect(b.cause).toMatch(/^history-rewritten@\d+$/);
    expect(Math.abs(Number(b.cause.split('@')[1]) - k)).toBeLessThanOrEqual(1);
    expect(b.divergence?.region).toBe('messages');
    expect(Math.abs((b.divergence?.messageIndex ?? -9) - k)).toBeLessThanOrEqual(1);
    expect(b.divergence?.tokens).toBe(starts[k] + 120);
    expect(b.tokensLost).toBe(prompts[5] - (starts[k] + 120));
    // The evidence names the observed sizes and says nothing earlier changed size.
    expect(b.evidence.join('\n')).toContain(`read ${(starts[k] + 120).toLocaleString('en-US')} of them from cache`);
    expect(b.evidence.join('\n')).toMatch(/nothing earlier changed size/);
    expect(b.evidence.join('\n')).toMatch(/Anthropic serves the longest cached prefix/);
    expect(b.usd).toBeGreaterThan(0);
  });

  it('a shrinking prompt is called out, with the tokens removed', () => {
    const t = session(8, CLAUDE);
    const k = 4;
    const u = withUsage(t);
    const { prompts } = withUsage(t, { 6: { read: u.starts[k] + 60, shrink: 1500 } });
    const b = breakAt(report(t), 6);
    expect(b.evidence.join('\n')).toMatch(
      /the prompt shrank by [\d,]+ tokens \(observed\) although the log only appended/,
    );
    expect(b.cause).toMatch(/^history-rewritten@\d+$/);
    expect(Math.abs((b.divergence?.messageIndex ?? -9) - k)).toBeLessThanOrEqual(1);
    // Re-written: the shrunk prompt it sent less its read (the 1,500 removed tokens were not sent again).
    expect(b.tokensLost).toBe(prompts[6] - (u.starts[k] + 60));
    expect(prompts[6]).toBeLessThan(prompts[5]);
    expect(b.detail).toMatch(/the prompt shrank/);
  });

  it('a read inside the unlogged prefix: the static prefix changed, placed before message 0', () => {
    const t = session(6, CLAUDE);
    withUsage(t, { 3: { read: 2000 } });
    const b = breakAt(report(t), 3);
    expect(b.cause).toBe('prefix-changed');
    expect(b.divergence).toMatchObject({ region: 'unlogged-prefix', messageIndex: 0, tokens: 2000 });
    expect(Math.abs((b.divergence?.unloggedTokens ?? 0) - OFFSET)).toBeLessThan(0.03 * OFFSET);
  });

  it('a TTL pause: ttl-expired with the gap, the TTL and where the read stopped', () => {
    const t = session(6, CLAUDE);
    const th = t.threads[0];
    // Requests 30 s apart, then a pause: request 3 is sent 430 s after request 2's response.
    for (const [i, r] of th.requests.entries()) r.time = (i < 3 ? i * 30 : 400 + i * 30) * 1000;
    for (const r of th.requests) r.responseTime = r.time;
    withUsage(t, { 3: { read: 0 } });
    const r = report(t);
    const b = breakAt(r, 3);
    expect(b.cause).toBe('ttl-expired');
    // The advice: a 1-hour TTL, with the dollars of that break's own 1-hour estimate (saved − premium).
    const one = b.oneHourWrite;
    const advice = r.cacheFindings.advice.find((a) => a.kind === 'one-hour-ttl');
    expect(one?.helps).toBe(true);
    expect(advice?.usd).toBeCloseTo((one?.savedUsd ?? 0) - (one?.extraUsd ?? 0), 12);
    expect(advice?.text).toMatch(/1 of the 1 expiries came after pauses of 7 min/);
    expect(b.detail).toBe('cache expired: 7 min 10 s since the previous response; TTL 5 min');
    expect(b.evidence.join('\n')).toMatch(/7 min 10 s apart/);
    expect(b.divergence).toMatchObject({ region: 'unlogged-prefix', tokens: 0 });
  });

  it('OpenAI: a partial hit at a 128-token step, input only appended, no exact input: unexplained, with the evidence', () => {
    const t = session(8, GPT);
    const k = 5;
    const u = withUsage(t);
    const read = Math.floor((u.starts[k] + 200) / 128) * 128;
    const { prompts } = withUsage(t, { 6: { read } });
    const b = breakAt(report(t), 6);
    // Sizes match (estimated) but nothing proves the prefix unchanged: never a guess.
    expect(b.cause).toBe('unexplained');
    expect(b.evidence.join('\n')).toMatch(/does not hold the exact request/);
    expect(Math.abs((b.divergence?.messageIndex ?? -9) - k)).toBeLessThanOrEqual(1);
    expect(b.divergence?.uncertaintyTokens).toBeGreaterThanOrEqual(128);
    expect(b.tokensLost).toBe(prompts[5] - read);
    expect(b.evidence.join('\n')).toMatch(/multiple of the 128-token step/);
    expect(b.evidence.join('\n')).toMatch(/no earlier content changed size/);
  });

  it('OpenAI: the same stop where the exact inputs prove the prefix unchanged is a best-effort miss', () => {
    const t = session(8, GPT);
    const th = t.threads[0];
    for (const r of th.requests) r.exactInput = th.messages.slice(0, r.inputEnd);
    const u = withUsage(t);
    const read = Math.floor((u.starts[5] + 200) / 128) * 128;
    withUsage(t, { 6: { read } });
    const b = breakAt(report(t), 6);
    expect(b.cause).toBe('not-served');
    expect(b.evidence.join('\n')).toMatch(/exact input of this request starts with all \d+ messages/);
  });

  it('OpenAI: the same stop with a prompt that changed size is not called a provider miss', () => {
    const t = session(8, GPT);
    const u = withUsage(t);
    const read = Math.floor((u.starts[3] + 50) / 128) * 128;
    withUsage(t, { 6: { read, shrink: 1500 } });
    const b = breakAt(report(t), 6);
    expect(b.cause).not.toBe('not-served');
    expect(b.cause).toMatch(/^history-rewritten@\d+$/);
  });
});

describe('request logs (exact prefix)', () => {
  it('a tool-list change: tools-changed naming the tool, the read stops before the messages', () => {
    const t = session(5, CLAUDE);
    const tools = [{ name: 'Read', description: 'read a file', inputSchema: { type: 'object' } }];
    const th = t.threads[0];
    th.requests.forEach((r, i) => {
      r.exactPrefix = {
        system: [{ type: 'text', text: 'You are a coding agent.' }],
        tools: i < 3 ? tools : [...tools, { name: 'mcp__db__query', description: 'query', inputSchema: {} }],
      };
    });
    const { prompts } = withUsage(t, { 3: { read: 0 } });
    const b = breakAt(report(t), 3);
    expect(b.cause).toBe('tools-changed');
    expect(b.evidence.join('\n')).toMatch(/tools added mcp__db__query \(1 → 2 tools\)/);
    expect(b.tokensLost).toBe(prompts[2]);
    expect(b.divergence).toMatchObject({ messageIndex: 0, blockIndex: 0, tokens: 0 });
  });
});

describe('patterns and advice', () => {
  it('the same divergence point three times is one finding with its tokens and dollars, and advice', () => {
    const t = session(12, CLAUDE);
    const k = 2;
    const u = withUsage(t);
    const { prompts } = withUsage(t, {
      4: { read: u.starts[k] + 100 },
      7: { read: u.starts[k] + 100 },
      10: { read: u.starts[k] + 100 },
    });
    const r = report(t);
    const [p] = r.cacheFindings.patterns;
    expect(r.cacheFindings.patterns).toHaveLength(1);
    expect(p.requests).toEqual([4, 7, 10]);
    expect(p.every).toBe(3);
    const lost = [3, 6, 9].reduce((n, i) => n + prompts[i] - (u.starts[k] + 100), 0);
    expect(p.tokensLost).toBe(lost);
    const usd = [4, 7, 10].reduce((n, i) => n + (breakAt(r, i).usd ?? 0), 0);
    expect(p.usd).toBeCloseTo(usd, 10);
    expect(p.text).toContain(`3 times (requests 4, 7, 10), ${lost.toLocaleString('en-US')} tokens re-written`);
    const advice = r.cacheFindings.advice.find((a) => a.kind === 'recurring-rewrite');
    expect(advice?.usd).toBeCloseTo(usd, 10);
    expect(advice?.breaks.map((x) => x.index)).toEqual([4, 7, 10]);
  });

  it('breaks at different points make no pattern', () => {
    const t = session(10, CLAUDE);
    const u = withUsage(t);
    withUsage(t, { 4: { read: u.starts[2] + 100 }, 8: { read: u.starts[6] + 100 } });
    expect(report(t).cacheFindings.patterns).toEqual([]);
  });
});
