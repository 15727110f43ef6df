// Provider-independent behaviour of the pairing validator (SPEC §5.1): valid transcripts pass for every
// provider, error/rejected/synthetic results count as answers, summaries, boundaries and split batches are
// flagged, the wire layouts, stage blame, and the fast path agreeing with the full check.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Block, Message } from '../../src/model/transcript.ts';
import { layoutWire, wireIndexOf } from '../../src/pairing/providers/wire.ts';
import {
  newViolations,
  type PairingContext,
  PROVIDERS,
  type Provider,
  validatePairing,
  validatePairingFull,
} from '../../src/pairing/validate.ts';
import { messages } from '../helpers/dsl.ts';
import { markBoundary, markSynthetic, serverToolResult, serverToolUse } from '../helpers/dsl-extra.ts';

const ctx = (provider: Provider, stage = 'input'): PairingContext => ({ thread: 'main', request: 7, stage, provider });
const check = (src: string | Message[], provider: Provider) =>
  validatePairing(typeof src === 'string' ? messages(src) : src, ctx(provider));
const rules = (src: string | Message[], provider: Provider) => check(src, provider).map((v) => v.rule);

const VALID = [
  'U Hello\nA Hi, how can I help?\nU Explain closures',
  `S You are a coding agent
   -
   U Fix the failing test
   A think The test imports a.ts
   A tu(t1) Read a.ts
   A tu(t2) Grep needle
   U tr(t2) 300 chars
   U tr(t1) 1200 chars
   A tu(t3) Bash npm test
   U tr!(t3) "Error: 1 test failed"
   A tu(t4) Edit a.ts
   U tr(t4) ok
   -
   U Also update the docs`,
  `U summary Earlier: read the config and fixed the parser
   -
   U Continue
   A tu(t1) Read b.ts
   U tr(t1) 50 chars`,
];

describe('valid transcripts', () => {
  it.each(VALID.map((src, i) => [i, src]))('transcript %i gives no violation for any provider', (_i, src) => {
    for (const p of PROVIDERS) {
      expect(check(src, p), p).toEqual([]);
      expect(validatePairingFull(messages(src), ctx(p)), p).toEqual([]);
    }
  });

  it('parallel results in a different order than the calls are fine (#15 fold storage order)', () => {
    const src = 'U go\nA tu(1) Read a.ts\nA tu(2) Read b.ts\nU tr(2) 10 chars\nU tr(1) 10 chars';
    for (const p of PROVIDERS) expect(check(src, p), p).toEqual([]);
  });
});

describe('error, rejected and synthetic results count as answers (#8 OpenHands 432)', () => {
  const src = `
    U clean up
    A tu(toolu_a) Bash rm -rf build
    A tu(toolu_b) Read a.ts
    A tu(toolu_c) Read c.ts
    U tr!(toolu_a) "The user doesn't want to proceed with this tool use. The tool use was rejected"
    U tr!(toolu_b) "Error: ENOENT"
    U tr!(toolu_c) "[clawdbot] missing tool result in session history; inserted synthetic error result"`;

  it('never reports them missing; the synthetic one is flagged as a warning', () => {
    for (const p of PROVIDERS) {
      const vs = check(src, p);
      expect(
        vs.map((v) => [v.rule, v.severity, v.toolUseId, v.blockIndex]),
        p,
      ).toEqual([['synthetic-result', 'warning', 'toolu_c', 2]]);
    }
  });

  it('a message flagged synthetic by the parser counts too', () => {
    const msgs = markSynthetic(messages('U go\nA tu(toolu_a) Read a.ts\nU tr!(toolu_a) "Interrupted"'), 2);
    for (const p of PROVIDERS) expect(rules(msgs, p), p).toEqual(['synthetic-result']);
  });

  it('a synthetic result for a pruned call is an orphan (#2 openclaw 4739): U(S), A[tu(B)], U[tr(B), tr(A)*]', () => {
    const src = `
      U summary Compacted history
      A tu(toolu_B) Read b.ts
      U tr(toolu_B) 10 chars
      U tr!(toolu_A) "[clawdbot] missing tool result in session history; inserted synthetic error result"`;
    expect(check(src, 'anthropic').map((v) => [v.rule, v.severity, v.error])).toEqual([
      [
        'orphan-result',
        'error',
        'messages.2.content.1: unexpected `tool_use_id` found in `tool_result` blocks: toolu_A. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
      ],
      [
        'synthetic-result',
        'warning',
        'messages.2: the result for toolu_A was written by the harness, not the tool; it counts as an answer, but check that toolu_A still exists after compaction.',
      ],
    ]);
  });
});

