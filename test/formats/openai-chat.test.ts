import { describe, expect, it } from 'vitest';
import { fileFromText, parseTranscript } from '../../src/formats/index.ts';
import { openaiChatParser } from '../../src/formats/openai-chat.ts';
import { openaiUsage } from '../../src/formats/openai-messages.ts';
import type { Thread, ToolUseBlock, Transcript } from '../../src/model/transcript.ts';
import { describeReal, loadReal } from '../helpers/fixtures.ts';

const FIXTURE = 'openai-chat/inspect-browser-gpt4o-mini.chat-completions.jsonl';

function parse(text: string, name = 'log.jsonl'): Transcript {
  const r = parseTranscript(fileFromText(name, text));
  if (!r.ok) throw new Error(r.error);
  return r.transcript;
}

function blocksOf(t: Thread, type: string) {
  return t.messages.flatMap((m) => m.blocks.filter((b) => b.type === type));
}

/** Every tool_result answers a tool_use that appears earlier in the same thread. */
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

const pair = (messages: unknown[], reply: unknown, usage?: unknown, extra: object = {}) =>
  JSON.stringify({
    request: { model: 'gpt-4o-mini', messages, ...extra },
    response: { object: 'chat.completion', model: 'gpt-4o-mini', choices: [{ index: 0, message: reply }], usage },
  });
const u = (text: string) => ({ role: 'user', content: text });
const a = (text: string) => ({ role: 'assistant', content: text });

