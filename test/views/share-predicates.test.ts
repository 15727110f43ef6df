// What "minimize" offers to keep, from the current view: pairing issues at the selection first, then the
// selected row's tiers and the selected request's break causes, then the thread's other pairing issues; every
// spec parses with the minimizer's own parser.
import { describe, expect, it } from 'vitest';
import type { ToolResultRow } from '../../src/analyses/report.ts';
import type { PairingViolation } from '../../src/pairing/validate.ts';
import { parsePredicate } from '../../src/share/predicate.ts';
import { predicateCandidates, refetchIds } from '../../src/views/share/predicates.ts';
import type { CompactionRow, Refetch, Row, RunResult, TimelinePoint } from '../../worker/api.ts';
import { breakRowsOf } from '../helpers/timeline-chunks.ts';

const violation = (o: Partial<PairingViolation>): PairingViolation => ({
  thread: 'main',
  request: 3,
  stage: 'input',
  provider: 'anthropic',
  rule: 'orphan-result',
  severity: 'error',
  messageIndex: 4,
  wireIndex: 4,
  error: 'messages.4: unexpected tool_result',
  ...o,
});

const tool = (o: Partial<ToolResultRow>): ToolResultRow =>
  ({ thread: 'main', toolUseId: 'toolu_a', tool: 'Read', messageIndex: 6, tier: 2, ...o }) as ToolResultRow;

const point = (o: Partial<TimelinePoint>): TimelinePoint =>
  ({ thread: 'main', index: 5, cacheBreak: null, observedBreak: null, ...o }) as TimelinePoint;

function result(o: Partial<RunResult>): RunResult {
  return { pairing: [], timeline: [], breaks: [], ...o } as RunResult;
}

const rows = [{ index: 6, toolUseIds: ['toolu_a', 'toolu_b'] } as Row];
const rowsAt = (n: number) => Object.assign([] as Row[], { [n]: rows[0] });

describe('predicateCandidates', () => {
  it('offers nothing without a run, and the thread’s pairing issues when nothing is selected', () => {
    expect(predicateCandidates(undefined, { thread: 'main', message: null, request: null }, undefined)).toEqual([]);
    const r = result({
      pairing: [
        violation({ request: 1 }),
        violation({ request: 2 }),
        violation({ rule: 'missing-result', stage: 'summarize', toolUseId: 'toolu_x', request: 2 }),
        violation({ thread: 'agent:1' }),
      ],
    });
    const c = predicateCandidates(r, { thread: 'main', message: null, request: null }, undefined);
    expect(c.map((x) => x.spec)).toEqual(['pairing:orphan-result@input', 'pairing:missing-result@summarize#toolu_x']);
    expect(c.every((x) => !x.selected)).toBe(true);
    expect(c[1].label).toBe('pairing: tool call without its result after stage summarize (toolu_x)');
  });

  it('puts what is selected first: the request’s pairing issue, the row’s tiers, the request’s breaks', () => {
    // The selected message's tool results come from the engine's notes (a stray row of another message is left out).
    const selected = [
      tool({}),
      tool({ toolUseId: 'toolu_b', tier: null }),
      tool({ toolUseId: 'toolu_c', messageIndex: 9 }),
    ];
    const r = result({
      pairing: [violation({ request: 1, rule: 'duplicate-id' }), violation({ request: 5, toolUseId: 'toolu_z' })],
      breaks: breakRowsOf([
        point({
          cacheBreak: { cause: 'history-rewritten@12' } as unknown as TimelinePoint['cacheBreak'],
          observedBreak: { cause: 'ttl-expired' } as TimelinePoint['observedBreak'],
        }),
      ]),
    });
    const c = predicateCandidates(r, { thread: 'main', message: 6, request: 5 }, rowsAt(6), { results: selected });
    expect(c.map((x) => x.spec)).toEqual([
      'pairing:orphan-result@input#toolu_z',
      'tier:toolu_a=2',
      'break:simulated:history-rewritten',
      'break:observed:ttl-expired',
      'pairing:duplicate-id@input',
    ]);
    expect(c.map((x) => x.selected)).toEqual([true, true, true, true, false]);
    for (const x of c) expect(() => parsePredicate(x.spec)).not.toThrow();
  });

  it('offers the open compaction’s findings from the row read whole, the focused lost item first', () => {
    const empty = { kept: [], lost: [] };
    const item = (text: string) => ({ text, messageIndex: 3, line: 4, match: 'exact' });
    const open = {
      id: 'main/agent/0',
      thread: 'main',
      source: 'agent',
      request: 89,
      opaque: false,
      probes: {
        filesModified: empty,
        filesRead: { kept: [], lost: [item('/a.ts')] },
        errors: { kept: [], lost: [item('boom')] },
        identifiers: empty,
        todos: empty,
        instructions: empty,
      },
      refetchesAfter: { count: 1, tokens: 9, usd: null, items: [{ toolUseId: 'toolu_r' }] },
    } as unknown as CompactionRow;
    const refetches = [
      { kind: 'after-agent-compaction', thread: 'main', tool: 'Read', repeatToolUseId: 'toolu_r' },
    ] as Refetch[];
    const r = result({});
    const view = { thread: 'main', message: null, request: null, compaction: 'main/agent/0', probe: null };
    expect(refetchIds(view, undefined, open)).toEqual(['toolu_r']);
    const c = predicateCandidates(r, { ...view, probe: 'summary.errors.lost.0' }, undefined, { open, refetches });
    expect(c.map((x) => x.spec)).toEqual([
      'compaction:main/89:lost:errors=boom',
      'compaction:main/89:lost:filesRead=/a.ts',
      'refetch:after-agent-compaction#toolu_r',
    ]);
    // Another compaction's row (a view that moved on) offers none of them.
    const moved = { ...view, compaction: 'main/agent/1' };
    expect(refetchIds(moved, undefined, open)).toEqual([]);
    expect(predicateCandidates(r, moved, undefined, { open, refetches: [] })).toEqual([]);
  });
});
