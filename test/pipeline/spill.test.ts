// Stage 2 — spill (SPEC §4.2; Kocoro spill_test, toolresult_budget_test): per-result spill over
// `spillThreshold` runes (or a declared tool cap) with a rune-exact preview and a byte-exact marker; then the
// per-batch aggregate target (largest first, ≥ minAggregateSpill, self-capped tools skipped, a target and not a
// ceiling); replacements and the Seen set persist and are re-applied byte-identically after a reset.
import { beforeAll, describe, expect, it } from 'vitest';
import { headRunes, runeCount } from '../../src/lib/runes.ts';
import type { Message, Thread, Transcript } from '../../src/model/transcript.ts';
import type { CachedTokenizer } from '../../src/tokens/tokenizer.ts';
import { emojiFiller } from '../helpers/arbitrary.ts';
import { filler, thread, transcript } from '../helpers/dsl.ts';
import { asRequestLog, type Call, loop, repeat } from '../helpers/loop.ts';
import {
  allEvents,
  outputsOf,
  type RunOptions,
  replayFirst,
  resultContent,
  run,
  tokenizer,
} from '../helpers/replay.ts';

let tk: CachedTokenizer;
beforeAll(async () => {
  tk = await tokenizer();
});

/** Only the aggregate step acts: the per-result threshold is out of reach. */
const AGGREGATE_ONLY: RunOptions = { set: { spillThreshold: 10_000_000 } };
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const grep = (result: string): Call => ({ tool: 'Grep', args: 'needle', result });
const spills = async (t: Transcript, o: RunOptions = {}) =>
  allEvents(await run(t, o))
    .filter((e) => e.stage === 'spill')
    .map((e) => [e.action, e.toolUseId]);

/** Rune total of the string results in the message that holds `id` (one batch). */
function batchRunes(out: readonly Message[], id: string): number {
  const m = out.find((x) => x.blocks.some((b) => b.type === 'tool_result' && b.toolUseId === id));
  let n = 0;
  for (const b of m?.blocks ?? [])
    if (b.type === 'tool_result' && typeof b.content === 'string') n += runeCount(b.content);
  return n;
}

const last = (t: Transcript, o: RunOptions = {}) => outputsOf(tk, t, o).at(-1) ?? [];

describe('per-result spill (SPEC §4.2)', () => {
  it('exactly 50,000 runes do not spill; 50,001 do', async () => {
    expect(await spills(loop([{ tool: 'Bash', args: 'cat big.log', result: '50000 chars' }]))).toEqual([]);
    expect(await spills(loop([{ tool: 'Bash', args: 'cat big.log', result: '50001 chars' }]))).toEqual([
      ['spill', 't0'],
    ]);
  });

  it('the replacement is byte-exact: marker line, blank line, preview label, newline, first 2,000 runes', async () => {
    const t = loop([{ tool: 'Bash', args: 'cat big.log', result: '60000 chars' }]);
    const original = resultContent(t.threads[0].messages, 't0') as string;
    expect(resultContent(last(t), 't0')).toBe(
      `[Output saved to disk: tool-results/t0.txt (60000 chars)]\n\nPreview (first 2000 chars):\n${original.slice(0, 2000)}`,
    );
  });

  it('CJK previews are exactly 2,000 runes', async () => {
    const t = loop([{ tool: 'Bash', args: 'cat zh.txt', result: '60000 cjk' }]);
    const out = resultContent(last(t), 't0') as string;
    const [head, preview] = out.split('Preview (first 2000 chars):\n');
    expect(head).toBe('[Output saved to disk: tool-results/t0.txt (60000 chars)]\n\n');
    expect(runeCount(preview)).toBe(2000);
    expect(preview).toBe(headRunes(resultContent(t.threads[0].messages, 't0') as string, 2000));
  });

  it('emoji previews are 2,000 runes and never split a surrogate pair; N counts runes, not UTF-16 units', async () => {
    const content = emojiFiller(60_000);
    expect(content.length).toBeGreaterThan(100_000);
    const t = loop([{ tool: 'Bash', args: 'cat emoji.txt', result: JSON.stringify(content) }]);
    const out = resultContent(last(t), 't0') as string;
    expect(out.startsWith('[Output saved to disk: tool-results/t0.txt (60000 chars)]')).toBe(true);
    const preview = out.split('Preview (first 2000 chars):\n')[1];
    expect(runeCount(preview)).toBe(2000);
    expect(preview).toBe(headRunes(content, 2000));
    expect(LONE_SURROGATE.test(out)).toBe(false);
  });

  it('spills when the batch first appears, whatever the trigger (a 200K window is far from it)', async () => {
    const t = loop([
      { tool: 'Bash', args: 'ls', result: '100 chars' },
      { tool: 'Bash', args: 'cat big.log', result: '60000 chars' },
    ]);
    const r = await run(t);
    const ev = allEvents(r).filter((e) => e.stage === 'spill');
    expect(ev.map((e) => [e.request, e.toolUseId])).toEqual([[2, 't1']]);
    expect(ev[0].detail).toBe('Bash: 60000 chars → 2000-char preview');
  });

  it('a declared per-tool cap (toolCaps, matched by alias: Grep → grep) spills above the cap', async () => {
    const caps: RunOptions = { set: { toolCaps: { grep: 20_000 } } };
    expect(await spills(loop([grep('20000 chars')]), caps)).toEqual([]);
    expect(await spills(loop([grep('20001 chars')]), caps)).toEqual([['spill', 't0']]);
    expect(await spills(loop([grep('20001 chars')]))).toEqual([]);
  });

  it('self-capped file_read (Read) is never spilled, however large', async () => {
    expect(await spills(loop([{ tool: 'Read', args: 'huge.json', result: '300000 chars' }]))).toEqual([]);
  });
});

