import { describe, expect, it } from 'vitest';
import { fileFromText, parseTranscript } from '../../src/formats/index.ts';
import type { Block, Thread, Transcript } from '../../src/model/transcript.ts';
import { InputBuilder } from '../../src/replay/inputs.ts';
import { describeReal, loadReal } from '../helpers/fixtures.ts';

const FIXTURE = 'claude-trace/lemmy-test-traffic.redacted.jsonl';

function load(text: string): Transcript {
  const r = parseTranscript(fileFromText('log.jsonl', text));
  if (!r.ok) throw new Error(r.error);
  return r.transcript;
}

function blocksOf(t: Thread, type: Block['type']): Block[] {
  return t.messages.flatMap((m) => m.blocks.filter((b) => b.type === type));
}

function main(t: Transcript): Thread {
  const m = t.threads.find((th) => th.kind === 'main');
  if (!m) throw new Error('no main thread');
  return m;
}

describeReal('claude-trace: real fixture (lemmy test traffic, Claude Code 1.0.6)', () => {
  const t = loadReal(FIXTURE);
  const sonnet = 'claude-sonnet-4-20250514';
  const haiku = 'claude-3-5-haiku-20241022';
  const requests = t.threads.flatMap((th) => th.requests);

  it('is detected by content and loads without issues', () => {
    expect(t.format).toBe('claude-trace');
    expect(t.parseIssues).toEqual([]);
    expect(t.meta.version).toBe('1.0.6');
    expect(t.meta.skipped).toBeUndefined();
    const explicit = loadReal(FIXTURE, { format: 'claude-trace' });
    expect(explicit.threads.map((th) => [th.id, th.messages.length])).toEqual(
      t.threads.map((th) => [th.id, th.messages.length]),
    );
  });

  it('groups the 64 pairs into 1 main thread (continued after its compaction) and 47 side-call threads', () => {
    expect(requests).toHaveLength(64);
    expect(t.threads).toHaveLength(48);
    expect(t.threads.filter((th) => th.kind === 'side-call')).toHaveLength(47);
    expect(t.threads.filter((th) => th.kind === 'sidechain')).toHaveLength(0);
    const m = main(t);
    // 14 turns up to the /compact request (line 35), then the summary, the prompt typed with it, 5 more.
    expect(m.messages).toHaveLength(35);
    expect(m.requests.map((r) => r.line)).toEqual([6, 8, 10, 13, 15, 17, 19, 23, 25, 27, 29, 31, 33, 35, 58, 61, 64]);
    expect(m.messages.map((x) => x.role[0]).join('')).toBe(`${'ua'.repeat(14)}uuauaua`);
    const sizes = t.threads.map((th) => th.requests.length).sort((a, b) => b - a);
    expect(sizes.slice(0, 2)).toEqual([17, 1]);
    expect(sizes.filter((n) => n === 1)).toHaveLength(47);
  });

  it('counts models, quota probes and the largest request', () => {
    expect(requests.filter((r) => r.model === haiku)).toHaveLength(47);
    expect(requests.filter((r) => r.model === sonnet)).toHaveLength(17);
    expect(t.threads.filter((th) => th.title?.startsWith('quota probe'))).toHaveLength(18);
    expect(Math.max(...requests.map((r) => r.exactInput?.length ?? 0))).toBe(27);
    expect(requests.find((r) => r.exactInput?.length === 27)?.line).toBe(35);
  });

  it('has observed usage on every request and 12 tool calls, all answered', () => {
    expect(requests.filter((r) => r.observed)).toHaveLength(64);
    expect(requests.filter((r) => r.responseEnd === r.inputEnd + 1)).toHaveLength(64);
    expect(blocksOf(main(t), 'tool_use')).toHaveLength(12);
    expect(blocksOf(main(t), 'tool_result')).toHaveLength(12);
    expect(t.threads.flatMap((th) => blocksOf(th, 'tool_use'))).toHaveLength(12);
    expect(t.threads.flatMap((th) => blocksOf(th, 'tool_result'))).toHaveLength(12);
    const names = blocksOf(main(t), 'tool_use').map((b) => (b.type === 'tool_use' ? b.name : ''));
    expect(names).toEqual([
      'TodoWrite',
      'LS',
      'Bash',
      'TodoWrite',
      'Write',
      'TodoWrite',
      'TodoWrite',
      'Edit',
      'Edit',
      'Edit',
      'TodoWrite',
      'Bash',
    ]);
  });

  it('rebuilds line 8 from its SSE text: usage, request id, times and the LS tool input', () => {
    // Checked by hand in body_raw: message_start usage {input 6, cache_creation 304, cache_read 15032,
    // output 23}, message_delta output_tokens 70; partial_json pieces join to {"path": "…/claude-tools"}.
    const r = requests.find((x) => x.line === 8);
    expect(r?.observed).toEqual({ input: 6, cacheRead: 15032, cacheWrite: 304, output: 70 });
    expect(r?.requestId).toBe('req_011CPcYYfhdS9kwPuMDLFMHa');
    expect(r?.time).toBe(1748554711785);
    expect(r?.responseTime).toBe(1748554714098);
    const reply = main(t).messages[r?.inputEnd ?? -1];
    expect(reply.role).toBe('assistant');
    expect(reply.source).toMatchObject({ line: 8, uuid: 'msg_01BXQxfDm5WXiwQ2gnpfeBSH' });
    expect(reply.blocks).toEqual([
      {
        type: 'tool_use',
        id: 'toolu_01GakzMZ23Fini3g57am8MPd',
        name: 'LS',
        input: { path: '/Users/badlogic/workspaces/lemmy/apps/claude-tools' },
      },
    ]);
    // Line 1 is a non-streamed quota probe: usage from the JSON body.
    expect(requests.find((x) => x.line === 1)?.observed).toEqual({ input: 8, cacheRead: 0, cacheWrite: 0, output: 1 });
  });

  it('shares message and prefix objects between requests', () => {
    const m = main(t);
    for (const r of m.requests.slice(0, 13)) {
      r.exactInput?.forEach((x, i) => {
        expect(x).toBe(m.messages[i]);
      });
      expect(r.exactPrefix).toBe(m.prefix);
    }
    expect(m.prefix.system).toHaveLength(2);
    expect(m.prefix.tools).toHaveLength(17);
  });

  it('attaches the /compact request (line 35) to main as a rewritten history', () => {
    const m = main(t);
    const r = m.requests[13];
    expect(r).toMatchObject({ line: 35, inputEnd: 27, responseEnd: 28 });
    // Claude Code dropped the claudeMd reminder from the first message; the rest is the same history.
    expect(r.exactInput?.[0]).not.toBe(m.messages[0]);
    expect(r.exactInput?.[0].blocks).toHaveLength(m.messages[0].blocks.length - 1);
    expect(r.exactInput?.slice(1, 26).every((x, i) => x === m.messages[i + 1])).toBe(true);
    expect(r.exactPrefix?.tools?.map((x) => x.name)).toEqual(['Read']);
  });

  it('joins the conversation continued after the compaction (lines 58, 61, 64) to main', () => {
    const m = main(t);
    expect(t.threads.some((th) => th.title?.includes('continued after compaction'))).toBe(false);
    const [r58, r61, r64] = m.requests.slice(14);
    expect([r58, r61, r64].map((r) => [r.line, r.inputEnd, r.responseEnd, r.exactInput?.length])).toEqual([
      [58, 30, 31, 1],
      [61, 32, 33, 3],
      [64, 34, 35, 5],
    ]);
    expect(requests.filter((r) => r.boundary)).toEqual([r58]);
    expect(r58.boundary).toBe('agent-compaction');
    // The first message as sent: reminder, summary, 2 restored file reads, /compact echo, the new prompt.
    const sent = r58.exactInput?.[0];
    expect(sent).toMatchObject({ index: 28, role: 'user', compaction: 'summary', source: { line: 58 } });
    expect(sent?.blocks).toHaveLength(10);
    expect(r61.exactInput?.[0]).toBe(sent);
    expect(r64.exactInput?.[0]).toBe(sent);
    // In the thread it is split: the summary part (raw replay skips it) and what the user typed with it.
    const [summary, typed] = m.messages.slice(28, 30);
    expect(summary.compaction).toBe('summary');
    expect(summary.blocks).toEqual(sent?.blocks.slice(0, 6));
    expect(typed.compaction).toBeUndefined();
    expect(typed.blocks).toEqual(sent?.blocks.slice(6));
    expect(typed.blocks.at(-1)).toEqual({
      type: 'text',
      text: 'alright, i changed my mind, please delete the weather folder',
    });
    expect(m.messages.filter((x) => x.compaction)).toEqual([summary]);
    // The later messages are the thread's own objects, re-indexed to their place in it.
    for (const r of [r61, r64]) {
      const n = r.exactInput?.length ?? 0;
      r.exactInput?.slice(1).forEach((x, i) => {
        expect(x).toBe(m.messages[r.inputEnd - n + 1 + i]);
      });
      expect(r.exactPrefix).toBe(m.prefix);
    }
  });

  it('gives replay the exact input in recorded mode and the whole history in raw mode', () => {
    const m = main(t);
    const r58 = m.requests[14];
    const recorded = new InputBuilder(m, 'recorded').view(r58);
    expect(recorded).toMatchObject({ array: r58.exactInput, start: 0, end: 1, exact: true });
    const raw = new InputBuilder(m, 'raw');
    const v = raw.view(r58);
    const input = v.array.slice(v.start, v.end);
    expect(input).toHaveLength(29);
    expect(input.some((x) => x.compaction)).toBe(false);
    expect(input.slice(0, 28)).toEqual(m.messages.slice(0, 28));
    expect(input[28]).toBe(m.messages[29]);
    const last = raw.view(m.requests[16]);
    expect(last.end - last.start).toBe(33);
  });

  it('keeps indices consistent and carries no credentials', () => {
    for (const th of t.threads) {
      th.messages.forEach((m, i) => {
        expect(m.index).toBe(i);
      });
      for (const r of th.requests) {
        expect(r.inputEnd).toBeLessThanOrEqual(r.responseEnd ?? r.inputEnd);
        expect(r.responseEnd ?? 0).toBeLessThanOrEqual(th.messages.length);
      }
    }
    const json = JSON.stringify(t);
    expect(json).not.toContain('Bearer');
    expect(json.toLowerCase()).not.toContain('authorization');
  });
});

