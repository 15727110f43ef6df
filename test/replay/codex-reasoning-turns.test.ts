// Codex's reasoning leaves the prompt at the next user prompt (hidden.ts; measured on the wild rollouts: at 19 new
// prompts the prompt was smaller by ≈0.84–1.33× the reasoning tokens the previous turn reported). Calibration counts
// a Codex request's reasoning within its turn only, so the unlogged offset stays put across turns; other formats
// keep every earlier thinking block, as measured for Claude Code.
import { beforeAll, describe, expect, it } from 'vitest';
import type { FormatId, Transcript } from '../../src/model/transcript.ts';
import { calibrateTranscript } from '../../src/replay/transcript.ts';
import { TokenMeter } from '../../src/tokens/meter.ts';
import type { CachedTokenizer } from '../../src/tokens/tokenizer.ts';
import { filler, transcript } from '../helpers/dsl.ts';
import { tokenizer } from '../helpers/replay.ts';

const OFFSET = 3000;
let tk: CachedTokenizer;
beforeAll(async () => {
  tk = await tokenizer();
});

/** Two turns of tool calls after reasoning, then a third prompt; usage as Codex's: a turn's reasoning is in the
 *  prompt of its own requests only. */
function session(format: FormatId): { t: Transcript; prompts: number[]; turn2: number } {
  const lines = ['U{} build it'];
  let clock = 0;
  const tick = () => {
    clock += 10;
    return clock;
  };
  const turn = (calls: number, tag: string) => {
    for (let i = 0; i < calls; i++) {
      lines.push(`A{t=${tick()},model=gpt-5-codex} think ${tag}${i}`, `A tu(${tag}${i}) shell ls ${i}`);
      lines.push(`U tr(${tag}${i}) 3000 chars`, '-');
    }
    lines.push(`A{t=${tick()},model=gpt-5-codex} done ${tag}`);
  };
  turn(3, 'a');
  lines.push('U now the tests');
  turn(2, 'b');
  lines.push('U and the docs', `A{t=${tick()},model=gpt-5-codex} ok`);
  const t = transcript(lines.join('\n'));
  t.format = format;
  const th = t.threads[0];
  const meter = new TokenMeter(tk);
  let seed = 1;
  for (const m of th.messages)
    for (const b of m.blocks) if (b.type === 'thinking') b.thinking = filler(2000, 'chars', seed++);
  const isPrompt = (i: number) =>
    th.messages[i].role === 'user' && !th.messages[i].blocks.some((b) => b.type === 'tool_result');
  const prompts: number[] = [];
  for (const r of th.requests) {
    let turnStart = 0;
    for (let i = 0; i < r.inputEnd; i++) if (isPrompt(i)) turnStart = i;
    let prompt = OFFSET;
    for (let i = 0; i < r.inputEnd; i++)
      for (const b of th.messages[i].blocks) if (b.type !== 'thinking' || i >= turnStart) prompt += meter.block(b);
    const own = th.messages[r.inputEnd].blocks.reduce((n, b) => n + (b.type === 'thinking' ? meter.block(b) : 0), 0);
    r.observed = { input: prompt, cacheRead: 0, cacheWrite: 0, output: own };
    prompts.push(prompt);
  }
  const turn2 = th.requests.findIndex((r) =>
    th.messages[r.inputEnd - 1].blocks.some((b) => b.type === 'text' && b.text === 'now the tests'),
  );
  return { t, prompts, turn2 };
}

describe('calibration of Codex reasoning per turn', () => {
  it('codex: every estimate within 1% and one unlogged offset across the turns', () => {
    const { t, prompts, turn2 } = session('codex');
    const c = calibrateTranscript(t, new TokenMeter(tk)).get('main');
    const reqs = c?.requests ?? [];
    reqs.forEach((e, i) => {
      expect(Math.abs(e.estimate - prompts[i]) / prompts[i]).toBeLessThan(0.01);
    });
    expect(Math.abs(reqs[turn2].offset - reqs[0].offset)).toBeLessThan(0.01 * prompts[turn2]);
    expect(reqs[turn2].hiddenFrom).toBeGreaterThan(0);
  });

  it('claude-code keeps earlier thinking: the first request of a new turn is overestimated by that turn’s reasoning', () => {
    const { t, prompts, turn2 } = session('claude-code');
    const reqs = calibrateTranscript(t, new TokenMeter(tk)).get('main')?.requests ?? [];
    expect((reqs[turn2].estimate - prompts[turn2]) / prompts[turn2]).toBeGreaterThan(0.03);
    expect(reqs[turn2].hiddenFrom).toBeUndefined();
  });
});
