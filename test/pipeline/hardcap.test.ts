// Stage 6 — hardcap (SPEC §4.6): if the estimate still exceeds contextWindow − outputReserve, drop the oldest
// messages — never the first user message or a summary, never half a pair, never the last minRecentTurns
// turns — and, when the recent turns alone are too big, cut the largest blocks so the request always fits.
// The sliding-window preset (keepLastMessages) drops the front on every request.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../../src/model/transcript.ts';
import { PROVIDERS } from '../../src/pairing/validate.ts';
import { isPipelineSummary } from '../../src/pipeline/cuts.ts';
import { extractiveSummarizer, type Summarizer } from '../../src/pipeline/summarizer.ts';
import type { CachedTokenizer } from '../../src/tokens/tokenizer.ts';
import { type Call, loop, retryLast, type Turn } from '../helpers/loop.ts';
import { outputsOf, type RunOptions, replayFirst, tokenizer } from '../helpers/replay.ts';

let tk: CachedTokenizer;
beforeAll(async () => {
  tk = await tokenizer();
});

/** Hardcap alone: cap = 6,000 − 1,000 = 5,000 tokens. */
const opts = (set: Record<string, unknown> = {}): RunOptions => ({
  set: {
    contextWindow: 6_000,
    outputReserve: 1_000,
    tiersEnabled: false,
    summarize: { enabled: false },
    ...set,
  },
});
const CAP = 5_000;
const bash = (n: number, result = '3000 chars'): Call => ({ tool: 'Bash', args: `go test ./pkg${n}`, result });
const fillers = (n: number) => Array.from({ length: n }, (_, i) => bash(i));
const useIds = (out: readonly Message[]) =>
  out.flatMap((m) => m.blocks.flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])));

describe('hardcap (SPEC §4.6)', () => {
  it('drops the oldest turns after the first user message until the request fits', () => {
    const t = loop(fillers(20));
    const r = replayFirst(tk, t, opts());
    const outs = outputsOf(tk, t, opts());
    const drops = r.requests.flatMap((q) => q.events).filter((e) => e.action === 'drop');
    expect(drops.length).toBeGreaterThan(0);
    for (const e of drops) expect(e.position).toBe(1);
    r.requests.forEach((q, k) => {
      expect(q.estimateOut).toBeLessThanOrEqual(CAP);
      expect(outs[k][0]).toBe(t.threads[0].messages[0]);
    });
    // only as much as needed: the oldest kept turn is younger than every dropped one
    expect(useIds(outs.at(-1) ?? [])[0]).toBe('t12');
  });

  it('always fits, even when the last two turns alone are too big (their largest blocks are cut)', () => {
    const t = loop([...fillers(3), bash(8, '20000 chars'), bash(9, '20000 cjk')]);
    const r = replayFirst(tk, t, opts());
    for (const q of r.requests) expect(q.estimateOut).toBeLessThanOrEqual(CAP);
    const last = r.requests.at(-1);
    expect(last?.events.some((e) => e.action === 'truncate' && e.toolUseId === 't4')).toBe(true);
    const out = outputsOf(tk, t, opts()).at(-1) ?? [];
    expect(useIds(out).slice(-2)).toEqual(['t3', 't4']); // the two recent turns are still there, cut, not dropped
    expect(last?.pairing).toEqual([]);
  });

  it.each([1, 2, 3])('keeps the last minRecentTurns = %i turns', (n) => {
    const o = opts({ hardcap: { minRecentTurns: n } });
    const out = outputsOf(tk, loop(fillers(20)), o).at(-1) ?? [];
    expect(useIds(out).slice(-n)).toEqual(Array.from({ length: n }, (_, i) => `t${20 - n + i}`));
  });

  it.each(PROVIDERS)('never drops half a pair or part of a parallel batch (%s)', (provider) => {
    const turns: Turn[] = Array.from({ length: 12 }, (_, i) =>
      i % 3 === 0 ? [bash(i), bash(i + 100), bash(i + 200)] : bash(i),
    );
    const r = replayFirst(tk, loop(turns), { ...opts(), provider });
    expect(r.requests.flatMap((q) => q.events).some((e) => e.action === 'drop')).toBe(true);
    expect(r.requests.flatMap((q) => q.pairing)).toEqual([]);
  });

  it('never drops a summary: with summaries failing after the first, drops happen behind it', () => {
    let calls = 0;
    const once: Summarizer = {
      id: 'once',
      summarizeResult: (req) => extractiveSummarizer.summarizeResult(req),
      summarizeTurns: (req) =>
        calls++ === 0 ? extractiveSummarizer.summarizeTurns(req) : { ok: false, error: 'down' },
    };
    const t = loop(fillers(30));
    const o: RunOptions = { ...opts({ summarize: { enabled: true } }), summarizer: once };
    const r = replayFirst(tk, t, o);
    calls = 0;
    const outs = outputsOf(tk, t, o);
    const first = outs.findIndex((out) => out.some(isPipelineSummary));
    expect(first).toBeGreaterThan(0);
    const dropsAfter = r.requests.slice(first + 1).flatMap((q) => q.events.filter((e) => e.action === 'drop'));
    expect(dropsAfter.length).toBeGreaterThan(0);
    for (const e of dropsAfter) expect(e.position).toBe(2);
    for (const out of outs.slice(first)) {
      expect(out[0]).toBe(t.threads[0].messages[0]);
      expect(isPipelineSummary(out[1])).toBe(true);
    }
  });

  it('is idempotent: more passes over the same input drop nothing more', () => {
    const r = replayFirst(tk, retryLast(loop(fillers(20)), 3), opts());
    const n = r.requests.length;
    expect(r.requests[n - 4].events.some((e) => e.action === 'drop')).toBe(true);
    for (const q of r.requests.slice(n - 3)) expect(q.events).toEqual([]);
  });
});

describe('sliding-window preset (keepLastMessages)', () => {
  it('drops the front on every request once the history is longer than the window: the cache never holds', () => {
    const t = loop(fillers(30));
    const r = replayFirst(tk, t, { preset: 'sliding-window' });
    const outs = outputsOf(tk, t, { preset: 'sliding-window' });
    const first = r.requests.findIndex((q) => q.events.some((e) => e.action === 'drop'));
    expect(first).toBeGreaterThanOrEqual(19); // request 19 is the first whose input has more than 40 messages
    expect(r.requests.length - first).toBeGreaterThan(10);
    for (const q of r.requests.slice(first)) {
      expect(q.events.filter((e) => e.action === 'drop').map((e) => e.position)).toEqual([1]);
      expect(q.outputMessages).toBeLessThanOrEqual(40);
      expect(q.commonMessages).toBeLessThanOrEqual(1); // only the task survives at the front
      expect(outs[q.index][0]).toBe(t.threads[0].messages[0]); // the window keeps the first user message
      expect(outs[q.index][1].role).toBe('assistant');
    }
  });
});
