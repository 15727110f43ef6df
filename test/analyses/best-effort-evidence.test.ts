// OpenAI's best-effort cache on small session logs where the truth is known (issue 16): usage is made from the
// counted tokens of each request's input plus a fixed unlogged prefix. An older entry served (the read equals an
// earlier read to the token) and a turn's reasoning dropped at a new user prompt (the prompt shrinks by the
// reasoning its responses reported): each asserts the cause, the divergence message (±1) and the tokens lost.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyses/analyze.ts';
import type { Report, RequestRow } from '../../src/analyses/report.ts';
import type { Transcript } from '../../src/model/transcript.ts';
import { TokenMeter } from '../../src/tokens/meter.ts';
import type { CachedTokenizer } from '../../src/tokens/tokenizer.ts';
import { filler, transcript } from '../helpers/dsl.ts';
import { configOf, tokenizer } from '../helpers/replay.ts';

const OFFSET = 3000;
const GPT = 'gpt-4o-2024-08-06';
let tk: CachedTokenizer;

beforeAll(async () => {
  tk = await tokenizer();
});

function report(t: Transcript): Report {
  const config = configOf({ preset: 'none' });
  return analyze(t, { config, preset: 'none', mode: 'recorded', provider: 'openai-responses', tokenizer: tk }).report;
}

function breakAt(r: Report, index: number): NonNullable<RequestRow['observedBreak']> {
  const b = r.requests.find((q) => q.thread === 'main' && q.index === index)?.observedBreak;
  if (!b) throw new Error(`no observed break at request ${index}`);
  return b;
}

/** Token position of every message start (starts[i]) after the unlogged prefix, and the end. */
function positions(t: Transcript): number[] {
  const meter = new TokenMeter(tk);
  const starts = [OFFSET];
  for (const m of t.threads[0].messages)
    starts.push(starts[starts.length - 1] + m.blocks.reduce((n, b) => n + meter.block(b), 0));
  return starts;
}

