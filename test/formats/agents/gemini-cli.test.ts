// Gemini CLI chats (issue 31): the real `.json` sessions of test/fixtures/gemini-cli, the `.jsonl` the CLI
// migrates them to, and the 2026 writer's record kinds ($set, $rewindTo, function responses as user turns,
// sub-agent chats) — each rule of what the model saw checked against its evidence.
import { describe, expect, it } from 'vitest';
import { recordedCost } from '../../../src/analyses/recorded-cost.ts';
import { fileFromText, parseTranscript } from '../../../src/formats/index.ts';
import type { Transcript } from '../../../src/model/transcript.ts';
import { agentFixture, geminiJsonDollars, loadAgent } from '../../helpers/agent-fixtures.ts';

const REAL = [
  'gemini-cli/yoavf-pomodoro-timer.json',
  'gemini-cli/aim-control_pro.json',
  'gemini-cli/aim-matrix_flash.json',
];

const jsonl = (lines: unknown[]) => `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
const load = (text: string, name = 'session-2026-01-01T00-00-abcd1234.jsonl'): Transcript => {
  const r = parseTranscript(fileFromText(name, text));
  if (!r.ok) throw new Error(r.error);
  return r.transcript;
};
const T = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
const header = { sessionId: 'sess-1', projectHash: 'h', startTime: T(0), lastUpdated: T(0), kind: 'main' };
const tokens = (input: number, cached = 0) => ({ input, output: 10, cached, thoughts: 5, tool: 0, total: input + 15 });

describe('Gemini CLI: real sessions', () => {
  for (const rel of REAL) {
    it(`${rel}: loads as gemini-cli with usage on its requests, every call answered, no error`, () => {
      const t = loadAgent(rel);
      expect(t.format).toBe('gemini-cli');
      expect(t.parseIssues.filter((i) => i.severity === 'error')).toEqual([]);
      const main = t.threads[0];
      expect(main.requests.length).toBeGreaterThan(10);
      expect(main.requests.filter((r) => r.observed).length).toBeGreaterThanOrEqual(main.requests.length - 1);
      const uses = main.messages.flatMap((m) => m.blocks.filter((b) => b.type === 'tool_use'));
      const results = new Set(
        main.messages.flatMap((m) => m.blocks.flatMap((b) => (b.type === 'tool_result' ? [b.toolUseId] : []))),
      );
      expect(uses.length).toBeGreaterThan(5);
      for (const u of uses) expect(results.has(u.type === 'tool_use' ? u.id : '')).toBe(true);
    });
    it(`${rel}: recorded dollars equal the raw file's usage at the catalog's prices`, () => {
      const ours = recordedCost(loadAgent(rel), {}).totals;
      const theirs = geminiJsonDollars(agentFixture(rel));
      expect(theirs.unpriced).toEqual([]);
      expect(ours?.priced).toBe(theirs.responses);
      expect(ours?.usd ?? 0).toBeCloseTo(theirs.usd, 6);
    });
  }

  it('cached tokens are part of input and thoughts are billed as output (control_pro, first reply)', () => {
    // {"input": 8756, "output": 30, "cached": 0, "thoughts": 177, "tool": 0, "total": 8963}: total = 8756 + 30 + 177.
    const r = loadAgent('gemini-cli/aim-control_pro.json').threads[0].requests[0];
    expect(r.observed).toEqual({ input: 8756, cacheRead: 0, cacheWrite: 0, output: 207 });
    expect(r.reasoningOutput).toBe(177);
    const second = loadAgent('gemini-cli/aim-control_pro.json').threads[0].requests[1];
    // {"input": 8868, "cached": 5736}: the prompt is 8,868 tokens, 5,736 of them read from the cache.
    expect(second.observed?.input).toBe(8868 - 5736);
    expect(second.observed?.cacheRead).toBe(5736);
  });

  it('info and error messages are the UI’s, not history', () => {
    const t = loadAgent('gemini-cli/aim-matrix_flash.json');
    expect(t.meta.skipped).toMatchObject({ 'message:info': 4, 'message:error': 2 });
  });

  it('a reply whose tokens are all zero has no observed usage (pomodoro, first reply)', () => {
    expect(loadAgent('gemini-cli/yoavf-pomodoro-timer.json').threads[0].requests[0].observed).toBeUndefined();
  });
});

describe('Gemini CLI: the 2026 JSONL records', () => {
  it('a reply written again with its tool calls keeps its place; a user turn of function responses is the results', () => {
    const t = load(
      jsonl([
        header,
        { id: 'u1', timestamp: T(1), type: 'user', content: [{ text: 'read a' }] },
        { $set: { lastUpdated: T(1) } },
        { id: 'g1', timestamp: T(2), type: 'gemini', content: '', model: 'gemini-2.5-pro', tokens: tokens(3000) },
        {
          id: 'g1',
          timestamp: T(2),
          type: 'gemini',
          content: '',
          model: 'gemini-2.5-pro',
          tokens: tokens(3000),
          toolCalls: [
            {
              id: 'c1',
              name: 'read_file',
              args: { file_path: 'a' },
              status: 'success',
              result: [{ functionResponse: { id: 'c1', name: 'read_file', response: { output: 'AAA' } } }],
            },
          ],
        },
        {
          id: 'u2',
          timestamp: T(3),
          type: 'user',
          content: [{ functionResponse: { id: 'c1', name: 'read_file', response: { output: 'AAA' } } }],
        },
        {
          id: 'g2',
          timestamp: T(4),
          type: 'gemini',
          content: 'done',
          model: 'gemini-2.5-pro',
          tokens: tokens(3100, 2900),
        },
      ]),
    );
    const m = t.threads[0].messages;
    expect(m.map((x) => x.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(m[1].blocks).toContainEqual({ type: 'tool_use', id: 'c1', name: 'read_file', input: { file_path: 'a' } });
    expect(m[2].blocks).toEqual([{ type: 'tool_result', toolUseId: 'c1', content: 'AAA', isError: false }]);
    expect(t.threads[0].requests.map((r) => r.inputEnd)).toEqual([1, 3]);
  });

  it('$rewindTo drops the message and all after it; a dropped reply was billed and is kept apart', () => {
    const t = load(
      jsonl([
        header,
        { id: 'u1', timestamp: T(1), type: 'user', content: 'first' },
        { id: 'g1', timestamp: T(2), type: 'gemini', content: 'wrong', model: 'gemini-2.5-pro', tokens: tokens(2500) },
        { $rewindTo: 'u1' },
        { id: 'u2', timestamp: T(3), type: 'user', content: 'again' },
        { id: 'g2', timestamp: T(4), type: 'gemini', content: 'right', model: 'gemini-2.5-pro', tokens: tokens(2600) },
      ]),
    );
    const th = t.threads[0];
    expect(th.messages.map((m) => m.source.uuid)).toEqual(['u2', 'g2']);
    expect(th.requests).toHaveLength(1);
    expect(th.billedApart?.map((b) => b.why)).toEqual(['abandoned-branch']);
    expect(recordedCost(t, {}).totals?.priced).toBe(2);
  });

  it('a $set that rewrites the history (compression) restarts the input from the summary', () => {
    const t = load(
      jsonl([
        header,
        { id: 'u1', timestamp: T(1), type: 'user', content: 'long task' },
        { id: 'g1', timestamp: T(2), type: 'gemini', content: 'a lot', model: 'gemini-2.5-pro', tokens: tokens(9000) },
        {
          $set: {
            messages: [
              {
                id: 's1',
                timestamp: T(3),
                type: 'user',
                content: [{ text: '<state_snapshot>the summary</state_snapshot>' }],
              },
              {
                id: 's2',
                timestamp: T(3),
                type: 'gemini',
                content: [{ text: 'Got it. Thanks for the additional context!' }],
              },
            ],
          },
        },
        { id: 'u2', timestamp: T(4), type: 'user', content: 'go on' },
        { id: 'g2', timestamp: T(5), type: 'gemini', content: 'ok', model: 'gemini-2.5-pro', tokens: tokens(3000) },
      ]),
    );
    const th = t.threads[0];
    const summary = th.messages.find((m) => m.source.uuid === 's1');
    expect(summary?.compaction).toBe('summary');
    const last = th.requests.at(-1);
    expect(last?.boundary).toBe('agent-compaction');
    expect(last?.exactInput?.map((m) => m.source.uuid)).toEqual(['s1', 's2', 'u2']);
  });

  it('a sub-agent chat in chats/<parent id>/ is a sidechain of the call that ran it', () => {
    const main = jsonl([
      header,
      { id: 'u1', timestamp: T(1), type: 'user', content: 'investigate' },
      {
        id: 'g1',
        timestamp: T(2),
        type: 'gemini',
        content: '',
        model: 'gemini-2.5-pro',
        tokens: tokens(4000),
        toolCalls: [
          {
            id: 'call-ci',
            name: 'codebase_investigator',
            args: {},
            agentId: 'sub-1',
            displayName: 'Codebase Investigator Agent',
            status: 'success',
            result: [
              { functionResponse: { id: 'call-ci', name: 'codebase_investigator', response: { output: 'report' } } },
            ],
          },
        ],
      },
    ]);
    const sub = jsonl([
      { ...header, sessionId: 'sub-1', kind: 'subagent' },
      { id: 'x1', timestamp: T(2), type: 'user', content: 'look around' },
      {
        id: 'x2',
        timestamp: T(3),
        type: 'gemini',
        content: 'found it',
        model: 'gemini-2.5-flash',
        tokens: tokens(2000),
      },
    ]);
    const r = parseTranscript(fileFromText('session-2026-01-01T00-00-sess1.jsonl', main), [
      fileFromText('sess-1/sub-1.jsonl', sub),
    ]);
    if (!r.ok) throw new Error(r.error);
    const side = r.transcript.threads[1];
    expect(side.kind).toBe('sidechain');
    expect(side.parentToolUseId).toBe('call-ci');
    expect(side.title).toContain('Codebase Investigator Agent');
    expect(side.requests[0].observed?.input).toBe(2000);
  });
});
