// Stage 4 — microcompact (SPEC §4.4; Anthropic context editing): only when enabled and over the trigger,
// tool-result bodies older than the newest `keepRecent` become `[Old tool result content cleared]`;
// `excludeTools` are never cleared; `clearAtLeast` > 0 clears nothing unless that many tokens are freed.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Transcript } from '../../src/model/transcript.ts';
import { CLEARED_MARKER } from '../../src/pipeline/markers.ts';
import type { CachedTokenizer } from '../../src/tokens/tokenizer.ts';
import { type Call, loop, retryLast } from '../helpers/loop.ts';
import { outputsOf, type RunOptions, replayFirst, resultContent, tokenizer } from '../helpers/replay.ts';

let tk: CachedTokenizer;
beforeAll(async () => {
  tk = await tokenizer();
});

/** Microcompact alone; the trigger (4,800 tokens) is first crossed by the last request. */
const opts = (micro: Record<string, unknown> = {}, set: Record<string, unknown> = {}): RunOptions => ({
  set: {
    contextWindow: 6_000,
    outputReserve: 0,
    tiersEnabled: false,
    summarize: { enabled: false },
    hardcap: { enabled: false },
    microcompact: { enabled: true, keepRecent: 3, ...micro },
    ...set,
  },
});
const bash = (n: number, result = '1000 chars'): Call => ({ tool: 'Bash', args: `make t${n}`, result });
/** Nine 1,000-char results, then one of 20,000 that crosses the trigger. */
const session = (calls: Call[] = Array.from({ length: 9 }, (_, i) => bash(i))) =>
  loop([...calls, bash(9, '20000 chars')]);

function cleared(t: ReturnType<typeof loop>, o: RunOptions): string[] {
  return replayFirst(tk, t, o)
    .requests.flatMap((q) => q.events.filter((e) => e.stage === 'microcompact'))
    .map((e) => e.toolUseId ?? '');
}