// ---- repo-own tests with small inline logs ----

type PairOpts = {
  messages: unknown[];
  model?: string;
  url?: string;
  system?: unknown;
  tools?: unknown[];
  maxTokens?: number;
  t?: number;
  response?: Record<string, unknown> | null;
};

let clock = 1_700_000_000;

function pair(o: PairOpts): string {
  const t = o.t ?? clock++;
  const body: Record<string, unknown> = {
    model: o.model ?? 'm-main',
    max_tokens: o.maxTokens ?? 1000,
    messages: o.messages,
  };
  if (o.system !== undefined) body.system = o.system;
  if (o.tools) body.tools = o.tools;
  const response =
    o.response === null
      ? null
      : { timestamp: t + 0.5, status_code: 200, headers: { 'request-id': `req_${t}` }, ...(o.response ?? {}) };
  return JSON.stringify({
    request: {
      timestamp: t + 0.25,
      method: 'POST',
      url: o.url ?? 'https://api.anthropic.com/v1/messages?beta=true',
      headers: { authorization: 'Bearer sk-ant-secret-1234', 'user-agent': 'claude-cli/9.9.9 (external, cli)' },
      body,
    },
    response,
    logged_at: new Date(t * 1000).toISOString(),
  });
}

/** A JSON (non-streamed) Messages response body. */
function reply(text: string, usage = { input_tokens: 10, output_tokens: 2 }): Record<string, unknown> {
  return { body: { id: `msg_${text}`, type: 'message', role: 'assistant', content: [{ type: 'text', text }], usage } };
}