describe('batch aggregate target (SPEC §4.2)', () => {
  it('four 60,000-char greps in one batch: all spill per result and the batch ends ≤ 200,000 runes', async () => {
    const t = loop([repeat(4, grep('60000 chars'))]);
    expect((await spills(t)).map(([a]) => a)).toEqual(['spill', 'spill', 'spill', 'spill']);
    expect(batchRunes(last(t), 't0_0')).toBeLessThanOrEqual(200_000);
  });

  it('aggregate only: four 60,000-char greps → the largest (ties: first in the message) spills, then it stops at ≤ 200,000', async () => {
    const t = loop([repeat(4, grep('60000 chars'))]);
    expect(await spills(t, AGGREGATE_ONLY)).toEqual([['spill-batch', 't0_0']]);
    const total = batchRunes(last(t, AGGREGATE_ONLY), 't0_0');
    expect(total).toBeLessThanOrEqual(200_000);
    expect(total).toBeGreaterThan(180_000);
  });

  it('Kocoro AggregateCap_NoOpUnderCap: 3 × 30K is untouched', async () => {
    expect(await spills(loop([repeat(3, grep('30000 chars'))]), AGGREGATE_ONLY)).toEqual([]);
  });

  it('Kocoro AggregateCap_NoOpForSmallBatch: a single 300K result is not a batch', async () => {
    expect(await spills(loop([grep('300000 chars')]), AGGREGATE_ONLY)).toEqual([]);
  });

  it('Kocoro AggregateCap_TenBy30K: 10 × 30K ends ≤ 200K after exactly 4 spills, largest-first in message order', async () => {
    const t = loop([repeat(10, grep('30000 chars'))]);
    expect(await spills(t, AGGREGATE_ONLY)).toEqual(['t0_0', 't0_1', 't0_2', 't0_3'].map((id) => ['spill-batch', id]));
    expect(batchRunes(last(t, AGGREGATE_ONLY), 't0_0')).toBeLessThanOrEqual(200_000);
  });

  it('Kocoro AggregateCap_MixedSizes: 3 × 80K + 1K ends ≤ 200K and the 1K result is never spilled', async () => {
    const t = loop([[grep('80000 chars'), grep('1000 chars'), grep('80000 chars'), grep('80000 chars')]]);
    expect(await spills(t, AGGREGATE_ONLY)).toEqual([['spill-batch', 't0_0']]);
    const out = last(t, AGGREGATE_ONLY);
    expect(batchRunes(out, 't0_0')).toBeLessThanOrEqual(200_000);
    expect(resultContent(out, 't0_1')).toBe(filler(1000, 'chars', '1000 chars'.length));
  });

  it('Kocoro AggregateCap_MultibyteUsesRunes: 4 × 20K CJK (240K bytes) and 4 × 45K emoji (>300K UTF-16 units) do not spill', async () => {
    expect(await spills(loop([repeat(4, grep('20000 cjk'))]), AGGREGATE_ONLY)).toEqual([]);
    const emoji = JSON.stringify(emojiFiller(45_000));
    expect(await spills(loop([repeat(4, grep(emoji))]), AGGREGATE_ONLY)).toEqual([]);
  });

  it('Kocoro AggregateCap_CooperatesWithPerResultSpill: 100K + 60K + 60K', async () => {
    const t = loop([[grep('60000 chars'), grep('100000 chars'), grep('60000 chars')]]);
    // per result first (SPEC order): all three are over 50K, so the aggregate step has nothing left to do
    expect(await spills(t)).toEqual([
      ['spill', 't0_0'],
      ['spill', 't0_1'],
      ['spill', 't0_2'],
    ]);
    // aggregate only: the 100K goes first and that is enough
    expect(await spills(t, AGGREGATE_ONLY)).toEqual([['spill-batch', 't0_1']]);
  });

  it('the target is not a ceiling: a batch of small results stays over it, and 1,000-char results are never spilled', async () => {
    const o: RunOptions = { set: { spillThreshold: 10_000_000, batchAggregateTarget: 1_000 } };
    const t = loop([[grep('1000 chars'), grep('6000 chars'), grep('1000 chars')]]);
    expect(await spills(t, o)).toEqual([['spill-batch', 't0_1']]);
    expect(batchRunes(last(t, o), 't0_0')).toBeGreaterThan(1_000);
  });

  it('self-capped results are skipped by the aggregate step too', async () => {
    const t = loop([[{ tool: 'Read', args: 'a.json', result: '80000 chars' }, ...repeat(2, grep('80000 chars'))]]);
    expect(await spills(t, AGGREGATE_ONLY)).toEqual([['spill-batch', 't0_1']]);
  });
});