describe('microcompact (SPEC §4.4)', () => {
  it('over the trigger, every result but the newest keepRecent is cleared to the exact marker', () => {
    const t = session();
    expect(cleared(t, opts())).toEqual(['t0', 't1', 't2', 't3', 't4', 't5', 't6']);
    const out = outputsOf(tk, t, opts()).at(-1) ?? [];
    expect(resultContent(out, 't0')).toBe(CLEARED_MARKER);
    for (const id of ['t7', 't8', 't9']) expect(resultContent(out, id)).toBe(resultContent(t.threads[0].messages, id));
  });

  it('does nothing when disabled or while under the trigger', () => {
    expect(cleared(session(), opts({ enabled: false }))).toEqual([]);
    expect(cleared(session(), opts({}, { contextWindow: 200_000 }))).toEqual([]);
  });

  it('excludeTools (matched by alias: file_read covers Read) are never cleared and take no keepRecent slot', () => {
    // Ambiguous in the SPEC; chosen: keepRecent counts clearable results, so "keep 3" leaves 3 of them intact
    // however many excluded results sit in between.
    const calls = Array.from({ length: 9 }, (_, i) =>
      i === 5 || i === 8 ? { tool: 'Read', args: `f${i}.go`, result: '1000 chars' } : bash(i),
    );
    expect(cleared(session(calls), opts({ excludeTools: ['file_read'] }))).toEqual(['t0', 't1', 't2', 't3', 't4']);
  });

  it('clearAtLeast: clears nothing unless that many tokens are freed, else clears as usual', () => {
    expect(cleared(session(), opts({ clearAtLeast: 10_000 }))).toEqual([]);
    expect(cleared(session(), opts({ clearAtLeast: 1_000 }))).toHaveLength(7);
  });

  it('results no bigger than the marker are left alone (clearing them would free nothing)', () => {
    const calls = Array.from({ length: 9 }, (_, i) => (i === 2 ? bash(i, '"ok"') : bash(i)));
    expect(cleared(session(calls), opts())).toEqual(['t0', 't1', 't3', 't4', 't5', 't6']);
  });

  it('is idempotent: more passes over the same input clear nothing more', () => {
    const r = replayFirst(tk, retryLast(session(), 3), opts());
    const n = r.requests.length;
    expect(r.requests[n - 4].events).toHaveLength(7);
    for (const q of r.requests.slice(n - 3)) expect(q.events).toEqual([]);
  });

  it('each clear event reports the marker size and the tokens it freed', () => {
    const ev = replayFirst(tk, session(), opts())
      .requests.flatMap((q) => q.events)
      .filter((e) => e.stage === 'microcompact');
    for (const e of ev) {
      expect(e.action).toBe('clear');
      expect([e.charsBefore, e.charsAfter]).toEqual([1000, CLEARED_MARKER.length]);
      expect(e.tokensAfter).toBeLessThan(e.tokensBefore);
    }
  });

  it('a long session with summaries between: every request it acts in leaves each old result cleared', () => {
    // Requests after the first clear walk the old results only from the first message with one neither cleared
    // nor too small (an index moved across the summaries' splices; an excluded result stops it). Each acting
    // request's output has every clearable result but the newest keepRecent cleared.
    const kind = new Map<string, 'read' | 'ok' | 'big'>();
    const turns: Call[][] = Array.from({ length: 60 }, (_, i) => {
      const n = 1 + (i % 3);
      return Array.from({ length: n }, (_, k) => {
        const id = n === 1 ? `t${i}` : `t${i}_${k}`;
        const c: Call =
          i % 7 === 3 && k === 0
            ? { tool: 'Read', args: `f${i}.go`, result: '900 chars' }
            : (i + k) % 5 === 2
              ? { tool: 'Bash', args: `true ${i}`, result: '"ok"' }
              : { tool: 'Bash', args: `make ${id}`, result: '1500 chars' };
        kind.set(id, c.tool === 'Read' ? 'read' : c.result === '"ok"' ? 'ok' : 'big');
        return c;
      });
    });
    const t = loop(turns);
    const keepRecent = 4;
    for (const excludeTools of [['file_read'], []]) {
      const requests = checkOld(t, kind, keepRecent, excludeTools, {});
      expect(requests.some((q) => q.events.some((e) => e.stage === 'summarize'))).toBe(true);
    }
    // With tiers before it (their stubs and truncations move results the walk has passed).
    const tiered = checkOld(t, kind, keepRecent, [], {
      tiersEnabled: true,
      tier3Window: 4,
      tier1Distance: 4,
      summarize: { enabled: false },
      contextWindow: 4_000,
    });
    expect(tiered.some((q) => q.events.some((e) => e.stage === 'tiers'))).toBe(true);
  });
});

/** Each request microcompact acts in leaves every clearable result but the newest `keepRecent` cleared, except
 *  results still no bigger than the marker ("ok" as written). */
function checkOld(
  t: Transcript,
  kind: Map<string, string>,
  keepRecent: number,
  excludeTools: string[],
  set: Record<string, unknown>,
) {
  {
    const o = opts(
      { keepRecent, excludeTools },
      { contextWindow: 3_000, summarize: { enabled: true }, hardcap: { enabled: false }, ...set },
    );
    const outs = outputsOf(tk, t, o);
    const requests = replayFirst(tk, t, o).requests;
    const acted = requests.filter((q) => q.events.some((e) => e.stage === 'microcompact'));
    expect(acted.length).toBeGreaterThan(10);
    for (const q of acted) {
      const results = outs[q.index].flatMap((m) =>
        m.role === 'user' ? m.blocks.filter((b) => b.type === 'tool_result') : [],
      );
      const clearable = results.filter((b) => excludeTools.length === 0 || kind.get(b.toolUseId) !== 'read');
      const old = clearable.slice(0, Math.max(0, clearable.length - keepRecent));
      for (const b of old)
        if (b.content !== 'ok')
          expect([q.index, b.toolUseId, b.content]).toEqual([q.index, b.toolUseId, CLEARED_MARKER]);
      for (const b of clearable.slice(old.length)) expect(b.content).not.toBe(CLEARED_MARKER);
    }
    return requests;
  }
}
