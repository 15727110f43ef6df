import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fileFromText, parseTranscript } from '../../src/formats/index.ts';
import { parsePythonLiteral } from '../../src/formats/python-literal.ts';
import { exportBundle } from '../../src/formats/tierscope.ts';
import type { Thread, ToolResultBlock, ToolUseBlock, Transcript } from '../../src/model/transcript.ts';
import { describeReal, describeWild, loadReal, loadWild, wildPath } from '../helpers/fixtures.ts';
import { allEvents, run } from '../helpers/replay.ts';

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

const SIMPLE = 'swe-agent/sweagent-function_calling_simple.traj';
const GPT4 = 'swe-agent/sweagent-6e44b9__sweagenttestrepo-1c2844.traj';

const roles = (t: Thread) => t.messages.map((m) => m.role).join(' ');

describeWild('swe-agent: trajectories from the wild (PROVENANCE rows 103, 105)', () => {
  it('function_calling_simple.traj, a demonstration (history only), loads: 12 messages, 5 tool calls answered', () => {
    const t = loadWild(SIMPLE);
    expect(t.format).toBe('swe-agent');
    expect(t.parseIssues.map((i) => [i.severity, i.message])).toEqual([
      ['info', 'a demonstration (history only): no trajectory, info or model'],
    ]);
    const [main] = t.threads;
    // history: system 1, user 1, assistant 5, tool 5 (each tool message → a user message of one tool_result)
    expect(roles(main)).toBe(`system user${' assistant user'.repeat(5)}`);
    const uses = blocksOf(main, 'tool_use') as ToolUseBlock[];
    expect(uses.map((u) => u.name)).toEqual(['find_file', 'open', 'edit', 'bash', 'submit']);
    expect(uses[0]).toEqual({
      type: 'tool_use',
      id: 'call_PbWErNIge3YTrli3fiVvmIid',
      name: 'find_file',
      input: { file_name: 'missing_colon.py' },
    });
    expect(blocksOf(main, 'tool_result')).toHaveLength(5);
    expect(resultsHaveEarlierUses(main)).toBe(true);
    expect(main.requests.map((r) => r.inputEnd)).toEqual([2, 4, 6, 8, 10]);
    const hidden = parseTranscript({ ...fileFromText('x', readFileSync(wildPath(SIMPLE), 'utf8')), name: 'input' });
    expect(hidden.ok && hidden.transcript.format).toBe('swe-agent');
  });

  it('6e44b9 (gpt-4o): the final submit step, only in the trajectory, is appended: 5 requests = api_calls', () => {
    const t = loadWild(GPT4);
    expect(t.parseIssues).toEqual([]);
    const [main] = t.threads;
    // history: system 1, user 1, assistant 4, tool 4; trajectory: 5 steps, the 5th ('submit') beyond the history
    expect(roles(main)).toBe(`system user${' assistant user'.repeat(4)} assistant`);
    expect(main.requests).toHaveLength(5);
    expect(t.meta.extra).toMatchObject({ 'model_stats.api_calls': 5, model: 'gpt-4o', exit_status: 'submitted' });
    expect(main.requests.every((r) => r.model === 'gpt-4o')).toBe(true);
    const uses = blocksOf(main, 'tool_use') as ToolUseBlock[];
    expect(uses.map((u) => u.name)).toEqual(['find_file', 'open', 'edit', 'bash', 'submit']);
    expect(uses[4]).toEqual({ type: 'tool_use', id: 'action-10', name: 'submit', input: { command: 'submit' } });
    expect(main.messages[10].source).toEqual({ line: 0, shape: 'text-action', path: 'trajectory[4]' });
    expect(blocksOf(main, 'tool_result')).toHaveLength(4);
    expect(t.meta.skipped).toEqual({ 'trajectory-step': 4 });
  });

  it('the same run written by a model without function calling: text actions become tool calls', async () => {
    // What SWE-agent writes for such a model: the command in a fenced block after the thought, no tool_calls,
    // and each observation as a user message.
    const doc = JSON.parse(readFileSync(wildPath(GPT4), 'utf8'));
    doc.history = doc.history.map((h: Record<string, unknown>) => {
      const { tool_calls: _calls, tool_call_ids: _ids, ...rest } = h;
      if (h.role === 'assistant') return { ...rest, content: `${h.thought}\n\n\`\`\`\n${h.action}\n\`\`\`\n` };
      return h.role === 'tool' ? { ...rest, role: 'user' } : rest;
    });
    const original = loadWild(GPT4);
    const t = parse(doc);
    expect(t.parseIssues).toEqual([]);
    const [main] = t.threads;
    expect(roles(main)).toBe(roles(original.threads[0]));
    const uses = blocksOf(main, 'tool_use') as ToolUseBlock[];
    expect(uses.map((u) => [u.id, u.name, u.input])).toEqual([
      ['action-2', 'find_file', { command: 'find_file missing_colon.py' }],
      ['action-4', 'open', { command: 'open "/SWE-agent__test-repo/tests/missing_colon.py"' }],
      [
        'action-6',
        'edit',
        {
          command:
            "edit 'def division(a: float, b: float) -> float' 'def division(a: float, b: float) -> float:' False",
        },
      ],
      ['action-8', 'bash', { command: 'python3 /SWE-agent__test-repo/tests/missing_colon.py' }],
      ['action-10', 'submit', { command: 'submit' }],
    ]);
    // Each observation is the tool result of the action before it, with the observation's text.
    const results = blocksOf(main, 'tool_result') as ToolResultBlock[];
    const originalResults = blocksOf(original.threads[0], 'tool_result') as ToolResultBlock[];
    expect(results.map((r) => [r.toolUseId, r.content])).toEqual(
      originalResults.map((r, k) => [uses[k].id, r.content]),
    );
    expect(main.messages[2].blocks[0]).toEqual({ type: 'text', text: doc.history[2].thought });
    expect(main.messages[2].source).toEqual({ line: 0, shape: 'text-action', path: 'history[2]' });
    expect(main.messages[3].source).toEqual({ line: 0, shape: 'text-action', path: 'history[3]' });
    expect(main.requests.map((r) => [r.inputEnd, r.responseEnd])).toEqual(
      original.threads[0].requests.map((r) => [r.inputEnd, r.responseEnd]),
    );
    // Tiers now apply to them: under a small window every result but the newest gets a tier.
    const replay = await run(t, { set: { contextWindow: 2000, outputReserve: 0, tier3Window: 1, tier1Distance: 2 } });
    const tiered = new Set(
      allEvents(replay)
        .filter((e) => e.stage === 'tiers')
        .map((e) => e.toolUseId),
    );
    expect([...tiered].sort()).toEqual(['action-2', 'action-4', 'action-6']);
    // And the bundle round-trips the new shape.
    const again = parseTranscript(fileFromText('x.tierscope.json', exportBundle(t)));
    expect(again.ok && again.transcript.threads[0].messages[2].source.shape).toBe('text-action');
  });
});

