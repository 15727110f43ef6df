// The working history's incremental indexes (tool_use and tool_result positions by interned id, the
// tool-result message list, token totals, valid cuts) after any sequence of appends, splices and content
// rewrites equal the same indexes computed from scratch over its messages.

import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Block, Message } from '../../src/model/transcript.ts';
import { CategoryTable } from '../../src/pipeline/categories.ts';
import { validCuts } from '../../src/pipeline/cuts.ts';
import { PipelineMemo } from '../../src/pipeline/memo.ts';
import { RuneCounts } from '../../src/pipeline/rune-counts.ts';
import { summaryMessage } from '../../src/pipeline/stages/summarize.ts';
import { Working } from '../../src/pipeline/working.ts';
import { TokenMeter } from '../../src/tokens/meter.ts';
import type { CachedTokenizer } from '../../src/tokens/tokenizer.ts';
import { sessionArb, sessionTranscript } from '../helpers/arbitrary.ts';
import { tokenizer } from '../helpers/replay.ts';

let tk: CachedTokenizer;
beforeAll(async () => {
  tk = await tokenizer();
});

type Op =
  | { kind: 'append'; n: number }
  | { kind: 'splice'; at: number; count: number; summary: boolean }
  | { kind: 'rewrite'; at: number }
  | { kind: 'repeat'; at: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('append' as const), n: fc.integer({ min: 1, max: 6 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('splice' as const),
      at: fc.nat(),
      count: fc.integer({ min: 0, max: 5 }),
      summary: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('rewrite' as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('repeat' as const), at: fc.nat() }) },
);

const summary = summaryMessage('summary of earlier turns');

/** The indexes from scratch. */
function expected(messages: readonly Message[]) {
  const calls = new Map<string, number>();
  const results = new Map<string, number>();
  const resultMessages: number[] = [];
  messages.forEach((m, pos) => {
    let hasResult = false;
    for (const b of m.blocks) {
      if (b.type === 'tool_use' && m.role === 'assistant' && !calls.has(b.id)) calls.set(b.id, pos);
      if (b.type === 'tool_result') {
        hasResult = true;
        if (!results.has(b.toolUseId)) results.set(b.toolUseId, pos);
      }
    }
    if (hasResult && m.role === 'user') resultMessages.push(pos);
  });
  // A cut c is valid when no pair spans it (use < c ≤ result).
  const cuts: number[] = [];
  for (let c = 0; c <= messages.length; c++) {
    let ok = true;
    calls.forEach((u, id) => {
      const r = results.get(id);
      if (r !== undefined && u < c && c <= r) ok = false;
    });
    if (ok) cuts.push(c);
  }
  return { calls, results, resultMessages, cuts };
}

/** Non-zero tokens per category, from scratch. */
function categoriesOf(messages: readonly Message[], meter: TokenMeter, toolName: (id: string) => string | undefined) {
  const totals = new Map<string, number>();
  const table = new CategoryTable(meter);
  for (const m of messages) {
    const c = table.of(m, toolName);
    c.ids.forEach((id, i) => {
      const name = table.name(id);
      totals.set(name, (totals.get(name) ?? 0) + c.tokens[i]);
    });
  }
  for (const [k, v] of totals) if (v === 0) totals.delete(k);
  return totals;
}

function rewritten(b: Block): Block {
  return b.type === 'tool_result'
    ? { ...b, content: `[rewritten] ${typeof b.content === 'string' ? b.content.length : 0}` }
    : b;
}

describe('Working indexes', () => {
  it('equal a from-scratch computation after appends, splices, rewrites and repeated ids', () => {
    fc.assert(
      fc.property(sessionArb(14), fc.array(opArb, { minLength: 1, maxLength: 25 }), (session, ops) => {
        const thread = sessionTranscript(session).threads[0];
        const meter = new TokenMeter(tk);
        const memo = new PipelineMemo(meter);
        const work = new Working(memo, memo.toolIds.of(thread));
        let next = 0;
        // Every splice as the tiers stage remaps by it (the epoch it made, result messages before the cut and inside
        // it), and each epoch's result-message count: remapResultIndex must map as a walk over all of them would.
        const splices: { epoch: number; lo: number; removed: number }[] = [];
        const seen: { epoch: number; results: number }[] = [{ epoch: work.epoch, results: 0 }];
        for (const op of ops) {
          if (op.kind === 'splice' && work.length > 0) {
            const at = op.at % work.length;
            const end = at + Math.min(op.count, work.length - at);
            const list = work.resultMessages;
            const lo = list.filter((p) => p < at).length;
            splices.push({ epoch: work.epoch + 1, lo, removed: list.filter((p) => p >= at && p < end).length });
          }
          if (op.kind === 'append') {
            work.append(thread.messages.slice(next, next + op.n));
            next = Math.min(thread.messages.length, next + op.n);
          } else if (op.kind === 'repeat' && work.length > 0) {
            work.append([work.at(op.at % work.length)]);
          } else if (op.kind === 'splice' && work.length > 0) {
            const at = op.at % work.length;
            work.splice(at, Math.min(op.count, work.length - at), op.summary ? [summary] : []);
          } else if (op.kind === 'rewrite' && work.length > 0) {
            const pos = op.at % work.length;
            const j = work.at(pos).blocks.findIndex((b) => b.type === 'tool_result');
            if (j >= 0) work.replaceBlock(pos, j, rewritten(work.at(pos).blocks[j]));
          }
          const want = expected(work.messages);
          for (const m of thread.messages)
            for (const b of m.blocks) {
              const id = b.type === 'tool_use' ? b.id : b.type === 'tool_result' ? b.toolUseId : undefined;
              if (id === undefined) continue;
              expect(work.callPosition(id), `call ${id}`).toBe(want.calls.get(id));
              expect(work.resultPosition(id), `result ${id}`).toBe(want.results.get(id));
            }
          expect(work.resultMessages).toEqual(want.resultMessages);
          expect(validCuts(work, 0, work.length)).toEqual(want.cuts);
          expect(work.total).toBe(work.messages.reduce((n, m) => n + meter.message(m), 0));
          expect(work.runesBetween(0, work.length)).toBe(
            work.messages.reduce((n, m) => n + new RuneCounts().message(m), 0),
          );
          const cats = new Map<string, number>();
          work.forEachCategory((name, n) => cats.set(name, n));
          expect(cats).toEqual(categoriesOf(work.messages, meter, (id) => work.ids.name(id)));
          for (const { epoch, results } of seen)
            for (let i = 0; i <= results; i++) {
              let want = i;
              for (const sp of splices) if (sp.epoch > epoch && want > sp.lo) want = Math.max(sp.lo, want - sp.removed);
              expect(work.remapResultIndex(i, epoch), `index ${i} of epoch ${epoch}`).toBe(want);
            }
          seen.push({ epoch: work.epoch, results: work.resultMessages.length });
        }
      }),
      { numRuns: 120 },
    );
  });
});