function sse(events: [string, unknown][]): string {
  return events.map(([e, d]) => `event: ${e}\ndata: ${JSON.stringify(d)}\n\n`).join('');
}

const U = (text: string) => ({ role: 'user', content: text });
const A = (text: string) => ({ role: 'assistant', content: [{ type: 'text', text }] });
const TOOLS = [{ name: 'Read', description: 'read a file', input_schema: { type: 'object' } }];

describe('claude-trace: SSE responses', () => {
  const stream = sse([
    [
      'message_start',
      {
        type: 'message_start',
        message: {
          id: 'msg_1',
          model: 'm-main',
          content: [],
          usage: { input_tokens: 5, cache_creation_input_tokens: 100, cache_read_input_tokens: 2000, output_tokens: 1 },
        },
      },
    ],
    [
      'content_block_start',
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } },
    ],
    [
      'content_block_delta',
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'let me ' } },
    ],
    [
      'content_block_delta',
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'look' } },
    ],
    [
      'content_block_delta',
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'SIG' } },
    ],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    ['ping', { type: 'ping' }],
    ['content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }],
    ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Reading ' } }],
    ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'it.' } }],
    ['content_block_stop', { type: 'content_block_stop', index: 1 }],
    [
      'content_block_start',
      {
        type: 'content_block_start',
        index: 2,
        content_block: { type: 'tool_use', id: 'toolu_1', name: 'Read', input: {} },
      },
    ],
    [
      'content_block_delta',
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '' } },
    ],
    [
      'content_block_delta',
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"file_pa' } },
    ],
    [
      'content_block_delta',
      {
        type: 'content_block_delta',
        index: 2,
        delta: { type: 'input_json_delta', partial_json: 'th": "a.ts", "limit": 3}' },
      },
    ],
    ['content_block_stop', { type: 'content_block_stop', index: 2 }],
    ['message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 42 } }],
    ['message_stop', { type: 'message_stop' }],
  ]);

  it('rebuilds thinking, text and tool_use blocks and merges usage', () => {
    const t = load(
      `${pair({ messages: [U('read a.ts')], tools: TOOLS, response: { body: null, body_raw: stream } })}\n`,
    );
    expect(t.format).toBe('claude-trace');
    expect(t.parseIssues).toEqual([]);
    const m = main(t);
    expect(m.messages[1].blocks).toEqual([
      { type: 'thinking', thinking: 'let me look', signature: 'SIG' },
      { type: 'text', text: 'Reading it.' },
      { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'a.ts', limit: 3 } },
    ]);
    expect(m.messages[1].source.uuid).toBe('msg_1');
    expect(m.requests[0].observed).toEqual({ input: 5, cacheRead: 2000, cacheWrite: 100, output: 42 });
  });

  it('reads the parsed `events` form and CRLF streams the same way', () => {
    const events = stream
      .trim()
      .split('\n\n')
      .map((chunk) => {
        const [e, d] = chunk.split('\n');
        return { event: e.slice(7), data: JSON.parse(d.slice(6)), timestamp: '2025-01-01T00:00:00Z' };
      });
    const a = load(`${pair({ messages: [U('x')], response: { events } })}\n`);
    const b = load(`${pair({ messages: [U('x')], response: { body_raw: stream.replaceAll('\n', '\r\n') } })}\n`);
    for (const t of [a, b]) {
      expect(t.parseIssues).toEqual([]);
      expect(main(t).messages[1].blocks).toHaveLength(3);
      expect(main(t).requests[0].observed?.output).toBe(42);
    }
  });

  it('turns error responses into warnings and keeps no response message', () => {
    const errorStream = sse([
      [
        'message_start',
        { type: 'message_start', message: { id: 'msg_e', content: [], usage: { input_tokens: 3, output_tokens: 1 } } },
      ],
      ['error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }],
    ]);
    const text = [
      pair({
        messages: [U('a')],
        response: {
          status_code: 529,
          body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
        },
      }),
      pair({ messages: [U('a')], response: { body_raw: errorStream } }),
      pair({ messages: [U('a')], response: null }),
      pair({ messages: [U('a')], response: reply('ok') }),
    ].join('\n');
    const t = load(text);
    expect(t.parseIssues.map((i) => [i.line, i.severity])).toEqual([
      [1, 'warning'],
      [2, 'warning'],
      [3, 'warning'],
    ]);
    expect(t.parseIssues[0].message).toContain('HTTP 529: overloaded_error: Overloaded');
    expect(t.parseIssues[1].message).toContain('stream error event');
    expect(t.parseIssues[2].message).toContain('no response');
    // A failed request keeps the thread at its input, so the retry lands in the same thread.
    expect(t.threads).toHaveLength(1);
    const m = main(t);
    expect(m.requests.map((r) => [r.inputEnd, r.responseEnd, r.observed?.input])).toEqual([
      [1, undefined, undefined],
      [1, undefined, undefined],
      [1, undefined, undefined],
      [1, 2, 10],
    ]);
    expect(m.messages.map((x) => x.role)).toEqual(['user', 'assistant']);
  });
});