describe('swe-agent: the other trajectory shapes', () => {
  const step = (action: string, observation: string) => ({
    action,
    observation,
    response: `do ${action}`,
    thought: `do ${action}`,
  });

  it('a bare {trajectory, info}: every step is a text action, each observation answers it', () => {
    const t = parse({
      trajectory: [step('ls -a', 'a.py'), step('open a.py', '[File: a.py]'), step('submit', 'diff')],
      info: {},
    });
    expect(t.parseIssues.map((i) => i.message)).toEqual(['no history: the thread is built from the trajectory steps']);
    const [main] = t.threads;
    expect(roles(main)).toBe('assistant user assistant user assistant');
    expect((blocksOf(main, 'tool_use') as ToolUseBlock[]).map((u) => u.name)).toEqual(['bash', 'open', 'submit']);
    expect(main.messages[1].source.path).toBe('trajectory[0].observation');
    expect(main.requests.map((r) => r.inputEnd)).toEqual([0, 2, 4]);
  });

  it('a retry loop: the chosen attempt is the main thread, the others sidechains', () => {
    const attempt = (cmd: string) => ({
      history: [
        { role: 'system', content: 'sys', agent: 'main' },
        { role: 'user', content: 'fix it', agent: 'main' },
        { role: 'assistant', content: `${cmd}`, thought: 'try', action: cmd, agent: 'main' },
      ],
      trajectory: [step(cmd, 'ok')],
      info: {},
    });
    const doc = { attempts: [attempt('ls'), attempt('pwd')], ...attempt('pwd'), info: { best_attempt_idx: 1 } };
    const t = parse(doc);
    expect(t.threads.map((th) => [th.id, th.kind])).toEqual([
      ['main', 'main'],
      ['attempt-1', 'sidechain'],
    ]);
    expect(t.threads[1].messages[2].source.path).toBe('attempts[0].history[2]');
    const { history: _h, trajectory: _t, ...onlyAttempts } = doc;
    expect(parse(onlyAttempts).threads.map((th) => [th.id, th.kind])).toEqual([
      ['attempt-1', 'main'],
      ['attempt-2', 'sidechain'],
    ]);
  });

  it('thinking blocks, a JSON-string replay_config and a command documented in the system prompt', () => {
    const t = parse({
      history: [
        { role: 'system', content: 'COMMANDS:\nfrobnicate:\n  docstring: frobnicates\n', agent: 'main' },
        { role: 'user', content: 'go', agent: 'main' },
        {
          role: 'assistant',
          content: 'x',
          thought: 'x',
          action: 'frobnicate --all',
          agent: 'main',
          thinking_blocks: [{ type: 'thinking', thinking: 'hmm', signature: 's' }],
        },
        { role: 'user', content: 'done', agent: 'main' },
      ],
      trajectory: [],
      info: {},
      replay_config: JSON.stringify({ agent: { model: { name: 'claude-sonnet-4' } }, problem_statement: { id: 'p1' } }),
    });
    const [main] = t.threads;
    expect(main.messages[2].blocks).toEqual([
      { type: 'thinking', thinking: 'hmm', signature: 's' },
      { type: 'text', text: 'x' },
      { type: 'tool_use', id: 'action-2', name: 'frobnicate', input: { command: 'frobnicate --all' } },
    ]);
    expect(main.requests[0].model).toBe('claude-sonnet-4');
    expect(t.meta.title).toBe('p1');
  });
});