describe('mixed text + result user message whose call was summarised (#16 Codewhale 6119)', () => {
  const src = `
    U summary Earlier: ran the linter
    -
    U Here is the linter output
    U tr(call_X) 10 chars`;
  it.each([
    ['anthropic', ['orphan-result']],
    ['openai-chat', ['tool-message-without-call']],
    ['openai-responses', ['orphan-result']],
    ['gemini', ['orphan-result']],
    ['bedrock', ['count-mismatch', 'mixed-content-turn']],
  ] as const)('%s rejects it', (p, expected) => {
    expect(rules(src, p)).toEqual(expected);
  });
});

describe('the same mistake across providers', () => {
  const inAssistant = 'U go\nA tu(id_1) Read a.ts\nA tr(id_1) 10 chars\n-\nU next';
  it.each([
    [
      'anthropic',
      [
        ['result-outside-user', 'error'],
        ['missing-result', 'error'],
      ],
    ],
    [
      'bedrock',
      [
        ['result-outside-user', 'error'],
        ['missing-result', 'error'],
      ],
    ],
    // a model turn with a call (and its misplaced response part) followed by a user turn with no response
    [
      'gemini',
      [
        ['result-outside-user', 'warning'],
        ['count-mismatch', 'error'],
      ],
    ],
    // chat sends the result as a `tool` message right after the call; Responses items carry no role
    ['openai-chat', []],
    ['openai-responses', []],
  ] as const)('a tool_result inside the assistant message: %s', (p, expected) => {
    const vs = check(inAssistant, p);
    expect(vs.map((v) => [v.rule, v.severity]).sort()).toEqual([...expected].sort());
    if (p === 'bedrock') expect(vs[0].error).toBe('messages.1: `tool_result` blocks can only be in `user` messages');
  });

  it('a reused call id is an Anthropic error and a warning elsewhere', () => {
    const src = 'U go\nA tu(id_1) Read a.ts\nU tr(id_1) 10 chars\nA tu(id_1) Read b.ts\nU tr(id_1) 10 chars';
    const got = PROVIDERS.map((p) => check(src, p).map((v) => `${v.rule}:${v.severity}:${v.messageIndex}`));
    expect(got).toEqual([
      ['duplicate-id:error:3'],
      ['duplicate-id:warning:3'],
      ['duplicate-id:warning:3', 'duplicate-id:warning:4'], // the call, then its second output
      [],
      ['duplicate-id:warning:3'],
    ]);
  });
});

describe('summaries, boundaries and split batches', () => {
  it('a boundary marker between a use and its result is flagged for every provider', () => {
    const msgs = markBoundary(messages('U go\nA tu(t1) Read a.ts\nU marker\n-\nU tr(t1) 10 chars'), 2);
    for (const p of PROVIDERS) {
      const v = check(msgs, p).find((x) => x.rule === 'summary-between-pair');
      expect(v, p).toMatchObject({ severity: 'warning', messageIndex: 2, toolUseId: 't1' });
    }
  });

  it('a parallel batch answered over two messages (#9-style cut) is a split batch for every provider', () => {
    const src = 'U go\nA tu(1) Read a.ts\nA tu(2) Read b.ts\nU tr(1) 10 chars\n-\nU tr(2) 10 chars';
    for (const p of PROVIDERS) {
      const v = check(src, p).find((x) => x.rule === 'split-batch');
      expect(v?.error, p).toContain('the 2 parallel tool calls of this message are answered in 2 message(s)');
      expect(v, p).toMatchObject({ messageIndex: 1, toolUseId: '2' });
    }
  });
});

