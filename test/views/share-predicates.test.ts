// What "minimize" offers to keep, from the current view: pairing issues at the selection first, then the
// selected row's tiers and the selected request's break causes, then the thread's other pairing issues; every
// spec parses with the minimizer's own parser.
import { describe, expect, it } from 'vitest';
import type { ToolResultRow } from '../../src/analyses/report.ts';
import type { PairingViolation } from '../../src/pairing/validate.ts';
import { parsePredicate } from '../../src/share/predicate.ts';
import { predicateCandidates } from '../../src/views/share/predicates.ts';
import type { Row, RunResult, TimelinePoint } from '../../worker/api.ts';

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
  return { pairing: [], timeline: [], ...o } as RunResult;
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
      timeline: [
        point({
          cacheBreak: { cause: 'history-rewritten@12' } as unknown as TimelinePoint['cacheBreak'],
          observedBreak: { cause: 'ttl-expired' } as TimelinePoint['observedBreak'],
        }),
      ],
    });
    const c = predicateCandidates(r, { thread: 'main', message: 6, request: 5 }, rowsAt(6), selected);
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
});
