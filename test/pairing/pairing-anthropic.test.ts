// Anthropic Messages rules of the pairing validator (SPEC §5.1), each with the API's exact text and the
// real messages.N index; cases from peers-and-bugs.md §2a.
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/model/transcript.ts';
import { type PairingViolation, type Provider, validatePairing } from '../../src/pairing/validate.ts';
import { messages } from '../helpers/dsl.ts';
import { serverToolResult, serverToolUse, withMessage } from '../helpers/dsl-extra.ts';

function check(src: string | Message[], provider: Provider = 'anthropic', before?: Message[]) {
  const msgs = typeof src === 'string' ? messages(src) : src;
  return validatePairing(msgs, { thread: 'main', request: 3, stage: before ? 'tiers' : 'input', provider, before }).map(
    pick,
  );
}

function pick(v: PairingViolation) {
  const { rule, severity, messageIndex, blockIndex, wireIndex, toolUseId, error } = v;
  return { rule, severity, messageIndex, blockIndex, wireIndex, toolUseId, error };
}

const MISSING = (n: number, ids: string) =>
  `messages.${n}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${ids}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
const NOT_FIRST = (n: number, k: number) =>
  `messages.${n}: Did not find ${k} \`tool_result\` block(s) at the beginning of this message. Messages following \`tool_use\` blocks must begin with a matching number of \`tool_result\` blocks.`;
