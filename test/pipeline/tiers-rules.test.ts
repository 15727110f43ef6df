// Stage 3 — tiers (SPEC §4.3; Kocoro loop_compaction_test, microcompact_test, cache_idempotence_test): the
// per-pass summary budget counts attempts, floors match canonical aliases in block or message scope, the
// exact Tier-1 stub and head/tail texts (rune-safe), first touch freezes a result (no conveyor belt), Tier 3
// is re-examined, events only on byte changes, and further passes over the same input change nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { headRunes, runeCount, tailRunes } from '../../src/lib/runes.ts';
import type { Block, Transcript } from '../../src/model/transcript.ts';
import type { PipelineEvent } from '../../src/pipeline/stage.ts';
import { extractiveSummarizer, failingSummarizer, type Summarizer } from '../../src/pipeline/summarizer.ts';
import type { CachedTokenizer } from '../../src/tokens/tokenizer.ts';
import { emojiFiller } from '../helpers/arbitrary.ts';
import { filler } from '../helpers/dsl.ts';
import { type Call, loop, repeat, retryLast, type Turn, withResult } from '../helpers/loop.ts';
import { outputsOf, type RunOptions, replayFirst, resultContent, spySummarizer, tokenizer } from '../helpers/replay.ts';

let tk: CachedTokenizer;
beforeAll(async () => {
  tk = await tokenizer();
});

/** Tiers alone: a window the session crosses late (≈ request 30), no summaries, no hard cap. */
const TIERS_ONLY = {
  contextWindow: 24_000,
  outputReserve: 2_000,
  observationWindow: 1_000,
  summarize: { enabled: false },
  hardcap: { enabled: false },
};
const opts = (set: Record<string, unknown> = {}, summarizer?: Summarizer): RunOptions => ({
  set: { ...TIERS_ONLY, ...set },
  summarizer,
});
const bash = (n: number, result = '3000 chars'): Call => ({ tool: 'Bash', args: `go test ./pkg${n}`, result });
const fillers = (n: number, from = 100) => Array.from({ length: n }, (_, i) => bash(from + i));

function tierEvents(t: Transcript, o: RunOptions): PipelineEvent[] {
  return replayFirst(tk, t, o).requests.flatMap((q) => q.events.filter((e) => e.stage === 'tiers'));
}

/** Summarizer calls per request (index = request). */
function callsPerRequest(t: Transcript, inner: Summarizer, set: Record<string, unknown> = {}): number[] {
  const spy = spySummarizer(inner);
  const calls: number[] = [];
  let seen = 0;
  replayFirst(tk, t, {
    ...opts(set, spy),
    observe: (k) => {
      calls[k] = spy.resultCalls - seen;
      seen = spy.resultCalls;
    },
  });
  return calls;
}

