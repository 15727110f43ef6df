import { describe, expect, it } from 'vitest';
import { fileFromText, parseTranscript } from '../../src/formats/index.ts';
import type { Transcript } from '../../src/model/transcript.ts';

function load(text: string, name = 'request.json'): Transcript {
  const r = parseTranscript(fileFromText(name, text));
  if (!r.ok) throw new Error(r.error);
  return r.transcript;
}

const TOOLS = [{ name: 'Bash', description: 'run a command', input_schema: { type: 'object', properties: {} } }];

function request(messages: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model: 'claude-sonnet-4-20250514', max_tokens: 4096, messages, ...extra };
}

const history = [
  { role: 'user', content: 'list the files' },
  { role: 'assistant', content: [{ type: 'tool_use', id: 'tu_1', name: 'Bash', input: { command: 'ls' } }] },
  {
    role: 'user',
    content: [
      { type: 'tool_result', tool_use_id: 'tu_1', content: 'a.ts\nb.ts', cache_control: { type: 'ephemeral' } },
    ],
  },
];

describe('anthropic-request: one JSON document', () => {
  it('reads a pretty-printed request with system, tools and its exact input', () => {
    const doc = request(history, {
      system: [{ type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral' } }],
      tools: TOOLS,
      stream: true,
    });
    const t = load(JSON.stringify(doc, null, 2));
    expect(t.format).toBe('anthropic-request');
    expect(t.parseIssues).toEqual([]);
    expect(t.threads).toHaveLength(1);
    const [th] = t.threads;
    expect(th.kind).toBe('main');
    expect(th.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(th.messages[1].blocks).toEqual([{ type: 'tool_use', id: 'tu_1', name: 'Bash', input: { command: 'ls' } }]);
    expect(th.messages[2].blocks).toEqual([
      { type: 'tool_result', toolUseId: 'tu_1', content: 'a.ts\nb.ts', isError: false },
    ]);
    expect(th.messages[2].source).toMatchObject({ line: 0, path: 'messages[2]' });
    expect(th.prefix.system).toEqual([{ type: 'text', text: 'You are terse.' }]);
    expect(th.prefix.tools?.map((x) => x.name)).toEqual(['Bash']);
    expect(th.requests).toHaveLength(1);
    const [r] = th.requests;
    expect(r).toMatchObject({ index: 0, thread: 'main', inputEnd: 3, model: 'claude-sonnet-4-20250514' });
    expect(r.observed).toBeUndefined();
    expect(r.responseEnd).toBeUndefined();
    expect(r.exactInput?.every((m, i) => m === th.messages[i])).toBe(true);
    expect(r.exactPrefix).toBe(th.prefix);
  });

  it('reads a JSON array of requests and groups them by prefix', () => {
    const docs = [request(history.slice(0, 1)), request(history)];
    const t = load(JSON.stringify(docs, null, 2));
    expect(t.format).toBe('anthropic-request');
    expect(t.threads).toHaveLength(1);
    expect(t.threads[0].requests.map((r) => r.inputEnd)).toEqual([1, 3]);
    expect(t.threads[0].messages[0].source.path).toBe('[0].messages[0]');
  });

  it('reports one clear error for a truncated document', () => {
    const text = JSON.stringify(request(history), null, 2).slice(0, 120);
    const r = parseTranscript(fileFromText('request.json', text), [], { format: 'anthropic-request' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.transcript.parseIssues).toHaveLength(1);
    expect(r.transcript.parseIssues[0]).toMatchObject({ line: 1, severity: 'error' });
    expect(r.transcript.threads).toEqual([]);
  });
});

describe('anthropic-request: JSON lines', () => {
  const lines = [
    request(history.slice(0, 1), { tools: TOOLS }),
    request(history, { tools: TOOLS }),
    request([{ role: 'user', content: 'Write a 5-word title: list the files' }], {
      model: 'claude-3-5-haiku-20241022',
      max_tokens: 50,
    }),
    request([...history, { role: 'assistant', content: 'Two files.' }, { role: 'user', content: 'thanks' }], {
      tools: TOOLS,
    }),
  ].map((x) => JSON.stringify(x));

  it('puts the growing conversation in main and the unrelated request in a side call', () => {
    const t = load(`${lines.join('\n')}\n`, 'requests.jsonl');
    expect(t.format).toBe('anthropic-request');
    expect(t.parseIssues).toEqual([]);
    expect(t.threads.map((th) => [th.id, th.kind, th.messages.length])).toEqual([
      ['main', 'main', 5],
      ['side-1', 'side-call', 1],
    ]);
    const main = t.threads[0];
    expect(main.requests.map((r) => [r.inputEnd, r.line])).toEqual([
      [1, 1],
      [3, 2],
      [5, 4],
    ]);
    expect(main.requests[2].exactInput?.every((m, i) => m === main.messages[i])).toBe(true);
    expect(main.prefix.tools).toHaveLength(1);
    expect(t.threads[1].title).toBe('claude-3-5-haiku-20241022 · Write a 5-word title: list the files');
    expect(t.threads[1].requests[0]).toMatchObject({ line: 3, inputEnd: 1, model: 'claude-3-5-haiku-20241022' });
  });

  it("joins the conversation that continues after the agent's own compaction to main", () => {
    const compact = { role: 'user', content: 'Your task is to create a detailed summary of the conversation so far.' };
    const cont = {
      role: 'user',
      content: [
        { type: 'text', text: 'This session is being continued from a previous conversation. Summary: two files.' },
        { type: 'text', text: 'now delete b.ts' },
      ],
    };
    const text = [
      request(history.slice(0, 1), { tools: TOOLS }),
      request(history, { tools: TOOLS }),
      request([...history, { role: 'assistant', content: 'Two files.' }, compact]),
      request([cont], { tools: TOOLS }),
      request([cont, { role: 'assistant', content: 'Deleting.' }, { role: 'user', content: 'thanks' }], {
        tools: TOOLS,
      }),
    ]
      .map((x) => JSON.stringify(x))
      .join('\n');
    const t = load(text, 'requests.jsonl');
    expect(t.threads).toHaveLength(1);
    const [m] = t.threads;
    expect(m.kind).toBe('main');
    expect(m.messages.map((x) => `${x.role[0]}${x.compaction ? '*' : ''}`).join('')).toBe('uauauu*uau');
    expect(m.requests.map((r) => [r.line, r.inputEnd, r.exactInput?.length, r.boundary ?? '-'])).toEqual([
      [1, 1, 1, '-'],
      [2, 3, 3, '-'],
      [3, 5, 5, '-'],
      [4, 7, 1, 'agent-compaction'],
      [5, 9, 3, '-'],
    ]);
    expect(m.messages[6].blocks).toEqual([{ type: 'text', text: 'now delete b.ts' }]);
    expect(m.requests[3].exactInput?.[0].blocks).toHaveLength(2);
  });

  it('turns bad and truncated lines into issues with line numbers and loads the rest', () => {
    const text = [lines[0], 'not json at all', lines[1], '{"model":"x","max_tokens":1}', lines[3].slice(0, 40)].join(
      '\n',
    );
    const r = parseTranscript(fileFromText('requests.jsonl', text), [], { format: 'anthropic-request' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const t = r.transcript;
    expect(t.parseIssues.map((i) => [i.line, i.severity])).toEqual([
      [2, 'error'],
      [4, 'error'],
      [5, 'error'],
    ]);
    expect(t.parseIssues[2].message).toContain('truncated last line');
    expect(t.threads[0].requests.map((x) => x.line)).toEqual([1, 3]);
  });

  it('drops a message without a role with a warning', () => {
    const text = JSON.stringify(request([{ role: 'user', content: 'hi' }, { content: 'who am I?' }]));
    const t = load(`${text}\n`, 'one.jsonl');
    expect(t.parseIssues).toEqual([
      { line: 1, severity: 'warning', message: 'messages[1] has no user/assistant role; left out' },
    ]);
    expect(t.threads[0].messages).toHaveLength(1);
  });

  it('is not chosen for claude-trace pairs or arbitrary JSON', () => {
    const pair = JSON.stringify({
      request: { url: 'https://api.anthropic.com/v1/messages', body: request(history) },
      response: null,
      logged_at: '2025-01-01T00:00:00Z',
    });
    expect(load(pair, 'log.jsonl').format).toBe('claude-trace');
    const r = parseTranscript(fileFromText('x.json', JSON.stringify({ model: 'm', messages: 'nope' })));
    expect(r.ok).toBe(false);
  });
});