describe('wire layouts', () => {
  const msgs = messages(`
    S sys
    -
    U go
    A think hmm
    A I will read
    A tu(a) Read a.ts
    U tr(a) 10 chars
    U more text`);

  it('maps each provider to its own request shape', () => {
    const shape = (p: Provider) => layoutWire(msgs, p).map((u) => `${u.role}:${u.msg}.${u.from}-${u.to}`);
    expect(shape('anthropic')).toEqual(['user:1.0-1', 'assistant:2.0-3', 'user:3.0-2']);
    expect(shape('gemini')).toEqual(['user:1.0-1', 'model:2.0-3', 'user:3.0-2']);
    expect(shape('openai-chat')).toEqual(['system:0.0-1', 'user:1.0-1', 'assistant:2.0-3', 'tool:3.0-1', 'user:3.1-2']);
    expect(shape('openai-responses')).toEqual([
      'system:0.0-1',
      'user:1.0-1',
      'reasoning:2.0-1',
      'assistant:2.1-2',
      'function_call:2.2-3',
      'function_call_output:3.0-1',
      'user:3.1-2',
    ]);
  });

  it('finds the wire index of a block, and where a hoisted message would have been', () => {
    const chat = layoutWire(msgs, 'openai-chat');
    expect([wireIndexOf(chat, 3, 0), wireIndexOf(chat, 3, 1), wireIndexOf(chat, 3)]).toEqual([3, 4, 3]);
    expect(wireIndexOf(layoutWire(msgs, 'anthropic'), 0)).toBe(0);
    expect(wireIndexOf(layoutWire(msgs, 'openai-responses'), 2, 2)).toBe(4);
  });
});

describe('stage blame', () => {
  it('stamps the context on each violation and reports only what a stage introduced', () => {
    const input = messages('U go\nA tu(t1) Read a.ts\nA tu(t2) Read b.ts\nU tr(t1) 10 chars\nU tr(t2) 10 chars');
    const out = input.slice(0, 2); // a stage that dropped the results message
    const inputV = validatePairing(input, ctx('anthropic'));
    const stageV = validatePairing(out, ctx('anthropic', 'hardcap'));
    expect(inputV).toEqual([]);
    expect(stageV[0]).toMatchObject({ thread: 'main', request: 7, stage: 'hardcap', provider: 'anthropic' });
    expect(newViolations(inputV, stageV).map((v) => [v.rule, v.toolUseId])).toEqual([
      ['missing-result', 't1'],
      ['missing-result', 't2'],
    ]);
    expect(newViolations(stageV, stageV)).toEqual([]);
  });
});

// Random transcripts over a small id alphabet, so collisions, orphans and splits are frequent.
const ID = fc.constantFrom('a', 'b', 'c', 'd');
const BLOCK: fc.Arbitrary<Block> = fc.oneof(
  fc.constant<Block>({ type: 'text', text: 'hello' }),
  fc.constant<Block>({ type: 'thinking', thinking: 'hmm', signature: 's' }),
  ID.map<Block>((id) => ({ type: 'tool_use', id, name: 'Read', input: {} })),
  fc
    .tuple(ID, fc.boolean(), fc.constantFrom('', 'ok', 'No result provided'))
    .map<Block>(([id, isError, content]) => ({ type: 'tool_result', toolUseId: id, isError, content })),
  ID.map((id) => serverToolUse(`s${id}`)),
  ID.map((id) => serverToolResult(`s${id}`)),
);
const MESSAGE = fc.record({
  role: fc.constantFrom('system', 'user', 'user', 'assistant', 'assistant'),
  blocks: fc.array(BLOCK, { maxLength: 4 }),
  compaction: fc.constantFrom(undefined, undefined, undefined, 'summary'),
});
const TRANSCRIPT = fc.array(MESSAGE, { maxLength: 10 }).map((list) =>
  list.map((r, index): Message => {
    const m: Message = { index, role: r.role, blocks: r.blocks, source: { line: index + 1 } };
    if (r.compaction) m.compaction = r.compaction;
    return m;
  }),
);

// Canonical valid loops: user text, then assistant turns whose calls are answered by the next message.
const VALID_LOOP = fc
  .array(fc.tuple(fc.integer({ min: 0, max: 4 }), fc.boolean(), fc.boolean()), { maxLength: 8 })
  .map((turns) => {
    let src = 'S sys\n-\nU start\n';
    let id = 0;
    for (const [calls, think, reverse] of turns) {
      if (think) src += 'A think step\n';
      if (calls === 0) src += 'A Just text\n-\nU next\n';
      const ids = Array.from({ length: calls }, () => `t${id++}`);
      for (const x of ids) src += `A tu(${x}) Read ${x}.ts\n`;
      for (const x of reverse ? [...ids].reverse() : ids) src += `U tr${x.endsWith('3') ? '!' : ''}(${x}) 20 chars\n`;
    }
    return src;
  });

