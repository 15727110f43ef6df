// Gemini generateContent and Bedrock Converse rules of the pairing validator (SPEC §5.1): exact texts,
// wire indices (both hoist system messages out of the list) and the cases of peers-and-bugs.md §2a.
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

const CALL_ORDER =
  'Please ensure that function call turn comes immediately after a user turn or after a function response turn.';
const RESPONSE_ORDER = 'Please ensure that function response turn comes immediately after a function call turn.';
const COUNT =
  'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.';

describe('gemini pairing rules', () => {
  it('a history that starts with a model function call (#20 gemini-cli 11814)', () => {
    const src = `
      S You are a loop detector
      -
      A tu(fc_1) Read a.ts
      U tr(fc_1) 10 chars`;
    expect(check(src, 'gemini')).toEqual([
      {
        rule: 'call-turn-order',
        severity: 'error',
        messageIndex: 1,
        blockIndex: 0,
        wireIndex: 0,
        toolUseId: 'fc_1',
        error: CALL_ORDER,
      },
    ]);
  });

  it('fewer or more function responses than calls', () => {
    const fewer = `
      U go
      A tu(fc_1) Read a.ts
      A tu(fc_2) Read b.ts
      U tr(fc_1) 10 chars`;
    expect(check(fewer, 'gemini').filter((v) => v.severity === 'error')).toEqual([
      {
        rule: 'count-mismatch',
        severity: 'error',
        messageIndex: 2,
        blockIndex: undefined,
        wireIndex: 2,
        toolUseId: 'fc_2',
        error: COUNT,
      },
    ]);
    const more = `
      U go
      A tu(fc_1) Read a.ts
      U tr(fc_1) 10 chars
      U tr(fc_9) 10 chars`;
    expect(check(more, 'gemini')).toMatchObject([{ rule: 'count-mismatch', blockIndex: 1, toolUseId: 'fc_9' }]);
  });

  it('a function response turn that does not follow a function call turn', () => {
    const src = `
      U go
      A Sure
      U tr(fc_1) 10 chars`;
    expect(check(src, 'gemini')).toMatchObject([
      { rule: 'orphan-result', severity: 'error', messageIndex: 2, blockIndex: 0, wireIndex: 2, error: RESPONSE_ORDER },
    ]);
  });

  it('a function call turn followed by another model turn', () => {
    const src = `
      U go
      A tu(fc_1) Read a.ts
      -
      A Done
      -
      U ok`;
    expect(check(src, 'gemini')).toMatchObject([
      { rule: 'missing-result', messageIndex: 1, wireIndex: 1, error: COUNT },
    ]);
  });

  it('a request ending with a model turn is only a warning, even with an open function call', () => {
    expect(check('U go\nA Sure', 'gemini')).toEqual([
      {
        rule: 'ends-with-model-turn',
        severity: 'warning',
        messageIndex: 1,
        blockIndex: undefined,
        wireIndex: 1,
        toolUseId: undefined,
        error: 'Requests ending with a model turn are not supported.',
      },
    ]);
    expect(check('U go\nA tu(fc_1) Read a.ts', 'gemini').map((v) => [v.rule, v.severity])).toEqual([
      ['ends-with-model-turn', 'warning'],
    ]);
  });

  it('counts, not positions or ids: text before the responses is accepted', () => {
    expect(check('U go\nA tu(fc_1) Read a.ts\nU Output:\nU tr(fc_1) 10 chars', 'gemini')).toEqual([]);
  });
});

describe('bedrock pairing rules', () => {
  it('more toolResult blocks than toolUse blocks of the previous turn (#21 Curie 16)', () => {
    const src = `
      S You are helpful
      -
      U hi
      A hello
      U tr(tooluse_X) 10 chars`;
    expect(check(src, 'bedrock')).toEqual([
      {
        rule: 'count-mismatch',
        severity: 'error',
        messageIndex: 3,
        blockIndex: 0,
        wireIndex: 2,
        toolUseId: 'tooluse_X',
        error:
          'The number of toolResult blocks at messages.2.content exceeds the number of toolUse blocks of previous turn.',
      },
    ]);
  });

  it('toolUse ids without a toolResult in the next message', () => {
    const src = `
      U go
      A tu(tooluse_1) Read a.ts
      A tu(tooluse_2) Read b.ts
      A tu(tooluse_3) Read c.ts
      U tr(tooluse_2) 10 chars`;
    const errors = check(src, 'bedrock').filter((v) => v.severity === 'error');
    expect(errors.map((v) => [v.rule, v.messageIndex, v.wireIndex, v.toolUseId])).toEqual([
      ['missing-result', 2, 2, 'tooluse_1'],
      ['missing-result', 2, 2, 'tooluse_3'],
    ]);
    expect(errors[0].error).toBe(
      'Expected toolResult blocks at messages.2.content for the following Ids: tooluse_1, tooluse_3',
    );
  });

  it('text before the results: Claude\'s "Did not find" passes through, plus the mixed-turn warning', () => {
    const src = `
      U go
      A tu(tooluse_1) Read a.ts
      U Output:
      U tr(tooluse_1) 10 chars`;
    expect(check(src, 'bedrock').map((v) => [v.rule, v.severity, v.blockIndex, v.error])).toEqual([
      [
        'results-not-first',
        'error',
        1,
        'messages.2: Did not find 1 `tool_result` block(s) at the beginning of this message. Messages following `tool_use` blocks must begin with a matching number of `tool_result` blocks.',
      ],
      [
        'mixed-content-turn',
        'warning',
        undefined,
        'messages.2.content: Conversation blocks and tool result blocks cannot be provided in the same turn.',
      ],
    ]);
  });

  it('text after the results is only the mixed-turn warning (some models refuse it)', () => {
    expect(check('U go\nA tu(tooluse_1) Read a.ts\nU tr(tooluse_1) 10 chars\nU thanks', 'bedrock')).toMatchObject([
      { rule: 'mixed-content-turn', severity: 'warning', messageIndex: 2, wireIndex: 2 },
    ]);
  });

  it('an error-status toolResult with empty content (accepted by Anthropic)', () => {
    const src = `
      U go
      A tu(tooluse_1) Bash make
      U tr!(tooluse_1) ""`;
    expect(check(src, 'bedrock')).toEqual([
      {
        rule: 'empty-error-result',
        severity: 'error',
        messageIndex: 2,
        blockIndex: 0,
        wireIndex: 2,
        toolUseId: 'tooluse_1',
        error: 'The content field at messages.2.content.0.toolResult cannot be empty when status value is error.',
      },
    ]);
    expect(check(src, 'anthropic')).toEqual([]);
  });

  it('a toolUse followed by an assistant message, or by nothing', () => {
    const src = `
      U go
      A tu(tooluse_1) Read a.ts
      -
      A Done`;
    expect(check(src, 'bedrock')).toMatchObject([
      {
        rule: 'missing-result',
        wireIndex: 2,
        error: 'Expected toolResult blocks at messages.2.content for the following Ids: tooluse_1',
      },
    ]);
    expect(check('U go\nA tu(tooluse_1) Read a.ts', 'bedrock')).toMatchObject([
      { rule: 'missing-result', wireIndex: 1, error: expect.stringContaining('messages.1: `tool_use` ids were found') },
    ]);
  });
});