describe('Tier-2 summary budget (SPEC §4.3: summaryAttemptsPerPass, counted per attempt)', () => {
  const t = loop(fillers(40));

  it('a failing summarizer is called at most 2 times per pass, though a dozen results are eligible', () => {
    const calls = callsPerRequest(t, failingSummarizer);
    expect(Math.max(...calls)).toBe(2);
    const firstPass = calls.findIndex((n) => n > 0);
    const ev = tierEvents(t, opts({}, failingSummarizer)).filter((e) => e.request === firstPass);
    expect(ev.filter((e) => e.tier === 2).length).toBeGreaterThanOrEqual(10);
    expect(ev.filter((e) => e.action === 'tier2-summary')).toEqual([]);
  });

  it("summarizer: 'fail' in the config behaves the same", () => {
    const spy = spySummarizer(failingSummarizer);
    replayFirst(tk, t, opts({ summarizer: 'fail' }, spy));
    const r = replayFirst(tk, t, opts({ summarizer: 'fail' }));
    expect(r.requests.flatMap((q) => q.events).some((e) => e.action === 'tier2-summary')).toBe(false);
    expect(spy.resultCalls).toBeGreaterThan(0);
  });

  it('the budget counts attempts, not successes: fail then succeed → one summary, everything else truncated', () => {
    let n = 0;
    const flaky: Summarizer = {
      id: 'flaky',
      summarizeResult: (req) =>
        n++ % 2 === 0 ? { ok: false, error: 'timeout' } : extractiveSummarizer.summarizeResult(req),
      summarizeTurns: (req) => extractiveSummarizer.summarizeTurns(req),
    };
    const calls = callsPerRequest(t, flaky);
    const firstPass = calls.findIndex((c) => c > 0);
    expect(calls[firstPass]).toBe(2);
    n = 0;
    const ev = tierEvents(t, opts({}, flaky)).filter((e) => e.request === firstPass && e.tier === 2);
    expect(ev.filter((e) => e.action === 'tier2-summary')).toHaveLength(1);
    expect(ev.filter((e) => e.action === 'tier2-truncate').length).toBeGreaterThanOrEqual(9);
  });

  it('summaries go to the oldest eligible Tier-2 results, carry the prefix and fit in tier2Cap runes', () => {
    const ev = tierEvents(t, opts());
    const summaries = ev.filter((e) => e.action === 'tier2-summary');
    const firstPass = summaries[0].request;
    const tier2 = ev.filter((e) => e.request === firstPass && e.tier === 2);
    expect(summaries.filter((e) => e.request === firstPass).map((e) => e.toolUseId)).toEqual(
      tier2.slice(0, 2).map((e) => e.toolUseId),
    );
    for (const e of summaries) {
      expect(e.charsAfter).toBeLessThanOrEqual(300);
      expect(String(e.after?.type === 'tool_result' && e.after.content).startsWith('[micro-compact] ')).toBe(true);
    }
  });

  it('content already marked [micro-compact] is never summarised again (no call), only truncated', () => {
    const marked = JSON.stringify(`[micro-compact] earlier: ${filler(2600)}`);
    const t2 = loop([
      ...fillers(8, 0).map((c) => ({ ...c, result: marked })),
      ...fillers(32, 0).map((c) => ({ ...c, result: '3000 chars' })),
    ]);
    const calls = callsPerRequest(t2, extractiveSummarizer, { tier1Distance: 1_000 });
    const ev = tierEvents(t2, opts({ tier1Distance: 1_000 }));
    const markedIds = new Set(['t0', 't1', 't2', 't3', 't4', 't5', 't6', 't7']);
    const onMarked = ev.filter((e) => markedIds.has(e.toolUseId ?? ''));
    expect(onMarked.length).toBeGreaterThan(0);
    expect(onMarked.every((e) => e.action === 'tier2-truncate')).toBe(true);
    expect(Math.max(...calls)).toBeLessThanOrEqual(2);
  });
});

describe('floors (SPEC §4.3: floorTools by raw name or canonical alias; floorScope)', () => {
  it('Read → file_read, Grep → grep, Glob, LS → directory_list, mcp__x__browser_navigate → browser_navigate stay at Tier 2; Bash becomes Tier 1', () => {
    const head: Call[] = [
      { tool: 'Read', args: 'internal/auth/session.go', result: '3000 chars' },
      { tool: 'Grep', args: 'TODO', result: '3000 chars' },
      { tool: 'Glob', args: '**/*.go', result: '3000 chars' },
      { tool: 'LS', args: '{"path":"internal"}', result: '3000 chars' },
      { tool: 'mcp__x__browser_navigate', args: '{"url":"https://x.test"}', result: '3000 chars' },
      bash(0),
    ];
    const ev = tierEvents(loop([...head, ...fillers(30)]), opts());
    const byId = new Map(ev.map((e) => [e.toolUseId, e]));
    for (const id of ['t0', 't1', 't2', 't3', 't4']) {
      expect(byId.get(id)?.tier, id).toBe(2);
      expect(byId.get(id)?.action, id).toBe('tier2-truncate'); // floor tools are never summarised
      expect(byId.get(id)?.distance ?? 0).toBeGreaterThanOrEqual(20);
    }
    expect(byId.get('t5')?.action).toBe('tier1');
  });

  it("floorScope 'block': in a parallel [Bash, Read] message at distance ≥ 20, only the Read stays at Tier 2", () => {
    const turns: Turn[] = [[bash(0), { tool: 'Read', args: 'a.go', result: '3000 chars' }], ...fillers(32)];
    const ev = tierEvents(loop(turns), opts({ floorScope: 'block' })).filter((e) => e.toolUseId?.startsWith('t0_'));
    expect(ev.map((e) => [e.toolUseId, e.tier])).toEqual([
      ['t0_0', 1],
      ['t0_1', 2],
    ]);
  });

  it("floorScope 'message' (Kocoro source): one floor block keeps the whole message at Tier 2", () => {
    const turns: Turn[] = [[bash(0), { tool: 'Read', args: 'a.go', result: '3000 chars' }], ...fillers(32)];
    const ev = tierEvents(loop(turns), opts({ floorScope: 'message' })).filter((e) => e.toolUseId?.startsWith('t0_'));
    expect(ev.map((e) => [e.toolUseId, e.tier])).toEqual([
      ['t0_0', 2],
      ['t0_1', 2],
    ]);
  });
});