const ORPHAN = (n: number, m: number, id: string) =>
  `messages.${n}.content.${m}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;

describe('anthropic pairing rules', () => {
  it('accepts a valid tool loop with a system message, parallel calls and text after the results', () => {
    const src = `
      S You are a coding agent
      -
      U Fix the bug
      A think Let me look
      A tu(toolu_1) Read a.ts
      A tu(toolu_2) Read b.ts
      U tr(toolu_2) 200 chars
      U tr(toolu_1) 100 chars
      U <system-reminder>keep going</system-reminder>
      A tu(toolu_3) Bash npm test
      U tr!(toolu_3) "Error: 2 tests failed"`;
    expect(check(src)).toEqual([]);
  });

  it('orphaned result after a summary (#1 openclaw 8525): U(S), U[tr(X)]', () => {
    const src = `
      U summary The conversation so far: we edited a.ts
      -
      U tr(toolu_X) 100 chars`;
    expect(check(src)).toEqual([
      {
        rule: 'orphan-result',
        severity: 'error',
        messageIndex: 1,
        blockIndex: 0,
        wireIndex: 1,
        toolUseId: 'toolu_X',
        error: ORPHAN(1, 0, 'toolu_X'),
      },
    ]);
  });

  it('a system message is hoisted to the top-level system field, so it shifts messages.N', () => {
    const src = `
      S system prompt
      -
      U hi
      -
      U tr(toolu_X) 10 chars`;
    const [v] = check(src);
    expect(v).toMatchObject({ rule: 'orphan-result', messageIndex: 2, wireIndex: 1, error: ORPHAN(1, 0, 'toolu_X') });
    // /compact's own request starting mid-pair (#6): messages.0.content.0
    expect(check('U tr(toolu_016) 10 chars')[0].error).toBe(ORPHAN(0, 0, 'toolu_016'));
  });

  it('split parallel batch (#7 OpenHands 1450): the missing id is named at the assistant message', () => {
    const src = `
      S sys
      -
      U go
      A tu(toolu_1) Read a.ts
      A tu(toolu_2) Read b.ts
      U tr(toolu_1) 10 chars`;
    expect(check(src)).toEqual([
      {
        rule: 'missing-result',
        severity: 'error',
        messageIndex: 2,
        blockIndex: 1,
        wireIndex: 1,
        toolUseId: 'toolu_2',
        error: MISSING(1, 'toolu_2'),
      },
      {
        rule: 'split-batch',
        severity: 'warning',
        messageIndex: 2,
        blockIndex: undefined,
        wireIndex: 1,
        toolUseId: 'toolu_2',
        error:
          'messages.1: the 2 parallel tool calls of this message are answered in 1 message(s), 1 not at all; a batch should be kept or dropped as one unit.',
      },
    ]);
  });

  it('lists every unanswered id of the message, comma-separated, when no user message follows', () => {
    const src = `
      U go
      A tu(toolu_1) Read a.ts
      A tu(toolu_2) Read b.ts
      -
      A I will wait`;
    const vs = check(src).filter((v) => v.severity === 'error');
    expect(vs.map((v) => [v.rule, v.toolUseId, v.blockIndex])).toEqual([
      ['missing-result', 'toolu_1', 0],
      ['missing-result', 'toolu_2', 1],
    ]);
    expect(vs[0].error).toBe(MISSING(1, 'toolu_1, toolu_2'));
  });

  it('a summary between a use and its result (#7b / #5): A[tu], U(S), U[tr]', () => {
    const src = `
      U go
      A tu(toolu_1) Read a.ts
      U summary Earlier work, summarised
      -
      U tr(toolu_1) 10 chars`;
    expect(check(src).map((v) => [v.rule, v.severity, v.messageIndex, v.wireIndex, v.error])).toEqual([
      ['missing-result', 'error', 2, 2, NOT_FIRST(2, 1)],
      [
        'summary-between-pair',
        'warning',
        2,
        2,
        'messages.2: a compaction summary message sits between tool call toolu_1 and its result.',
      ],
      ['orphan-result', 'error', 3, 3, ORPHAN(3, 0, 'toolu_1')],
    ]);
  });

  it('text before the results: "Did not find K" at the user message', () => {
    const src = `
      U go
      A tu(toolu_1) Read a.ts
      A tu(toolu_2) Read b.ts
      U Here are the results
      U tr(toolu_1) 10 chars
      U tr(toolu_2) 10 chars`;
    const vs = check(src);
    expect(vs.map((v) => [v.rule, v.messageIndex, v.blockIndex, v.toolUseId])).toEqual([
      ['results-not-first', 2, 1, 'toolu_1'],
      ['results-not-first', 2, 2, 'toolu_2'],
    ]);
    expect(vs.every((v) => v.error === NOT_FIRST(2, 2) && v.wireIndex === 2)).toBe(true);
  });

  it('a result after text but behind another leading result is named as missing at the assistant', () => {
    const src = `
      U go
      A tu(toolu_1) Read a.ts
      A tu(toolu_2) Read b.ts
      U tr(toolu_1) 10 chars
      U note
      U tr(toolu_2) 10 chars`;
    expect(check(src)).toEqual([
      {
        rule: 'results-not-first',
        severity: 'error',
        messageIndex: 1,
        blockIndex: 1,
        wireIndex: 1,
        toolUseId: 'toolu_2',
        error: MISSING(1, 'toolu_2'),
      },
    ]);
  });

  it('a tool_result inside an assistant message', () => {
    const src = `
      U go
      A tu(toolu_1) Read a.ts
      A tr(toolu_1) 10 chars`;
    expect(check(src).map((v) => [v.rule, v.messageIndex, v.blockIndex, v.error])).toEqual([
      ['missing-result', 1, 0, MISSING(1, 'toolu_1')],
      ['result-outside-user', 1, 1, 'messages.1: `tool_result` blocks can only be in `user` messages'],
    ]);
  });

  it('results two messages later: missing at the call, orphan at the result', () => {
    const src = `
      U go
      A tu(toolu_1) Read a.ts
      -
      A Still thinking
      -
      U tr(toolu_1) 10 chars`;
    expect(check(src).map((v) => [v.rule, v.wireIndex, v.error])).toEqual([
      ['missing-result', 1, MISSING(1, 'toolu_1')],
      ['orphan-result', 3, ORPHAN(3, 0, 'toolu_1')],
    ]);
  });

  it('duplicate tool_use ids across messages, and two results for one id', () => {
    const reused = `
      U go
      A tu(toolu_1) Read a.ts
      U tr(toolu_1) 10 chars
      A tu(toolu_1) Read b.ts
      U tr(toolu_1) 10 chars`;
    expect(check(reused)).toEqual([
      {
        rule: 'duplicate-id',
        severity: 'error',
        messageIndex: 3,
        blockIndex: 0,
        wireIndex: 3,
        toolUseId: 'toolu_1',
        error: 'messages.3.content.0: `tool_use` ids must be unique',
      },
    ]);
    const twice = `
      U go
      A tu(toolu_1) Read a.ts
      U tr(toolu_1) 10 chars
      U tr(toolu_1) 10 chars`;
    expect(check(twice).map((v) => v.error)).toEqual([
      'messages.2.content.1: each tool_use must have a single result. Found multiple `tool_result` blocks with id: toolu_1',
    ]);
  });

  it('server tool results must follow their server_tool_use in the same assistant message', () => {
    const base = messages('U search the web\n-\nA Searching\n-\nU thanks');
    const ok = withMessage(base, 1, (m) => ({
      ...m,
      blocks: [serverToolUse('srvtoolu_1'), serverToolResult('srvtoolu_1'), ...m.blocks],
    }));
    expect(check(ok)).toEqual([]);
    const orphan = withMessage(base, 1, (m) => ({ ...m, blocks: [...m.blocks, serverToolResult('srvtoolu_9')] }));
    expect(check(orphan)).toEqual([
      {
        rule: 'orphan-result',
        severity: 'error',
        messageIndex: 1,
        blockIndex: 1,
        wireIndex: 1,
        toolUseId: 'srvtoolu_9',
        error:
          'messages.1.content.1: unexpected `tool_use_id` found in `web_search_tool_result` blocks: srvtoolu_9. Each `web_search_tool_result` block must have a corresponding `server_tool_use` block before it.',
      },
    ]);
  });
});

describe('thinking blocks of the latest assistant message (#18)', () => {
  const before = messages(`
    U go
    A think pondering the bug
    A tu(toolu_1) Read a.ts
    U tr(toolu_1) 10 chars`);
  const THINKING = 'thinking or redacted_thinking blocks in the latest assistant message cannot be modified';

  it('flags any change to a thinking block, blamed on the stage', () => {
    const after = withMessage(before, 1, (m) => {
      m.blocks[0] = { type: 'thinking', thinking: 'pondering the bug ', signature: 'sig' };
      return m;
    });
    const [v] = validatePairing(after, { thread: 'main', request: 3, stage: 'tiers', provider: 'anthropic', before });
    expect(v).toEqual({
      thread: 'main',
      request: 3,
      stage: 'tiers',
      provider: 'anthropic',
      rule: 'thinking-modified',
      severity: 'error',
      messageIndex: 1,
      blockIndex: 0,
      wireIndex: 1,
      error: THINKING,
    });
  });

  it('flags a dropped thinking block or a changed signature; an equal copy is fine', () => {
    const dropped = withMessage(before, 1, (m) => ({ ...m, blocks: m.blocks.slice(1) }));
    expect(check(dropped, 'anthropic', before)).toMatchObject([{ rule: 'thinking-modified', blockIndex: undefined }]);
    const resigned = withMessage(before, 1, (m) => ({
      ...m,
      blocks: [{ type: 'thinking', thinking: 'pondering the bug', signature: 'other' }, m.blocks[1]],
    }));
    expect(check(resigned, 'bedrock', before)).toMatchObject([{ rule: 'thinking-modified', error: THINKING }]);
    expect(check(structuredClone(before), 'anthropic', before)).toEqual([]);
  });

  it('is an error for Anthropic and Bedrock, a warning for Gemini and Responses, not checked for chat', () => {
    const after = withMessage(before, 1, (m) => ({ ...m, blocks: m.blocks.slice(1) }));
    const sev = (p: Provider) => check(after, p, before).map((v) => v.severity);
    expect([sev('anthropic'), sev('bedrock'), sev('gemini'), sev('openai-responses'), sev('openai-chat')]).toEqual([
      ['error'],
      ['error'],
      ['warning'],
      ['warning'],
      [],
    ]);
  });

  it('ignores thinking in older assistant messages and changes to other blocks', () => {
    const two = messages(`
      U go
      A think old thought
      A tu(toolu_1) Read a.ts
      U tr(toolu_1) 10 chars
      A think new thought
      A tu(toolu_2) Read b.ts
      U tr(toolu_2) 10 chars`);
    const older = withMessage(two, 1, (m) => ({ ...m, blocks: m.blocks.slice(1) }));
    expect(check(older, 'anthropic', two)).toEqual([]);
    const resultEdited = withMessage(two, 4, (m) => ({ ...m, blocks: [{ ...m.blocks[0] }] }));
    expect(check(resultEdited, 'anthropic', two)).toEqual([]);
  });
});
