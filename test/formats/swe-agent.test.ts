import { describe, expect, it } from 'vitest';
import { fileFromText, parseTranscript } from '../../src/formats/index.ts';
import { parsePythonLiteral } from '../../src/formats/swe-agent.ts';
import type { Thread, ToolUseBlock, Transcript } from '../../src/model/transcript.ts';
import { describeReal, loadReal } from '../helpers/fixtures.ts';

const FIXTURE = 'swe-agent/swe-agent-marshmallow-1867-function-calling-replace.traj';

function parse(doc: unknown): Transcript {
  const r = parseTranscript(fileFromText('run.traj', JSON.stringify(doc, null, 2)));
  if (!r.ok) throw new Error(r.error);
  return r.transcript;
}

function blocksOf(t: Thread, type: string) {
  return t.messages.flatMap((m) => m.blocks.filter((b) => b.type === type));
}

function resultsHaveEarlierUses(t: Thread): boolean {
  const seen = new Set<string>();
  for (const m of t.messages) {
    for (const b of m.blocks) {
      if (b.type === 'tool_use') seen.add(b.id);
      if (b.type === 'tool_result' && !seen.has(b.toolUseId)) return false;
    }
  }
  return true;
}

const traj = (history: unknown[]) => ({ environment: 'main', trajectory: [], history, info: { model_stats: {} } });

describeReal('swe-agent: real marshmallow-1867 trajectory', () => {
  const t = loadReal(FIXTURE);
  const [main] = t.threads;

  it('loads as swe-agent with no error issues', () => {
    expect(t.format).toBe('swe-agent');
    expect(t.parseIssues.filter((i) => i.severity === 'error')).toEqual([]);
    expect(t.meta.title).toBe('marshmallow-code__marshmallow-1867');
  });

  it('has one main thread of 24 messages: system 1, user 1 + 11 tool results, assistant 11', () => {
    expect(t.threads).toHaveLength(1);
    expect(main.kind).toBe('main');
    expect(main.messages).toHaveLength(24);
    const count = (role: string) => main.messages.filter((m) => m.role === role).length;
    expect([count('system'), count('user'), count('assistant')]).toEqual([1, 12, 11]);
    expect(main.messages.filter((m) => m.source.shape === 'openai-tool')).toHaveLength(11);
    expect(main.messages[3].source).toEqual({ line: 0, shape: 'openai-tool', path: 'history[3]' });
  });

  it('has one request per assistant message, without observed usage', () => {
    expect(main.requests.map((r) => r.inputEnd)).toEqual([2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22]);
    expect(main.requests.every((r) => r.responseEnd === r.inputEnd + 1)).toBe(true);
    expect(main.requests.filter((r) => r.observed !== undefined)).toHaveLength(0);
    expect(main.requests[0].model).toBe('gpt-4o');
    expect(t.meta.extra).toMatchObject({ 'model_stats.api_calls': 11, 'model_stats.tokens_sent': 0 });
  });

  it('has 11 tool_use and 11 tool_result blocks, each result after its use', () => {
    const uses = blocksOf(main, 'tool_use') as ToolUseBlock[];
    expect(uses).toHaveLength(11);
    expect(uses[0]).toEqual({
      type: 'tool_use',
      id: 'call_cyI71DYnRdoLHWwtZgIaW2wr',
      name: 'create',
      input: { filename: 'reproduce.py' },
    });
    expect(uses[10].name).toBe('submit');
    expect(blocksOf(main, 'tool_result')).toHaveLength(11);
    expect(resultsHaveEarlierUses(main)).toBe(true);
  });
});

describe('parsePythonLiteral', () => {
  it('parses repr() of dicts, lists, tuples, strings, numbers and constants', () => {
    const r = parsePythonLiteral(
      `[{'function': {'arguments': '{"a": 1}', 'name': "it's"}, 'id': 'c1', 'n': -1.5e3, 'ok': True, 'x': None, 't': (1, 2,), 'f': False}]`,
    );
    expect(r).toEqual({
      ok: true,
      value: [
        {
          function: { arguments: '{"a": 1}', name: "it's" },
          id: 'c1',
          n: -1500,
          ok: true,
          x: null,
          t: [1, 2],
          f: false,
        },
      ],
    });
  });

  it('decodes escapes', () => {
    expect(parsePythonLiteral(String.raw`'a\nb\t\'q\' \\ \x41 \u00e9 \U0001F600'`)).toEqual({
      ok: true,
      value: "a\nb\t'q' \\ A é 😀",
    });
  });

  it('refuses anything that is not a literal, without evaluating it', () => {
    for (const bad of ["__import__('os').system('x')", "{'a': 1", '[1 2]', "'open", '[1,,2]', '']) {
      const r = parsePythonLiteral(bad);
      expect(r.ok, bad).toBe(false);
    }
    expect(parsePythonLiteral(`${'['.repeat(5000)}${']'.repeat(5000)}`).ok).toBe(false);
  });
});

describe('swe-agent: repo-own inputs', () => {
  it('decodes Python-repr tool_calls and tool_call_ids strings', () => {
    const t = parse(
      traj([
        { role: 'system', content: 'sys', message_type: 'system_prompt', agent: 'main' },
        { role: 'user', content: 'fix it', message_type: 'observation', agent: 'main' },
        {
          role: 'assistant',
          content: 'look',
          message_type: 'action',
          tool_calls: `[{'function': {'arguments': '{"command":"ls -F"}', 'name': 'bash'}, 'id': 'call_1', 'type': 'function'}]`,
        },
        { role: 'tool', content: 'a.py', message_type: 'observation', tool_call_ids: "['call_1']" },
      ]),
    );
    expect(t.format).toBe('swe-agent');
    expect(t.parseIssues).toEqual([]);
    const [th] = t.threads;
    expect(blocksOf(th, 'tool_use')).toEqual([
      { type: 'tool_use', id: 'call_1', name: 'bash', input: { command: 'ls -F' } },
    ]);
    expect(blocksOf(th, 'tool_result')).toEqual([
      { type: 'tool_result', toolUseId: 'call_1', content: 'a.py', isError: false },
    ]);
    expect(th.requests.map((r) => r.inputEnd)).toEqual([2]);
  });

  it('bad items become issues naming their path; the rest loads', () => {
    const t = parse(
      traj([
        { role: 'user', content: 'go' },
        42,
        { role: 'assistant', content: '', tool_calls: "[{'id': 'c1', 'function': {'name': 'x', 'arguments': '{}'}" },
        { role: 'assistant', content: 'done' },
      ]),
    );
    const [th] = t.threads;
    expect(th.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'assistant']);
    expect(th.messages[1].source.path).toBe('history[2]');
    expect(t.parseIssues.map((i) => [i.severity, i.message.slice(0, 11)])).toEqual([
      ['error', 'history[1]:'],
      ['warning', 'history[2]:'],
    ]);
    expect(t.parseIssues[1].message).toMatch(/tool_calls is a string that did not decode/);
  });

  it('is not taken for another format and needs history, trajectory and info', () => {
    const r = parseTranscript(fileFromText('x.traj', JSON.stringify({ history: [], info: {} }, null, 2)));
    expect(r.ok).toBe(false);
  });
});