describe('persistence (SPEC §4.2: replacements and Seen re-applied byte-identically)', () => {
  const session = () =>
    loop([
      { tool: 'Bash', args: 'cat big.log', result: '60000 chars' },
      ...repeat(5, { tool: 'Bash', args: 'ls', result: '200 chars' }),
    ]);

  it('the replacement is sent byte-identically on every later request', () => {
    const outs = outputsOf(tk, session());
    const spilled = resultContent(outs[1], 't0') as string;
    expect(spilled.startsWith('[Output saved to disk:')).toBe(true);
    for (const out of outs.slice(2)) expect(resultContent(out, 't0')).toBe(spilled);
  });

  it('after a reset (a request log whose history is rewritten every request) it is re-applied, not redone', () => {
    const plain = outputsOf(tk, session());
    const log = asRequestLog(session(), true);
    const r = replayFirst(tk, log);
    expect(r.requests.slice(1).every((q) => q.reset?.reason === 'history-rewritten')).toBe(true);
    expect(r.requests.flatMap((q) => q.events.filter((e) => e.stage === 'spill'))).toHaveLength(1);
    outputsOf(tk, log).forEach((out, k) => {
      expect(resultContent(out, 't0')).toBe(resultContent(plain[k], 't0'));
    });
  });

  it('a result Seen but not spilled stays frozen, even when its batch later goes over the target', () => {
    // Request 1 sees a and b (2 × 50K = the 100K target: no spill). Request 2's recorded input rewrites the batch
    // with a third result c: only the fresh c may spill; a and b — though larger — keep their bytes.
    const before = thread(`
      U task
      A tu(a) Grep x
      A tu(b) Grep y
      U tr(a) 50000 chars
      U tr(b) 50000 chars
      A ok`);
    const after = thread(`
      U task
      A tu(a) Grep x
      A tu(b) Grep y
      A tu(c) Grep z
      U tr(a) 50000 chars
      U tr(b) 50000 chars
      U tr(c) 10000 chars
      A Done.`);
    const th: Thread = {
      ...after,
      requests: [
        { index: 0, thread: 'main', inputEnd: 1 },
        { index: 1, thread: 'main', inputEnd: 3, exactInput: before.messages.slice(0, 3) },
        { index: 2, thread: 'main', inputEnd: 3, exactInput: after.messages.slice(0, 3) },
      ],
    };
    const t: Transcript = { ...transcript('U task'), threads: [th] };
    const o: RunOptions = { set: { spillThreshold: 10_000_000, batchAggregateTarget: 100_000 } };
    const r = replayFirst(tk, t, o);
    expect(r.requests[2].reset?.reason).toBe('history-rewritten');
    expect(r.requests.flatMap((q) => q.events.map((e) => [q.index, e.action, e.toolUseId]))).toEqual([
      [2, 'spill-batch', 'c'],
    ]);
    const out = outputsOf(tk, t, o)[2];
    expect(resultContent(out, 'a')).toBe(resultContent(after.messages, 'a'));
    expect(resultContent(out, 'b')).toBe(resultContent(after.messages, 'b'));
    expect(batchRunes(out, 'a')).toBeGreaterThan(100_000);
  });
});
