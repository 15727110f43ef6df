// State carried across requests (SPEC §3–§4): the working history carries the previous output forward
// (unchanged messages shared by reference, so the cache prefix holds), stage state survives resets, and
// every persisted tool-result rewrite is re-applied byte-identically when the recorded input stops extending
// the previous one — a result is rewritten once per thread, never redone.
import { beforeAll, describe, expect, it } from 'vitest';
import { isPipelineSummary } from '../../src/pipeline/cuts.ts';
import type { CachedTokenizer } from '../../src/tokens/tokenizer.ts';
import { asRequestLog, type Call, loop } from '../helpers/loop.ts';
import { outputsOf, type RunOptions, replayFirst, resultContent, tokenizer } from '../helpers/replay.ts';

let tk: CachedTokenizer;
beforeAll(async () => {
  tk = await tokenizer();
});

const bash = (n: number, result = '3000 chars'): Call => ({ tool: 'Bash', args: `go test ./pkg${n}`, result });
const fillers = (n: number) => Array.from({ length: n }, (_, i) => bash(i));
const TIERS: RunOptions = {
  set: { contextWindow: 24_000, outputReserve: 2_000, summarize: { enabled: false }, hardcap: { enabled: false } },
};

describe('state across requests', () => {
  it('the previous output is carried forward: a summary made at request k is the same object at k+1', () => {
    const t = loop(fillers(30));
    const o: RunOptions = { set: { contextWindow: 12_000, outputReserve: 0, tiersEnabled: false } };
    const r = replayFirst(tk, t, o);
    const outs = outputsOf(tk, t, o);
    const k = r.requests.findIndex((q) => q.events.some((e) => e.stage === 'summarize'));
    expect(k).toBeGreaterThan(0);
    expect(r.requests[k + 1].events).toEqual([]);
    expect(outs[k + 1][1]).toBe(outs[k][1]);
    expect(isPipelineSummary(outs[k + 1][1])).toBe(true);
    expect(r.requests[k + 1].commonMessages).toBe(outs[k].length); // the whole previous output is a prefix
  });

  it('rewrites are re-applied after resets: a request log gets the same tool results, each tiered once', () => {
    const t = loop(fillers(40));
    const plain = outputsOf(tk, t, TIERS);
    const log = asRequestLog(t, true);
    const r = replayFirst(tk, log, TIERS);
    expect(r.requests.slice(1).every((q) => q.reset?.reason === 'history-rewritten')).toBe(true);
    const tiered = r.requests.flatMap((q) => q.events.filter((e) => e.stage === 'tiers').map((e) => e.toolUseId));
    expect(tiered.length).toBeGreaterThan(10);
    expect(new Set(tiered).size).toBe(tiered.length);
    outputsOf(tk, log, TIERS).forEach((out, k) => {
      for (let i = 0; i < 40; i++)
        expect(resultContent(out, `t${i}`), `t${i}@${k}`).toEqual(resultContent(plain[k], `t${i}`));
    });
  });

  it('replay state after the run records what happened per result (tiers frozen, spill Seen, summaries folded)', () => {
    const t = loop([{ tool: 'Bash', args: 'cat log', result: '60000 chars' }, ...fillers(40)]);
    const r = replayFirst(tk, t, { set: { contextWindow: 24_000, outputReserve: 2_000 } });
    // One record per tool result, in thread order, by tool_use id.
    expect([...r.fates.keys()]).toEqual(Array.from({ length: 41 }, (_, i) => `t${i}`));
    expect(r.fates.get('t0')?.spilled).toBe(true);
    expect([...r.fates.values()].filter((f) => f.spilled).length).toBe(1);
    const touched = [...r.fates.values()].filter((f) => f.tier === 1 || f.tier === 2);
    expect(touched.length).toBeGreaterThan(0);
    expect(touched.every((f) => f.firstTouchRequest !== null && f.distanceAtFirstTouch !== null)).toBe(true);
  });

  it('the fates read by row are the fates read by id (the report and the re-fetches read rows)', () => {
    const t = loop([{ tool: 'Bash', args: 'cat log', result: '60000 chars' }, ...fillers(40)]);
    const r = replayFirst(tk, t, { set: { contextWindow: 24_000, outputReserve: 2_000 } });
    const f = r.fates;
    expect(f.size).toBe(41);
    expect(f.rowOf('not-a-result')).toBe(-1);
    expect(f.has('not-a-result')).toBe(false);
    let lost = 0;
    [...f.keys()].forEach((id, i) => {
      expect(f.idAt(i)).toBe(id);
      expect(f.rowOf(id)).toBe(i);
      const byId = f.get(id);
      const at = f.lostAt(i);
      if (at >= 0) lost++;
      expect({
        tier: f.tier(i),
        firstTouchRequest: f.firstTouchRequest(i),
        distanceAtFirstTouch: f.distanceAtFirstTouch(i),
        floor: f.floor(i),
        spilled: f.spilled(i),
        summarized: f.summarized(i),
        cleared: f.cleared(i),
        foldedAt: f.foldedAt(i),
        droppedAt: f.droppedAt(i),
        finalChars: f.finalChars(i),
        lostBy: at < 0 ? null : { request: at, how: f.lostHow(i) },
      }).toEqual({
        tier: byId?.tier,
        firstTouchRequest: byId?.firstTouchRequest,
        distanceAtFirstTouch: byId?.distanceAtFirstTouch,
        floor: byId?.floor,
        spilled: byId?.spilled,
        summarized: byId?.summarized,
        cleared: byId?.cleared,
        foldedAt: byId?.foldedAt,
        droppedAt: byId?.droppedAt,
        finalChars: byId?.finalChars,
        lostBy: byId?.lostBy,
      });
    });
    expect(lost).toBeGreaterThan(0);
  });
});