describe('claude-trace: threads', () => {
  it('groups by message prefix; side calls get their own threads', () => {
    const text = [
      pair({
        messages: [{ role: 'user', content: [{ type: 'text', text: 'hello', cache_control: { type: 'ephemeral' } }] }],
        tools: TOOLS,
        response: reply('hi'),
      }),
      pair({ model: 'm-small', maxTokens: 1, messages: [U('quota')], response: reply('A') }),
      pair({
        model: 'm-small',
        system: 'Write a title for this conversation.',
        messages: [U('hello')],
        response: reply('Greeting'),
      }),
      pair({ messages: [U('hello'), A('hi'), U('and now?')], tools: TOOLS, response: reply('done') }),
      pair({
        messages: [U('hello'), A('hi'), U('and now?'), A('done'), U('thanks')],
        tools: TOOLS,
        response: reply('bye'),
      }),
    ].join('\n');
    const t = load(`${text}\n`);
    expect(t.parseIssues).toEqual([]);
    expect(t.threads.map((th) => [th.id, th.kind, th.messages.length, th.requests.length])).toEqual([
      ['main', 'main', 6, 3],
      ['side-1', 'side-call', 2, 1],
      ['side-2', 'side-call', 2, 1],
    ]);
    expect(t.threads[1].title).toBe('quota probe · m-small');
    expect(t.threads[2].title).toBe('m-small · Write a title for this conversation. — hello');
    const m = main(t);
    expect(m.requests.map((r) => [r.inputEnd, r.responseEnd, r.line])).toEqual([
      [1, 2, 1],
      [3, 4, 4],
      [5, 6, 5],
    ]);
    // cache_control moves between requests but does not change the content key.
    expect(m.requests[2].exactInput?.every((x, i) => x === m.messages[i])).toBe(true);
    expect(m.requests[0].time).toBe(m.messages[0].time);
    expect(t.meta.version).toBe('9.9.9');
    expect(JSON.stringify(t)).not.toContain('Bearer');
  });

  it('attaches a request that rewrote the history in place to its thread', () => {
    const big = 'x'.repeat(50);
    const tr = (content: string) => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu1', content }] });
    const tu = {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'tu1', name: 'Read', input: { file_path: 'a' } }],
    };
    const text = [
      pair({
        messages: [U('start')],
        tools: TOOLS,
        response: { body: { content: tu.content, usage: { input_tokens: 1 } } },
      }),
      pair({ messages: [U('start'), tu, tr(big)], tools: TOOLS, response: reply('read it') }),
      pair({
        messages: [U('start'), tu, tr('[cleared]'), A('read it'), U('next')],
        tools: TOOLS,
        response: reply('ok'),
      }),
    ].join('\n');
    const t = load(text);
    expect(t.threads).toHaveLength(1);
    const m = main(t);
    expect(m.messages).toHaveLength(6);
    const r = m.requests[2];
    expect([r.inputEnd, r.responseEnd]).toEqual([5, 6]);
    expect(r.exactInput?.[2]).not.toBe(m.messages[2]);
    expect(r.exactInput?.[2].blocks).toEqual([
      { type: 'tool_result', toolUseId: 'tu1', content: '[cleared]', isError: false },
    ]);
    expect(m.messages[2].blocks[0]).toMatchObject({ content: big });
    expect(r.exactInput?.[3]).toBe(m.messages[3]);
    expect(r.exactInput?.[4]).toBe(m.messages[4]);
  });

  it('starts a new thread when the history was replaced rather than edited', () => {
    const text = [
      pair({ messages: [U('one')], tools: TOOLS, response: reply('1') }),
      pair({ messages: [U('one'), A('1'), U('two')], tools: TOOLS, response: reply('2') }),
      pair({ messages: [U('summary of one and two'), A('ok'), U('three')], tools: TOOLS, response: reply('3') }),
    ].join('\n');
    const t = load(text);
    expect(t.threads.map((th) => [th.kind, th.messages.length])).toEqual([
      ['main', 4],
      ['side-call', 4],
    ]);
  });

  it('counts non-Messages calls in meta.skipped', () => {
    const text = [
      pair({ messages: [U('hi')], response: reply('yo') }),
      pair({
        url: 'https://api.anthropic.com/v1/messages/count_tokens?beta=true',
        messages: [U('hi')],
        response: reply('n'),
      }),
      pair({ url: 'https://console.anthropic.com/v1/oauth/token', messages: [], response: reply('n') }),
    ].join('\n');
    const t = load(text);
    expect(t.meta.skipped).toEqual({ 'count_tokens request': 1, 'non-Messages request': 1 });
    expect(t.threads.flatMap((th) => th.requests)).toHaveLength(1);
  });
});