// The same loops after one rewrite a buggy stage could make, so both paths are compared near validity.
const OPS = ['drop', 'summary', 'swap', 'text-first', 'text-last', 'empty-error', 'duplicate'] as const;
function mutate(msgs: Message[], at: number, op: (typeof OPS)[number]): Message[] {
  const k = at % msgs.length;
  const out = msgs.slice();
  const m = out[k];
  if (op === 'drop') out.splice(k, 1);
  else if (op === 'summary')
    out.splice(k, 0, {
      index: k,
      role: 'user',
      blocks: [{ type: 'text', text: 'S' }],
      source: { line: 0 },
      compaction: 'summary',
    });
  else if (op === 'swap' && k + 1 < out.length) [out[k], out[k + 1]] = [out[k + 1], m];
  else if (op === 'text-first') out[k] = { ...m, blocks: [{ type: 'text', text: 'note' }, ...m.blocks] };
  else if (op === 'text-last') out[k] = { ...m, blocks: [...m.blocks, { type: 'text', text: 'note' }] };
  else if (op === 'empty-error')
    out[k] = {
      ...m,
      blocks: m.blocks.map((b) => (b.type === 'tool_result' ? { ...b, isError: true, content: '' } : b)),
    };
  else if (op === 'duplicate') out.splice(k, 0, m);
  return out;
}
const MUTATED = fc
  .tuple(VALID_LOOP, fc.nat(), fc.constantFrom(...OPS))
  .map(([src, at, op]) => mutate(messages(src), at, op));

describe('fast path', () => {
  it('agrees with the full check on near-valid transcripts, for every provider', () => {
    fc.assert(
      fc.property(MUTATED, (msgs) => {
        for (const p of PROVIDERS) expect(validatePairing(msgs, ctx(p)), p).toEqual(validatePairingFull(msgs, ctx(p)));
      }),
      { numRuns: 400 },
    );
  });

  it('with the caller vouching that no tool_use id repeats, still agrees with the full check', () => {
    const uniqueUses = (msgs: Message[]) => {
      const ids = msgs.flatMap((m) =>
        m.role === 'assistant' ? m.blocks.flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])) : [],
      );
      return new Set(ids).size === ids.length;
    };
    fc.assert(
      fc.property(MUTATED, (msgs) => {
        fc.pre(uniqueUses(msgs));
        for (const p of PROVIDERS)
          expect(validatePairing(msgs, { ...ctx(p), uniqueUses: true }), p).toEqual(validatePairingFull(msgs, ctx(p)));
      }),
      { numRuns: 300 },
    );
  });

  it('agrees with the full check on random transcripts, for every provider', () => {
    fc.assert(
      fc.property(TRANSCRIPT, (msgs) => {
        for (const p of PROVIDERS) expect(validatePairing(msgs, ctx(p)), p).toEqual(validatePairingFull(msgs, ctx(p)));
      }),
      { numRuns: 400 },
    );
  });

  it('canonical tool loops are valid for every provider on both paths', () => {
    fc.assert(
      fc.property(VALID_LOOP, (src) => {
        const msgs = messages(src);
        for (const p of PROVIDERS) {
          expect(validatePairing(msgs, ctx(p)), p).toEqual([]);
          expect(validatePairingFull(msgs, ctx(p)), p).toEqual([]);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('handles a long session (15,000 messages, 10,000 calls) for every provider', () => {
    let src = 'U start\n';
    for (let i = 0; i < 5000; i++)
      src += `A tu(t${i}a) Read a.ts\nA tu(t${i}b) Read b.ts\nU tr(t${i}b) 10 chars\nU tr(t${i}a) 10 chars\n-\nU next\n`;
    const msgs = messages(src);
    expect(msgs.length).toBe(15001);
    for (const p of PROVIDERS) expect(validatePairing(msgs, ctx(p))).toEqual([]);
    const broken = msgs.slice(0, 7000).concat(msgs.slice(7001)); // drop one results message in the middle
    for (const p of PROVIDERS) expect(validatePairing(broken, ctx(p)).length, p).toBeGreaterThan(0);
  });
});