describe('exact texts (SPEC §4.3: Tier-1 stub, head/tail marker; every cut rune-safe)', () => {
  it('the Tier-1 stub clips args at 100 runes + "..." (rune-safe on CJK)', () => {
    const cmd = `echo ${'漢'.repeat(150)}`;
    const t = loop([{ tool: 'Bash', args: cmd, result: '3000 chars' }, ...fillers(32)]);
    const out = outputsOf(tk, t, opts()).at(-1) ?? [];
    const json = JSON.stringify({ command: cmd });
    expect(resultContent(out, 't0')).toBe(
      `[Bash called with ${headRunes(json, 100)}...] → [result: 3000 chars, snipped]`,
    );
  });

  it('Tier-2 head/tail keeps ¾ head and ¼ tail of tier2Cap runes around [... truncated <D> chars ...], on CJK and emoji', () => {
    const emoji = emojiFiller(3_000);
    const t = loop([
      { tool: 'Read', args: 'zh.md', result: '3000 cjk' },
      { tool: 'Read', args: 'emoji.md', result: JSON.stringify(emoji) },
      ...fillers(12),
    ]);
    const o = opts({ tier1Distance: 1_000, contextWindow: 14_000 });
    expect(tierEvents(t, o).filter((e) => e.toolUseId === 't0' || e.toolUseId === 't1')).toHaveLength(2);
    const out = outputsOf(tk, t, o).at(-1) ?? [];
    const cjk = resultContent(t.threads[0].messages, 't0') as string;
    const marker = '\n\n[... truncated 2700 chars ...]\n\n';
    expect(resultContent(out, 't0')).toBe(`${headRunes(cjk, 225)}${marker}${tailRunes(cjk, 75)}`);
    expect(resultContent(out, 't1')).toBe(`${headRunes(emoji, 225)}${marker}${tailRunes(emoji, 75)}`);
    expect(
      /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(String(resultContent(out, 't1'))),
    ).toBe(false);
  });
});

describe('events (SPEC §4: every rewrite is one event with sizes before and after)', () => {
  it('a Tier-1 event names its request, message, block, tool_use id, tier, distance and both sizes', () => {
    const t = loop([bash(0), ...fillers(32)]);
    const ev = tierEvents(t, opts()).find((e) => e.toolUseId === 't0');
    const at = t.threads[0].messages.findIndex((m) =>
      m.blocks.some((b) => b.type === 'tool_result' && b.toolUseId === 't0'),
    );
    const stub = '[Bash called with {"command":"go test ./pkg0"}] → [result: 3000 chars, snipped]';
    expect(ev).toMatchObject({
      stage: 'tiers',
      action: 'tier1',
      tier: 1,
      messageIndex: at,
      blockIndex: 0,
      toolUseId: 't0',
      charsBefore: 3000,
      charsAfter: runeCount(stub),
    });
    expect(ev?.distance ?? 0).toBeGreaterThanOrEqual(20);
    expect(ev?.tokensAfter ?? 1e9).toBeLessThan(ev?.tokensBefore ?? 0);
    const out = outputsOf(tk, t, opts())[ev?.request ?? 0];
    expect(resultContent(out, 't0')).toBe(stub);
  });

  it('the Tier-1 size counts the runes of the text parts of a structured result (images count 0)', () => {
    const parts: Block[] = [
      { type: 'text', text: filler(1200) },
      { type: 'image', mediaType: 'image/png', source: { type: 'base64', data: 'iVBORw0KGgo=' } },
      { type: 'text', text: filler(800) },
    ];
    const t = withResult(loop([bash(0), ...fillers(32)]), 't0', parts);
    const out = outputsOf(tk, t, opts()).at(-1) ?? [];
    expect(resultContent(out, 't0')).toBe(
      '[Bash called with {"command":"go test ./pkg0"}] → [result: 2000 chars, snipped]',
    );
  });
});