describe("claude-trace: the agent's own compaction", () => {
  const SUMMARY =
    'This session is being continued from a previous conversation that ran out of context. The conversation is ' +
    'summarized below:\nThe user asked for one and two.';
  const COMPACT = 'Your task is to create a detailed summary of the conversation so far, paying close attention to …';
  /** Claude Code's first message after compacting: summary, restored file read, then what the user typed. */
  const cont = (typed?: string, summary = SUMMARY) => ({
    role: 'user',
    content: [
      { type: 'text', text: summary },
      { type: 'text', text: 'Called the Read tool with the following input: {"file_path":"a.ts"}' },
      { type: 'text', text: 'Result of calling the Read tool: "x"' },
      ...(typed ? [{ type: 'text', text: typed }] : []),
    ],
  });
  const history = [U('one'), A('1'), U('two')];

  it('joins the continuation to the thread that compacted and splits the summary from the new prompt', () => {
    const text = [
      pair({ messages: [U('one')], tools: TOOLS, response: reply('1') }),
      pair({ messages: history, tools: TOOLS, response: reply('2') }),
      pair({ messages: [...history, A('2'), U(COMPACT)], response: reply('one and two') }),
      // Side calls after the compaction, one on the main model: the continuation still joins the compacted one.
      pair({ model: 'm-small', system: 'Write a title.', messages: [U('three')], response: reply('Three') }),
      pair({ system: 'Is this a new topic?', messages: [U('three')], response: reply('no') }),
      pair({ messages: [cont('three')], tools: TOOLS, response: reply('3') }),
      pair({ messages: [cont('three'), A('3'), U('four')], tools: TOOLS, response: reply('4') }),
    ].join('\n');
    const t = load(text);
    expect(t.parseIssues).toEqual([]);
    expect(t.threads.map((th) => [th.id, th.kind, th.messages.length, th.requests.length])).toEqual([
      ['main', 'main', 11, 5],
      ['side-1', 'side-call', 2, 1],
      ['side-2', 'side-call', 2, 1],
    ]);
    const m = main(t);
    expect(m.requests.map((r) => [r.line, r.inputEnd, r.responseEnd, r.exactInput?.length, r.boundary])).toEqual([
      [1, 1, 2, 1, undefined],
      [2, 3, 4, 3, undefined],
      [3, 5, 6, 5, undefined],
      [6, 8, 9, 1, 'agent-compaction'],
      [7, 10, 11, 3, undefined],
    ]);
    expect(m.messages.map((x) => [x.role[0], x.compaction ?? '-', x.blocks.length])).toEqual([
      ['u', '-', 1],
      ['a', '-', 1],
      ['u', '-', 1],
      ['a', '-', 1],
      ['u', '-', 1],
      ['a', '-', 1],
      ['u', 'summary', 3],
      ['u', '-', 1],
      ['a', '-', 1],
      ['u', '-', 1],
      ['a', '-', 1],
    ]);
    expect(m.messages[7].blocks).toEqual([{ type: 'text', text: 'three' }]);
    m.messages.forEach((x, i) => {
      expect(x.index).toBe(i);
    });
    const [r6, r7] = m.requests.slice(3);
    expect(r6.exactInput?.[0]).toMatchObject({ index: 6, compaction: 'summary' });
    expect(r6.exactInput?.[0].blocks).toHaveLength(4);
    expect(r7.exactInput?.[0]).toBe(r6.exactInput?.[0]);
    expect(r7.exactInput?.slice(1)).toEqual([m.messages[8], m.messages[9]]);
    expect(r7.exactInput?.[1]).toBe(m.messages[8]);
  });

  it('chains a second compaction into the same thread', () => {
    const again = `${SUMMARY} And three.`;
    const text = [
      pair({ messages: [U('one')], tools: TOOLS, response: reply('1') }),
      pair({ messages: [U('one'), A('1'), U(COMPACT)], response: reply('s1') }),
      pair({ messages: [cont('two')], tools: TOOLS, response: reply('2') }),
      pair({ messages: [cont('two'), A('2'), U(COMPACT)], response: reply('s2') }),
      pair({ messages: [cont(undefined, again)], tools: TOOLS, response: reply('3') }),
    ].join('\n');
    const t = load(text);
    expect(t.threads).toHaveLength(1);
    const m = main(t);
    expect(m.messages.map((x) => x.compaction ?? '-')).toEqual([
      ...['-', '-', '-', '-'],
      ...['summary', '-', '-', '-', '-'],
      ...['summary', '-'],
    ]);
    expect(m.requests.map((r) => [r.inputEnd, r.responseEnd, r.boundary ?? '-'])).toEqual([
      [1, 2, '-'],
      [3, 4, '-'],
      [6, 7, 'agent-compaction'],
      [8, 9, '-'],
      [10, 11, 'agent-compaction'],
    ]);
    // Nothing typed with the second summary: the whole message is the summary, shared with the exact input.
    expect(m.requests[4].exactInput).toEqual([m.messages[9]]);
    expect(m.requests[4].exactInput?.[0]).toBe(m.messages[9]);
  });

  it('keeps a continuation with nothing to join (no earlier thread on its model) as its own thread', () => {
    const text = [
      pair({ messages: [U('one')], tools: TOOLS, response: reply('1') }),
      pair({ model: 'm-other', messages: [cont('go on')], tools: TOOLS, response: reply('went on') }),
      pair({ messages: [U('one'), A('1'), U('two')], tools: TOOLS, response: reply('2') }),
    ].join('\n');
    const t = load(text);
    expect(t.threads.map((th) => [th.id, th.kind, th.messages.length])).toEqual([
      ['main', 'main', 4],
      ['side-1', 'side-call', 3],
    ]);
    const side = t.threads[1];
    expect(side.title).toBe('m-other · continued after compaction');
    expect(side.messages.map((x) => x.compaction ?? '-')).toEqual(['summary', '-', '-']);
    expect(side.requests[0]).toMatchObject({ inputEnd: 2, responseEnd: 3, boundary: 'agent-compaction' });
    expect(side.requests[0].exactInput?.[0].blocks).toHaveLength(4);
  });
});

