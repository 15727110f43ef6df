// OpenAI Chat Completions and Responses rules of the pairing validator (SPEC §5.1): exact texts and the
// real wire index (chat keeps system messages and splits results into `tool` messages; Responses makes
// every call and output its own input item).
import { describe, expect, it } from 'vitest';
import { type PairingViolation, type Provider, validatePairing } from '../../src/pairing/validate.ts';
import { messages } from '../helpers/dsl.ts';

function check(src: string, provider: Provider) {
  return validatePairing(messages(src), { thread: 'main', request: 0, stage: 'input', provider }).map(pick);
}

function pick(v: PairingViolation) {
  const { rule, severity, messageIndex, blockIndex, wireIndex, toolUseId, error } = v;
  return { rule, severity, messageIndex, blockIndex, wireIndex, toolUseId, error };
}

const TOOL_WITHOUT_CALL =
  "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.";
const CHAT_MISSING = (ids: string) =>
  `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${ids}`;

describe('openai-chat pairing rules', () => {
  it('a tool message without a preceding tool_calls message (#12 litellm 4931): S, T(X) → messages.[1]', () => {
    const src = `
      S You are helpful
      -
      U tr(call_X) 10 chars`;
    expect(check(src, 'openai-chat')).toEqual([
      {
        rule: 'tool-message-without-call',
        severity: 'error',
        messageIndex: 1,
        blockIndex: 0,
        wireIndex: 1,
        toolUseId: 'call_X',
        error: TOOL_WITHOUT_CALL,
      },
    ]);
    // The same request for Anthropic: the system message is hoisted, so the result is messages.0.
    expect(check(src, 'anthropic')[0]).toMatchObject({ rule: 'orphan-result', wireIndex: 0 });
  });

  it('an assistant message whose tool_calls are not all answered lists the missing ids', () => {
    const src = `
      U go
      A tu(call_a) Read a.ts
      A tu(call_b) Read b.ts
      A tu(call_c) Read c.ts
      U tr(call_b) 10 chars`;
    const errors = check(src, 'openai-chat').filter((v) => v.severity === 'error');
    expect(errors.map((v) => [v.rule, v.messageIndex, v.blockIndex, v.wireIndex, v.toolUseId])).toEqual([
      ['missing-result', 1, 0, 1, 'call_a'],
      ['missing-result', 1, 2, 1, 'call_c'],
    ]);
    expect(errors[0].error).toBe(CHAT_MISSING('call_a, call_c'));
  });

  it("a tool message answering an id not in the previous message's tool_calls", () => {
    const src = `
      U go
      A tu(call_a) Read a.ts
      U tr(call_a) 10 chars
      U tr(call_b) 10 chars`;
    expect(check(src, 'openai-chat')).toEqual([
      {
        rule: 'orphan-result',
        severity: 'error',
        messageIndex: 2,
        blockIndex: 1,
        wireIndex: 3,
        toolUseId: 'call_b',
        error: "Invalid parameter: 'tool_call_id' of 'call_b' not found in 'tool_calls' of previous message.",
      },
    ]);
  });

  it('a system message between a call and its result breaks chat but not Anthropic', () => {
    const src = `
      U go
      A tu(call_a) Read a.ts
      S Reminder: be brief
      -
      U tr(call_a) 10 chars`;
    expect(check(src, 'openai-chat').map((v) => [v.rule, v.wireIndex, v.error])).toEqual([
      ['missing-result', 1, CHAT_MISSING('call_a')],
      ['tool-message-without-call', 3, TOOL_WITHOUT_CALL],
    ]);
    expect(check(src, 'anthropic')).toEqual([]);
  });

  it('text after results becomes its own user message, which shifts later indices', () => {
    const src = `
      U go
      A tu(call_a) Read a.ts
      U tr(call_a) 10 chars
      U and also check b.ts
      A tu(call_b) Read b.ts
      U never mind`;
    expect(check(src, 'openai-chat')).toEqual([
      {
        rule: 'missing-result',
        severity: 'error',
        messageIndex: 3,
        blockIndex: 0,
        wireIndex: 4,
        toolUseId: 'call_b',
        error: CHAT_MISSING('call_b'),
      },
    ]);
    expect(check(src, 'anthropic')).toMatchObject([{ rule: 'missing-result', messageIndex: 4, wireIndex: 4 }]);
  });

  it('text before the results: the call is unanswered and the tool message follows a user message', () => {
    const src = `
      U go
      A tu(call_a) Read a.ts
      U Output below
      U tr(call_a) 10 chars`;
    expect(check(src, 'openai-chat').map((v) => [v.rule, v.messageIndex, v.wireIndex])).toEqual([
      ['missing-result', 1, 1],
      ['tool-message-without-call', 2, 3],
    ]);
  });

  it('a trailing assistant message with tool_calls is rejected', () => {
    expect(check('U go\nA tu(call_a) Read a.ts', 'openai-chat')).toMatchObject([
      { rule: 'missing-result', severity: 'error', wireIndex: 1, error: CHAT_MISSING('call_a') },
    ]);
  });

  it('duplicate ids are warnings (no documented error text)', () => {
    const src = `
      U go
      A tu(call_a) Read a.ts
      U tr(call_a) 10 chars
      U tr(call_a) 10 chars
      A tu(call_a) Read b.ts
      U tr(call_a) 10 chars`;
    const vs = check(src, 'openai-chat');
    expect(vs.map((v) => [v.rule, v.severity, v.messageIndex, v.wireIndex])).toEqual([
      ['duplicate-id', 'warning', 2, 3],
      ['duplicate-id', 'warning', 3, 4],
    ]);
    expect(vs[0].error).toContain('a second result answers tool call call_a');
  });
});

describe('openai-responses pairing rules', () => {
  it('results whose calls were cut away by "keep last N" (#9 langchain 34282)', () => {
    const src = `
      U summary Earlier: the agent read ten files
      -
      U tr(call_5) 10 chars
      U tr(call_6) 10 chars
      U tr(call_7) 10 chars`;
    expect(check(src, 'openai-responses')).toEqual(
      [5, 6, 7].map((k, i) => ({
        rule: 'orphan-result',
        severity: 'error',
        messageIndex: 1,
        blockIndex: i,
        wireIndex: 1 + i,
        toolUseId: `call_${k}`,
        error: `No tool call found for function call output with call_id call_${k}.`,
      })),
    );
  });

  it('a function call without an output anywhere after it', () => {
    const src = `
      U go
      A think planning
      A I will read two files
      A tu(call_a) Read a.ts
      A tu(call_b) Read b.ts
      U tr(call_b) 10 chars
      U Now summarise`;
    expect(check(src, 'openai-responses').filter((v) => v.severity === 'error')).toEqual([
      {
        rule: 'missing-result',
        severity: 'error',
        messageIndex: 1,
        blockIndex: 2,
        wireIndex: 3,
        toolUseId: 'call_a',
        error: 'No tool output found for function call call_a.',
      },
    ]);
  });

  it('an output placed before its call is an orphan and leaves the call unanswered', () => {
    const src = `
      U go
      U tr(call_a) 10 chars
      A tu(call_a) Read a.ts`;
    expect(check(src, 'openai-responses').map((v) => [v.rule, v.wireIndex])).toEqual([
      ['orphan-result', 1],
      ['missing-result', 2],
    ]);
  });

  it('items are matched by call_id only: text before results and system messages in between are fine', () => {
    const src = `
      U go
      A tu(call_a) Read a.ts
      S Reminder
      -
      U Output:
      U tr(call_a) 10 chars`;
    expect(check(src, 'openai-responses')).toEqual([]);
  });
});