describe('older-entry: the read is exactly an earlier read', () => {
  /** `turns` user/assistant pairs of distinct filler, one request per turn; prompt = OFFSET + counted input. */
  function session(turns: number, reads: Record<number, number>): { t: Transcript; prompts: number[] } {
    const lines: string[] = [];
    for (let i = 0; i < turns; i++) lines.push(`U{} u${i}`, `A{t=${i * 30},model=${GPT}} a${i}`);
    const t = transcript(lines.join('\n'));
    t.threads[0].messages.forEach((m, i) => {
      m.blocks = [{ type: 'text', text: filler(3000, 'chars', i + 1) }];
    });
    const starts = positions(t);
    const prompts: number[] = [];
    t.threads[0].requests.forEach((r, i) => {
      const prompt = starts[r.inputEnd];
      // Full reads of the previous prompt at the 128-token step, unless the case says otherwise.
      const read = reads[i] ?? (i === 0 ? 0 : Math.floor(prompts[i - 1] / 128) * 128);
      prompts.push(prompt);
      r.observed = { input: prompt - read, cacheRead: read, cacheWrite: 0, output: 40 };
    });
    return { t, prompts };
  }

  it('a later break back at request 2’s read: older-entry at that point, with both lines and the tokens lost', () => {
    const first = session(9, {});
    const r2 = first.t.threads[0].requests[2].observed?.cacheRead ?? 0;
    const { t, prompts } = session(9, { 7: r2 });
    const b = breakAt(report(t), 7);
    expect(b.cause).toBe('older-entry');
    expect(b.tokensLost).toBe(prompts[6] - r2);
    // Request 2 read through request 1's input (messages 0–2): the read ends at message 3's start.
    expect(Math.abs((b.divergence?.messageIndex ?? -9) - 3)).toBeLessThanOrEqual(1);
    const text = b.evidence.join('\n');
    expect(text).toMatch(
      new RegExp(`the read, ${r2.toLocaleString('en-US')} tokens, is exactly what request 2 .*read`),
    );
    expect(text).toMatch(/requests since read up to [\d,]+ tokens \(request 6/);
    // How telling the match is, for the reader to weigh (estimated odds of a chance match).
    expect(text).toMatch(
      /\d+ distinct earlier reads? among the [\d,]+ 128-token steps .* ≈\d+% of the time \(estimated\)/,
    );
    expect(text).toMatch(/cannot show the rest of the prefix unchanged/);
  });

  it('back at the first request’s read: the entry cached before the conversation began', () => {
    const { t, prompts } = session(9, { 0: 2048, 5: 2048 });
    const b = breakAt(report(t), 5);
    expect(b.cause).toBe('older-entry');
    expect(b.tokensLost).toBe(prompts[4] - 2048);
    expect(b.divergence).toMatchObject({ region: 'unlogged-prefix', messageIndex: 0, tokens: 2048 });
    expect(b.evidence.join('\n')).toMatch(/request 0 was the conversation's first/);
  });

  it('the same older entry three times is one finding with its tokens and dollars, and no advice', () => {
    const first = session(12, {});
    const r2 = first.t.threads[0].requests[2].observed?.cacheRead ?? 0;
    const { t } = session(12, { 5: r2, 8: r2, 10: r2 });
    const r = report(t);
    const lost = [5, 8, 10].reduce((n, i) => n + breakAt(r, i).tokensLost, 0);
    expect(r.cacheFindings.patterns).toHaveLength(1);
    const [p] = r.cacheFindings.patterns;
    expect(p).toMatchObject({ requests: [5, 8, 10], causes: ['older-entry'], tokensLost: lost });
    expect(p.text).toMatch(/served the same older [\d,]+-token entry 3 times \(requests 5, 8, 10\)/);
    expect(r.cacheFindings.advice.filter((a) => a.kind === 'recurring-rewrite')).toEqual([]);
  });

  it('a read no earlier request made stays unexplained', () => {
    const { t } = session(9, { 7: 4096 + 128 * 7 });
    const b = breakAt(report(t), 7);
    expect(b.cause).toBe('unexplained');
    // What was checked, for the reader.
    expect(b.evidence.join('\n')).toMatch(
      /checked: the read, [\d,]+ tokens, equals none of the \d+ distinct earlier reads/,
    );
    // Each turn here starts with a user prompt, so that check is not claimed; the injected-context one is.
    expect(b.evidence.join('\n')).toMatch(/no context the agent injects .* was appended/);
  });

  it('Anthropic breaks never get it (its cache is not best effort)', () => {
    const first = session(9, {});
    const r2 = first.t.threads[0].requests[2].observed?.cacheRead ?? 0;
    const { t } = session(9, { 7: r2 });
    for (const r of t.threads[0].requests) r.model = 'claude-sonnet-4-5-20250929';
    for (const m of t.threads[0].messages) if (m.role === 'assistant') m.model = 'claude-sonnet-4-5-20250929';
    expect(breakAt(report(t), 7).cause).not.toBe('older-entry');
  });
});

describe('reasoning-dropped: a new user prompt after a turn that reasoned', () => {
  const THINK = 2400; // characters of each reasoning item
  /** One turn of three tool calls, each after reasoning, a final answer, then a new user prompt. */
  function log(
    reported: boolean,
    format: Transcript['format'] = 'claude-code',
  ): { t: Transcript; prompts: number[]; read: number; firstReasoning: number } {
    const t = transcript(
      [
        'U{} build it',
        `A{t=0,model=${GPT}} think r0`,
        'A tu(c1) shell ls',
        'U tr(c1) 6000 chars',
        `A{t=10,model=${GPT}} think r1`,
        'A tu(c2) shell ls -la',
        'U tr(c2) 6000 chars',
        `A{t=20,model=${GPT}} think r2`,
        'A tu(c3) shell cat a.txt',
        'U tr(c3) 6000 chars',
        `A{t=30,model=${GPT}} done`,
        'U and now the tests',
        `A{t=40,model=${GPT}} ok`,
      ].join('\n'),
    );
    t.format = format;
    const th = t.threads[0];
    const meter = new TokenMeter(tk);
    let seed = 1;
    const reasoning = new Map<number, number>();
    for (const m of th.messages)
      for (const b of m.blocks)
        if (b.type === 'thinking') {
          b.thinking = filler(THINK, 'chars', seed++);
          reasoning.set(m.index, meter.block(b));
        }
    const starts = positions(t);
    const dropped = [...reasoning.values()].reduce((a, b) => a + b, 0);
    const prompts: number[] = [];
    const last = th.requests.length - 1;
    // The truth: every reasoning item stays within its turn; at the new prompt the turn's reasoning is gone, and
    // no entry matches past the first reasoning item (request 0's prompt).
    const read = Math.floor(starts[th.requests[0].inputEnd] / 128) * 128;
    th.requests.forEach((r, i) => {
      const prompt = starts[r.inputEnd] - (i === last ? dropped : 0);
      const cacheRead = i === 0 ? 0 : i === last ? read : Math.floor(prompts[i - 1] / 128) * 128;
      prompts.push(prompt);
      const own = reasoning.get(r.inputEnd) ?? 0;
      r.observed = { input: prompt - cacheRead, cacheRead, cacheWrite: 0, output: own + 20 };
      if (reported) r.reasoningOutput = own;
    });
    return { t, prompts, read, firstReasoning: th.requests[0].inputEnd };
  }

  it('the prompt shrinks by the turn’s reasoning: reasoning-dropped at the first reasoning item', () => {
    const { t, prompts, read, firstReasoning } = log(true);
    const last = t.threads[0].requests.length - 1;
    const b = breakAt(report(t), last);
    expect(b.cause).toBe('reasoning-dropped');
    // Re-written: the prompt it sent (smaller by the dropped reasoning) less its read, not the previous prompt.
    expect(b.tokensLost).toBe(Math.min(prompts[last - 1], prompts[last]) - read);
    expect(prompts[last]).toBeLessThan(prompts[last - 1]);
    expect(Math.abs((b.divergence?.messageIndex ?? -9) - firstReasoning)).toBeLessThanOrEqual(1);
    const text = b.evidence.join('\n');
    expect(text).toMatch(/previous turn's 4 responses \(requests 0–3\) reported [\d,]+ reasoning tokens/);
    expect(text).toMatch(new RegExp(`began at ${prompts[0].toLocaleString('en-US')} tokens \\(request 0's prompt`));
    expect(b.detail).toMatch(/left the prompt at the new user prompt/);
  });

  it('the same under Codex’s calibration, which already leaves an earlier turn’s reasoning out', () => {
    const { t, prompts, read } = log(true, 'codex');
    const last = t.threads[0].requests.length - 1;
    const b = breakAt(report(t), last);
    expect(b.cause).toBe('reasoning-dropped');
    // Re-written: the prompt it sent (smaller by the dropped reasoning) less its read, not the previous prompt.
    expect(b.tokensLost).toBe(Math.min(prompts[last - 1], prompts[last]) - read);
    expect(prompts[last]).toBeLessThan(prompts[last - 1]);
    expect(b.evidence.join('\n')).toMatch(/with that reasoning out of the prompt and ≈[+−][\d,]+ with it kept/);
  });

  it('the same shrink without reported reasoning is a rewrite, not a dropped turn', () => {
    const { t } = log(false);
    const last = t.threads[0].requests.length - 1;
    expect(breakAt(report(t), last).cause).toMatch(/^history-rewritten@\d+$/);
  });
});