describe('claude-trace: bad lines', () => {
  it('reports a bad line and a truncated last line with their numbers and loads the rest', () => {
    const good1 = pair({ messages: [U('a')], response: reply('b') });
    const good2 = pair({ messages: [U('a'), A('b'), U('c')], response: reply('d') });
    const text = [
      good1,
      '{"request": oops',
      good2,
      '{"request":{"bogus":1},"response":null,"logged_at":"x"}',
      good2.slice(0, 80),
    ].join('\n');
    const r = parseTranscript(fileFromText('log.jsonl', text), [], { format: 'claude-trace' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const issues = r.transcript.parseIssues.map((i) => [i.line, i.severity]);
    expect(issues).toEqual([
      [2, 'error'],
      [4, 'error'],
      [5, 'error'],
    ]);
    expect(r.transcript.parseIssues[2].message).toContain('truncated last line');
    const m = main(r.transcript);
    expect(m.requests.map((x) => x.line)).toEqual([1, 3]);
    expect(m.messages).toHaveLength(4);
  });

  it('flags a cut-off stream and an unparseable tool input but keeps what arrived', () => {
    const cut = sse([
      [
        'message_start',
        { type: 'message_start', message: { id: 'm', content: [], usage: { input_tokens: 3, output_tokens: 1 } } },
      ],
      [
        'content_block_start',
        {
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'tool_use', id: 't', name: 'Bash', input: {} },
        },
      ],
      [
        'content_block_delta',
        { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"comm' } },
      ],
    ]);
    const t = load(pair({ messages: [U('go')], response: { body_raw: cut } }));
    expect(t.parseIssues.map((i) => [i.line, i.severity])).toEqual([
      [1, 'warning'],
      [1, 'warning'],
    ]);
    expect(main(t).messages[1].blocks).toEqual([
      { type: 'tool_use', id: 't', name: 'Bash', input: { partial_json: '{"comm' } },
    ]);
  });
});

describe('claude-trace: sub-agents', () => {
  it('makes a thread opened by a Task prompt a sidechain, even when it is larger than main', () => {
    const task = {
      role: 'assistant',
      content: [
        {
          type: 'tool_use',
          id: 'tu_task',
          name: 'Task',
          input: { description: 'find files', prompt: 'Find all TS files' },
        },
      ],
    };
    const agentMsgs = [U('Find all TS files'), A('looking'), U('go on'), A('still looking'), U('more')];
    const text = [
      pair({
        messages: [U('find the TS files')],
        tools: TOOLS,
        response: { body: { content: task.content, usage: { input_tokens: 1 } } },
      }),
      pair({ messages: agentMsgs.slice(0, 1), tools: TOOLS, response: reply('looking') }),
      pair({ messages: agentMsgs.slice(0, 3), tools: TOOLS, response: reply('still looking') }),
      pair({ messages: agentMsgs, tools: TOOLS, response: reply('found 3') }),
    ].join('\n');
    const t = load(text);
    expect(t.threads.map((th) => [th.id, th.kind, th.messages.length])).toEqual([
      ['main', 'main', 2],
      ['agent-1', 'sidechain', 6],
    ]);
    expect(t.threads[1].parentToolUseId).toBe('tu_task');
    expect(t.threads[1].title).toBe('sub-agent · find files');
  });
});
