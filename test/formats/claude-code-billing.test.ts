// Which Claude Code responses were billed, for what usage: streamed usage snapshots on the lines of one response
// (the copy with the most tokens, as ccusage picks it), a rewound branch's responses kept apart on the thread
// (paid for, never on the active branch), a sub-agent file replaying a parent response not billed twice, and
// Claude Code's own `<synthetic>` messages never billed.
import { describe, expect, it } from 'vitest';
import { recordedCost } from '../../src/analyses/recorded-cost.ts';
import { fileFromText } from '../../src/formats/index.ts';
import { asst, envelope, jsonl, load, type Obj, result, text, toolUse, user } from '../helpers/claude-code-lines.ts';

/** An assistant line of response `id` with this usage (Claude Code writes one per content block). */
const line = (uuid: string, parent: string | null, id: string, blocks: unknown[], u: Obj, extra: Obj = {}) => {
  const o = asst(uuid, parent, id, blocks, extra);
  (o.message as Obj).usage = u;
  (o.message as Obj).model = 'claude-sonnet-4-5-20250929';
  return o;
};
const u = (output: number, input = 3, read = 20_000, write = 500) => ({
  input_tokens: input,
  cache_read_input_tokens: read,
  cache_creation_input_tokens: write,
  output_tokens: output,
});

describe('claude-code billing', () => {
  it('a response streamed over three lines (output 1, 5, 25) is billed once, for its largest usage copy', () => {
    const t = load(
      jsonl(
        user('u1', null, 'hi'),
        line('a1', 'u1', 'msg_1', [text('thinking about it')], u(1)),
        line('a2', 'a1', 'msg_1', [toolUse('t1')], u(25)),
        line('a3', 'a2', 'msg_1', [text('and more')], u(5)),
        user('u2', 'a3', [result('t1')]),
      ),
    );
    expect(t.threads[0].requests).toHaveLength(1);
    expect(t.threads[0].requests[0].observed).toEqual({ input: 3, cacheRead: 20_000, cacheWrite: 500, output: 25 });
    const cost = recordedCost(t, {}).totals;
    expect(cost?.priced).toBe(1);
    // Sonnet 4.5 at $3 in, $15 out, $0.30 cache read, $3.75 cache write per Mtok
    expect(cost?.usd).toBeCloseTo((3 * 3 + 25 * 15 + 20_000 * 0.3 + 500 * 3.75) / 1e6, 12);
  });

  it('a rewound branch was paid for: its response is billed apart, off the active branch', () => {
    const t = load(
      jsonl(
        user('u1', null, 'first try'),
        line('a1', 'u1', 'msg_old', [text('an answer the user rewound')], u(400, 3, 10_000, 2000)),
        // the user edits the prompt: a new branch from the root
        user('u2', null, 'second try'),
        line('a2', 'u2', 'msg_new', [text('the kept answer')], u(100)),
      ),
    );
    const main = t.threads[0];
    expect(main.requests).toHaveLength(1);
    expect(main.requests[0].observed?.output).toBe(100);
    expect(main.billedApart).toMatchObject([
      { why: 'abandoned-branch', line: 2, usage: { input: 3, cacheRead: 10_000, cacheWrite: 2000, output: 400 } },
    ]);
    const cost = recordedCost(t, {}).totals;
    const kept = (3 * 3 + 100 * 15 + 20_000 * 0.3 + 500 * 3.75) / 1e6;
    const rewound = (3 * 3 + 400 * 15 + 10_000 * 0.3 + 2000 * 3.75) / 1e6;
    expect(cost?.priced).toBe(2);
    expect(cost?.abandonedUsd).toBeCloseTo(rewound, 12);
    expect(cost?.requestsUsd).toBeCloseTo(kept, 12);
    expect(cost?.usd).toBeCloseTo(kept + rewound, 12);
    expect(cost?.byThread).toMatchObject([{ thread: 'main', requests: 1 }]);
    expect(cost?.byThread[0].apartUsd).toBeCloseTo(rewound, 12);
  });

  it('the larger usage copy counts even when it sits on a line off the active branch', () => {
    // a2 is a copy of the same response written under another root (a resumed session re-writes lines): the branch
    // never reaches it, yet it holds the response's final usage. The response is billed once, on the branch.
    const t = load(
      jsonl(
        user('u1', null, 'go'),
        line('a1', 'u1', 'msg_1', [toolUse('t1')], u(2)),
        user('u0', null, 'an earlier root'),
        line('a2', 'u0', 'msg_1', [text('trailing text block')], u(60)),
        user('u2', 'a1', [result('t1')]),
        line('a3', 'u2', 'msg_2', [text('done')], u(7)),
      ),
    );
    const [r0, r1] = t.threads[0].requests;
    expect(r0.observed?.output).toBe(60);
    expect(r1.observed?.output).toBe(7);
    expect(t.threads[0].billedApart).toBeUndefined();
  });

  it('a sub-agent file replaying a parent response under another requestId is not billed twice', () => {
    const parent = line('a1', 'u1', 'msg_parent', [text('parent answer')], u(50));
    const side = {
      ...line('s1', null, 'msg_parent', [text('parent answer')], u(50)),
      isSidechain: true,
      requestId: 'req_replayed',
      agentId: 'x1',
    };
    const own = { ...line('s2', 's1', 'msg_side', [text('side answer')], u(9)), isSidechain: true, agentId: 'x1' };
    const t = load(jsonl(user('u1', null, 'hi'), parent), [
      fileFromText('sess-1/subagents/agent-x1.jsonl', jsonl(side, own)),
    ]);
    const cost = recordedCost(t, {}).totals;
    expect(cost?.priced).toBe(2);
    const sideThread = t.threads.find((th) => th.kind === 'sidechain');
    expect(sideThread?.requests.map((r) => r.observed?.output)).toEqual([9]);
  });

  it("Claude Code's own <synthetic> messages are no API call", () => {
    const synthetic = {
      ...envelope('a1', 'u1'),
      type: 'assistant',
      message: {
        id: 'msg_syn',
        model: '<synthetic>',
        role: 'assistant',
        content: [text('API Error')],
        usage: u(0, 0, 0, 0),
      },
    };
    const t = load(jsonl(user('u1', null, 'hi'), synthetic));
    expect(t.threads[0].requests).toEqual([]);
    expect(recordedCost(t, {}).totals).toBeNull();
  });
});