describeReal('openai-chat: real Inspect-derived Chat Completions log', () => {
  const t = loadReal(FIXTURE);
  const [main] = t.threads;

  it('loads as openai-chat with no error issues, detected by content', () => {
    expect(t.format).toBe('openai-chat');
    expect(t.parseIssues.filter((i) => i.severity === 'error')).toEqual([]);
    const forced = loadReal(FIXTURE, { format: 'openai-chat' });
    expect(forced.threads.map((x) => [x.id, x.messages.length, x.requests.length])).toEqual([['main', 10, 5]]);
  });

  it('groups the 5 requests into one thread: 9 request messages + the final response', () => {
    expect(t.threads).toHaveLength(1);
    expect(main.kind).toBe('main');
    expect(main.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(main.requests.map((r) => [r.inputEnd, r.responseEnd, r.line])).toEqual([
      [1, 2, 1],
      [3, 4, 2],
      [5, 6, 3],
      [7, 8, 4],
      [9, 10, 5],
    ]);
  });

  it('exact inputs share the thread Message objects', () => {
    for (const r of main.requests) {
      expect(r.exactInput).toHaveLength(r.inputEnd);
      r.exactInput?.forEach((m, i) => {
        expect(m).toBe(main.messages[i]);
      });
    }
  });

  it('has 4 tool_use and 4 tool_result blocks, each result after its use', () => {
    const uses = blocksOf(main, 'tool_use') as ToolUseBlock[];
    expect(uses.map((b) => b.name)).toEqual([
      'web_browser_go',
      'web_browser_click',
      'web_browser_click',
      'web_browser_click',
    ]);
    expect(uses[0].input).toEqual({ url: 'https://www.aisi.gov.uk/' });
    expect(blocksOf(main, 'tool_result')).toHaveLength(4);
    expect(main.messages.filter((m) => m.source.shape === 'openai-tool')).toHaveLength(4);
    expect(resultsHaveEarlierUses(main)).toBe(true);
  });

  it('normalizes usage: cached tokens are taken out of prompt_tokens', () => {
    expect(main.requests.every((r) => r.observed !== undefined)).toBe(true);
    // line 2: prompt_tokens 1568, cached_tokens 1024, completion_tokens 17 (checked by hand)
    expect(main.requests[1].observed).toEqual({ input: 544, cacheRead: 1024, cacheWrite: 0, output: 17 });
    const prompt = main.requests.map((r) => (r.observed ? r.observed.input + r.observed.cacheRead : 0));
    expect(prompt).toEqual([1124, 1568, 2732, 3896, 5915]);
    expect(main.requests[1].model).toBe('gpt-4o-mini-2024-07-18');
    expect(main.requests[0].time).toBe(1747096059000);
  });

  it('keeps the 8 browser tools as the thread prefix, shared by every request', () => {
    expect(main.prefix.tools?.map((x) => x.name)).toHaveLength(8);
    expect(main.prefix.tools?.[0].name).toBe('web_browser_go');
    expect(main.prefix.tools?.[0].inputSchema).toMatchObject({ required: ['url'] });
    for (const r of main.requests) expect(r.exactPrefix?.tools).toBe(main.prefix.tools);
  });
});

describe('openai-chat: repo-own inputs', () => {
  it('merges consecutive tool messages into one user message of tool_results (conversation line)', () => {
    const conv = {
      messages: [
        { role: 'system', content: 'be brief' },
        u('read both'),
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'read', arguments: '{"path":"a.ts"}' } },
            { id: 'c2', type: 'function', function: { name: 'read', arguments: '{"path":"b.ts"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'A' },
        { role: 'tool', tool_call_id: 'c2', content: [{ type: 'text', text: 'B' }] },
        a('done'),
      ],
    };
    const t = parse(`${JSON.stringify(conv)}\n`);
    const [th] = t.threads;
    expect(t.format).toBe('openai-chat');
    expect(th.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant']);
    const merged = th.messages[3];
    expect(merged.source).toMatchObject({ line: 1, shape: 'openai-tool' });
    expect(merged.blocks).toEqual([
      { type: 'tool_result', toolUseId: 'c1', content: 'A', isError: false },
      { type: 'tool_result', toolUseId: 'c2', content: [{ type: 'text', text: 'B' }], isError: false },
    ]);
    expect(th.requests.map((r) => [r.inputEnd, r.responseEnd])).toEqual([
      [2, 3],
      [4, 5],
    ]);
    expect(resultsHaveEarlierUses(th)).toBe(true);
  });

  it('keeps invalid tool-call arguments as a string and warns with the line number', () => {
    const bad = {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c9', type: 'function', function: { name: 'bash', arguments: '{"cmd": "ls' } }],
    };
    const t = parse(`${pair([u('hi')], a('ok'))}\n${pair([u('hi'), a('ok'), u('go')], bad)}\n`);
    const use = blocksOf(t.threads[0], 'tool_use')[0] as ToolUseBlock;
    expect(use.input).toBe('{"cmd": "ls');
    const warning = t.parseIssues.find((i) => i.severity === 'warning');
    expect(warning?.line).toBe(2);
    expect(warning?.message).toMatch(/c9.*not valid JSON/);
  });

  it('a bad line and a truncated last line become issues with line numbers; the rest loads', () => {
    const lines = [
      pair([u('q1')], a('r1'), { prompt_tokens: 10, completion_tokens: 2 }),
      '{"request": {"messages": [oops',
      pair([u('q1'), a('r1'), u('q2')], a('r2'), { prompt_tokens: 20, completion_tokens: 3 }),
      pair([u('q1'), a('r1'), u('q2'), a('r2'), u('q3')], a('r3')).slice(0, 40),
    ];
    const t = parse(lines.join('\n'));
    const errors = t.parseIssues.filter((i) => i.severity === 'error');
    expect(errors.map((i) => i.line)).toEqual([2, 4]);
    expect(errors[1].message).toMatch(/truncated last line/);
    expect(t.threads).toHaveLength(1);
    expect(t.threads[0].messages).toHaveLength(4);
    expect(t.threads[0].requests.map((r) => r.observed?.input)).toEqual([10, 20]);
  });

  it('an unrelated request becomes a side-call thread; main is the thread with most requests', () => {
    const t = parse(
      [
        pair([{ role: 'system', content: 'Write a title' }, u('fix the bug')], a('Bug fix')),
        pair([u('fix the bug')], a('looking')),
        pair([u('fix the bug'), a('looking'), u('and?')], a('fixed')),
      ].join('\n'),
    );
    expect(t.threads.map((x) => [x.id, x.kind, x.requests.length])).toEqual([
      ['main', 'main', 2],
      ['call-1', 'side-call', 1],
    ]);
    expect(t.threads[0].requests.map((r) => r.line)).toEqual([2, 3]);
  });

  it('a Claude Code continuation after its own compaction joins the thread it continues', () => {
    const sys = { role: 'system', content: 'You are Claude Code.' };
    const summary = u('This session is being continued from a previous conversation. Summary: the user said one.');
    const compact = u('Your task is to create a detailed summary of the conversation so far.');
    const t = parse(
      [
        pair([sys, u('one')], a('1')),
        pair([sys, u('one'), a('1'), compact], a('they said one')),
        pair([{ role: 'system', content: 'Write a title' }, u('two')], a('Two')),
        pair([sys, summary], a('ok')),
        pair([sys, summary, a('ok'), u('two')], a('2')),
      ].join('\n'),
    );
    expect(t.threads.map((x) => [x.id, x.kind, x.messages.length, x.requests.length])).toEqual([
      ['main', 'main', 9, 4],
      ['call-3', 'side-call', 3, 1],
    ]);
    const [m] = t.threads;
    expect(m.messages.map((x) => x.compaction ?? '-')).toEqual(['-', '-', '-', '-', '-', 'summary', '-', '-', '-']);
    expect(m.requests.map((r) => [r.line, r.inputEnd, r.responseEnd, r.exactInput?.length, r.boundary ?? '-'])).toEqual(
      [
        [1, 2, 3, 2, '-'],
        [2, 4, 5, 4, '-'],
        [4, 6, 7, 2, 'agent-compaction'],
        [5, 8, 9, 4, '-'],
      ],
    );
    // The system message is the thread's own; the summary message as sent is the thread's (nothing typed with it).
    expect(m.requests[2].exactInput).toEqual([m.messages[0], m.messages[5]]);
    expect(m.requests[2].exactInput?.[0]).toBe(m.messages[0]);
    expect(m.requests[3].exactInput?.every((x, i) => x === m.messages[[0, 5, 6, 7][i]])).toBe(true);
  });

  it('a history that differs from the recorded response is noted and the request keeps its exact input', () => {
    const t = parse([pair([u('q')], a('answer')), pair([u('q'), a('answer (edited)'), u('more')], a('ok'))].join('\n'));
    const [th] = t.threads;
    expect(t.threads).toHaveLength(1);
    expect(th.requests[1].exactInput?.[1].blocks).toEqual([{ type: 'text', text: 'answer (edited)' }]);
    expect(th.requests[1].exactInput?.[0]).toBe(th.messages[0]);
    expect(t.parseIssues.some((i) => i.line === 2 && i.severity === 'info' && /rewrites/.test(i.message))).toBe(true);
  });

  it('maps developer → system, image_url → image, refusal → text', () => {
    const conv = {
      messages: [
        { role: 'developer', content: 'rules' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'look' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
            { type: 'input_audio', input_audio: { data: 'x' } },
          ],
        },
        { role: 'assistant', content: null, refusal: 'I cannot help with that.' },
      ],
    };
    const [th] = parse(JSON.stringify(conv)).threads;
    expect(th.messages[0].role).toBe('system');
    expect(th.messages[1].blocks.map((b) => b.type)).toEqual(['text', 'image', 'other']);
    expect(th.messages[1].blocks[1]).toEqual({
      type: 'image',
      mediaType: 'image/png',
      source: { url: 'data:image/png;base64,AAAA' },
    });
    expect(th.messages[2].blocks).toEqual([{ type: 'text', text: 'I cannot help with that.' }]);
  });

  it('accepts one pretty-printed request/response document', () => {
    const doc = JSON.parse(pair([u('q')], a('r'), { prompt_tokens: 7, completion_tokens: 1 }));
    const t = parse(JSON.stringify(doc, null, 2), 'call.json');
    expect(t.format).toBe('openai-chat');
    expect(t.parseIssues).toEqual([]);
    expect(t.threads[0].messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(t.threads[0].requests[0]).toMatchObject({ inputEnd: 1, responseEnd: 2, line: 1 });
  });

  it('OpenAI usage: input = prompt − cached, output = completion', () => {
    expect(
      openaiUsage({ prompt_tokens: 5915, completion_tokens: 207, prompt_tokens_details: { cached_tokens: 3840 } }),
    ).toEqual({ input: 2075, cacheRead: 3840, cacheWrite: 0, output: 207 });
    expect(openaiUsage({ completion_tokens: 1 })).toBeUndefined();
  });

  it('sniff accepts pairs and OpenAI conversations but not Claude Code, claude-trace or Codex lines', () => {
    const sniff = (line: unknown) => openaiChatParser.sniff({ fileName: 'x.jsonl', lines: [line], doc: undefined });
    expect(sniff(JSON.parse(pair([u('q')], a('r'))))).toBe(true);
    expect(sniff({ messages: [u('q'), { role: 'tool', tool_call_id: 'c', content: 'x' }] })).toBe(true);
    expect(
      sniff({
        type: 'assistant',
        uuid: 'u1',
        parentUuid: null,
        sessionId: 's',
        message: { role: 'assistant', content: [{ type: 'text', text: 'hi' }] },
      }),
    ).toBe(false);
    expect(
      sniff({
        request: { url: 'https://api.anthropic.com/v1/messages', body: { messages: [u('q')] } },
        response: { status_code: 200, body: {} },
        logged_at: '2025-01-01T00:00:00Z',
      }),
    ).toBe(false);
    expect(sniff({ timestamp: 't', type: 'response_item', payload: { type: 'message', role: 'user' } })).toBe(false);
    expect(sniff({ model: 'claude', max_tokens: 100, messages: [u('q')] })).toBe(false);
  });
});