describe('first touch and freezing (SPEC §4.3)', () => {
  it('a touched result keeps its bytes in every later request — a Tier-2 result later at distance ≥ 20 too', () => {
    const t = loop(fillers(60));
    const o = opts();
    const ev = tierEvents(t, o);
    const tier2 = ev.filter((e) => e.tier === 2);
    expect(tier2.length).toBeGreaterThan(0);
    const outs = outputsOf(tk, t, o);
    for (const e of ev) {
      const id = e.toolUseId ?? '';
      const frozen = resultContent(outs[e.request], id);
      for (const out of outs.slice(e.request + 1)) expect(resultContent(out, id)).toEqual(frozen);
    }
    // at least one Tier-2 result really travelled into the Tier-1 zone afterwards
    const n = t.threads[0].requests.length - 1;
    expect(tier2.some((e) => n - e.request + (e.distance ?? 0) >= 20)).toBe(true);
    expect(new Set(ev.map((e) => e.toolUseId)).size).toBe(ev.length);
  });

  it('Tier 3 is not marked: results inside the window at one pass are first touched at the next pass over the trigger', () => {
    const ev = tierEvents(loop(fillers(60)), opts());
    const passes = [...new Set(ev.map((e) => e.request))];
    expect(passes.length).toBeGreaterThanOrEqual(2);
    const first = ev.filter((e) => e.request === passes[0]);
    const second = ev.filter((e) => e.request === passes[1]);
    // the first pass touches distances 8…; the 8 results then inside the window are left for later
    expect(Math.min(...first.map((e) => e.distance ?? 0))).toBe(8);
    const skipped = first.length; // ids t0…t(n−1) were touched, t(n)…t(n+7) sat in the Tier-3 window
    const window = Array.from({ length: 8 }, (_, i) => `t${skipped + i}`);
    expect(second.slice(0, 8).map((e) => e.toolUseId)).toEqual(window);
    // the estimate fell under the trigger after the first pass, so by the second they had drifted into Tier 1
    expect(second[0].tier).toBe(1);
  });

  it('sessions with exactly tier3Window tool-result messages are never tiered', () => {
    const t = loop(repeat(8, bash(0, '40000 chars')));
    expect(tierEvents(t, opts({ contextWindow: 20_000, outputReserve: 1_000 }))).toEqual([]);
  });

  it('nothing is tiered while the estimate stays under the trigger', () => {
    expect(tierEvents(loop(fillers(40)), opts({ contextWindow: 200_000 }))).toEqual([]);
  });

  it('events only when bytes change: a 200-char Tier-2 result emits nothing and stays intact at distance ≥ 20', () => {
    const t = loop([...fillers(14), bash(0, '200 chars'), ...fillers(45, 200)]);
    const o = opts();
    const ev = tierEvents(t, o);
    const small = ev.find((e) => e.toolUseId === 't14');
    expect(small).toBeUndefined();
    const out = outputsOf(tk, t, o).at(-1) ?? [];
    expect(resultContent(out, 't14')).toBe(resultContent(t.threads[0].messages, 't14'));
    expect(ev.some((e) => e.tier === 1)).toBe(true);
  });

  it('a Tier-1 stub longer than the tiny result it would replace is not applied (no stage adds tokens)', () => {
    const t = loop([bash(0, '10 chars'), ...fillers(32)]);
    const o = opts();
    expect(tierEvents(t, o).some((e) => e.toolUseId === 't0')).toBe(false);
    expect(resultContent(outputsOf(tk, t, o).at(-1) ?? [], 't0')).toBe(filler(10, 'chars', '10 chars'.length));
  });
});

describe('idempotence (Kocoro cache_idempotence: 25 results, passes 2–5 identical to pass 1)', () => {
  it('four more passes over the same input emit nothing and send identical bytes', () => {
    // 24 results stay under the trigger; the 25th (30K chars) crosses it, so pass 1 is the last request.
    const t = retryLast(loop([...fillers(24), bash(0, '30000 chars')]), 4);
    const o = opts();
    const r = replayFirst(tk, t, o);
    const n = r.requests.length;
    const pass1 = r.requests[n - 5];
    expect(r.requests.slice(0, n - 5).flatMap((q) => q.events)).toEqual([]);
    expect(pass1.events.filter((e) => e.stage === 'tiers').length).toBeGreaterThanOrEqual(10);
    for (const q of r.requests.slice(n - 4)) expect(q.events).toEqual([]);
    const outs = outputsOf(tk, t, o);
    for (const out of outs.slice(n - 4)) expect(out).toEqual(outs[n - 5]);
  });
});
