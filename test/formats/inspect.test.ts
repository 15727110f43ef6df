import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fileFromText, parseTranscript } from '../../src/formats/index.ts';
import type { Thread, ToolUseBlock, Transcript } from '../../src/model/transcript.ts';
import { describeReal, loadReal, realPath } from '../helpers/fixtures.ts';

const FIXTURE = 'inspect/inspect-browser-gpt4o-mini.json';

function parse(doc: unknown): Transcript {
  const r = parseTranscript(fileFromText('log.json', JSON.stringify(doc, null, 2)));
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

const HASH = '0123456789abcdef0123456789abcdef';
const msgs = [
  { id: 'm0', role: 'system', content: 'You are careful.' },
  { id: 'm1', role: 'user', content: `attachment://${HASH}` },
  {
    id: 'm2',
    role: 'assistant',
    content: [
      { type: 'reasoning', reasoning: 'I should list files', signature: 'sig' },
      { type: 'text', text: 'Listing.' },
    ],
    tool_calls: [{ id: 't1', function: 'bash', arguments: { cmd: 'ls' }, type: 'function' }],
    model: 'claude-x',
  },
  {
    id: 'm3',
    role: 'tool',
    content: 'permission denied',
    tool_call_id: 't1',
    function: 'bash',
    error: { type: 'permission', message: 'denied' },
  },
  { id: 'm4', role: 'assistant', content: 'Cannot list.' },
];
const modelEvent = (input: unknown[], usage: object, model = 'anthropic/claude-x', extra: object = {}) => ({
  event: 'model',
  timestamp: '2025-01-01T00:00:00+00:00',
  completed: '2025-01-01T00:00:02+00:00',
  model,
  input,
  tools: [{ name: 'bash', description: 'run', parameters: { type: 'object', properties: {} } }],
  output: { model: 'claude-x', choices: [{ message: msgs[input.length] }], usage },
  ...extra,
});
const log = (events: unknown[], attachments: object = { [HASH]: 'List the files.' }) => ({
  version: 2,
  status: 'success',
  eval: { task: 'demo', model: 'anthropic/claude-x', eval_id: 'E1' },
  samples: [{ id: 'a', epoch: 2, messages: msgs, events, attachments }],
});

describeReal('inspect: real browser eval log', () => {
  const t = loadReal(FIXTURE);
  const [main] = t.threads;

  it('loads as inspect with no error issues and the eval metadata', () => {
    expect(t.format).toBe('inspect');
    expect(t.parseIssues.filter((i) => i.severity === 'error')).toEqual([]);
    expect(t.meta).toMatchObject({ version: '2', title: 'browser' });
    expect(t.meta.extra).toMatchObject({ task: 'browser', model: 'openai/gpt-4o-mini' });
  });

  it('has one sample thread of 10 messages and 5 requests from the 5 model events', () => {
    expect(t.threads.map((x) => [x.id, x.kind])).toEqual([['sample-1-1', 'main']]);
    expect(main.messages).toHaveLength(10);
    expect(main.messages[2].source).toMatchObject({ line: 0, path: 'samples[0].messages[2]', shape: 'openai-tool' });
    expect(main.requests.map((r) => [r.inputEnd, r.responseEnd])).toEqual([
      [1, 2],
      [3, 4],
      [5, 6],
      [7, 8],
      [9, 10],
    ]);
    expect(main.requests.filter((r) => r.observed)).toHaveLength(5);
    expect(main.requests[1].time).toBe(Date.parse('2025-05-12T20:27:44.081-04:00'));
  });

  it('has 4 tool_use and 4 tool_result blocks, each result after its use', () => {
    const uses = blocksOf(main, 'tool_use') as ToolUseBlock[];
    expect(uses.map((b) => [b.name, b.input])).toEqual([
      ['web_browser_go', { url: 'https://www.aisi.gov.uk/' }],
      ['web_browser_click', { element_id: 151 }],
      ['web_browser_click', { element_id: 884 }],
      ['web_browser_click', { element_id: 903 }],
    ]);
    expect(blocksOf(main, 'tool_result')).toHaveLength(4);
    expect(resultsHaveEarlierUses(main)).toBe(true);
  });

  it('normalizes usage to uncached input, matching the raw OpenAI usage in events[].call', () => {
    // event 2: input_tokens 1568 (= prompt_tokens), input_tokens_cache_read 1024 (= cached_tokens), output 17
    expect(main.requests[1].observed).toEqual({ input: 544, cacheRead: 1024, cacheWrite: 0, output: 17 });
    const total = main.requests.reduce((s, r) => s + (r.observed ? r.observed.input + r.observed.cacheRead : 0), 0);
    expect(total).toBe(15235); // stats.model_usage input_tokens
    expect(main.requests.reduce((s, r) => s + (r.observed?.cacheRead ?? 0), 0)).toBe(9088);
  });

  it('resolves every attachment:// reference', () => {
    const raw = readFileSync(realPath(FIXTURE), 'utf8');
    expect(raw).toContain('attachment://');
    expect(JSON.stringify(t)).not.toContain('attachment://');
    expect(main.prefix.tools).toHaveLength(8);
    expect(main.prefix.tools?.[0].description).toMatch(/^Navigate the web browser to a URL/);
  });
});

describe('inspect: repo-own inputs', () => {
  it('maps reasoning, tool errors and attachments; Anthropic usage is already uncached', () => {
    const usage = { input_tokens: 100, output_tokens: 5, total_tokens: 905, input_tokens_cache_read: 800 };
    const t = parse(log([modelEvent(msgs.slice(0, 2), usage), modelEvent(msgs.slice(0, 4), usage)]));
    expect(t.parseIssues).toEqual([]);
    const [th] = t.threads;
    expect(th.id).toBe('sample-a-2');
    expect(th.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant']);
    expect(th.messages[1].blocks).toEqual([{ type: 'text', text: 'List the files.' }]);
    expect(th.messages[2].blocks).toEqual([
      { type: 'thinking', thinking: 'I should list files', signature: 'sig' },
      { type: 'text', text: 'Listing.' },
      { type: 'tool_use', id: 't1', name: 'bash', input: { cmd: 'ls' } },
    ]);
    expect(th.messages[3].blocks).toEqual([
      { type: 'tool_result', toolUseId: 't1', content: 'permission denied', isError: true },
    ]);
    expect(th.requests.map((r) => [r.inputEnd, r.responseEnd])).toEqual([
      [2, 3],
      [4, 5],
    ]);
    expect(th.requests[0].observed).toEqual({ input: 100, cacheRead: 800, cacheWrite: 0, output: 5 });
    expect(th.requests[0].responseTime).toBe(Date.parse('2025-01-01T00:00:02Z'));
    expect(th.prefix.tools).toEqual([
      { name: 'bash', description: 'run', inputSchema: { type: 'object', properties: {} } },
    ]);
  });

  it('OpenAI usage without a raw call: cached tokens are taken out of input_tokens', () => {
    const usage = { input_tokens: 900, output_tokens: 5, total_tokens: 905, input_tokens_cache_read: 800 };
    const t = parse(log([modelEvent(msgs.slice(0, 2), usage, 'openai/gpt-4o')]));
    expect(t.threads[0].requests[0].observed).toEqual({ input: 100, cacheRead: 800, cacheWrite: 0, output: 5 });
  });

  it('a model event off the sample history becomes a side-call thread', () => {
    const grader = [{ role: 'user', content: 'Grade this answer: Cannot list.' }];
    const t = parse(log([modelEvent(msgs.slice(0, 2), { input_tokens: 1, output_tokens: 1 }), modelEvent(grader, {})]));
    expect(t.threads.map((x) => [x.id, x.kind, x.messages.length, x.requests.length])).toEqual([
      ['sample-a-2', 'main', 5, 1],
      ['sample-a-2-call-1', 'side-call', 2, 1],
    ]);
    expect(t.threads[1].requests[0]).toMatchObject({ inputEnd: 1, responseEnd: 2 });
  });

  it('a missing attachment and a bad message are reported; the rest loads', () => {
    const doc = log([], {});
    doc.samples[0].messages = [...msgs, 'garbage'] as typeof msgs;
    const t = parse(doc);
    expect(t.threads[0].messages).toHaveLength(5);
    expect(t.parseIssues.map((i) => [i.severity, i.message.slice(0, 26)])).toEqual([
      ['error', 'samples[0].messages[5]: me'],
      ['warning', 'samples[0]: 1 attachment r'],
    ]);
  });

  it('a header-only log (no samples) loads with zero threads and an info issue', () => {
    const t = parse({ version: 2, status: 'success', eval: { task: 'demo', model: 'openai/gpt-4o' } });
    expect(t.format).toBe('inspect');
    expect(t.threads).toEqual([]);
    expect(t.parseIssues).toHaveLength(1);
    expect(t.parseIssues[0]).toMatchObject({ severity: 'info', line: 0 });
  });

  it('model-event inputs condensed into the message pool (input_refs) are expanded; bad ranges are reported', () => {
    const usage = { input_tokens: 1, output_tokens: 1 };
    const pooled = (refs: number[][]) => ({ ...modelEvent(msgs.slice(0, 2), usage), input: [], input_refs: refs });
    const doc = log([
      pooled([[0, 2]]),
      pooled([
        [0, 2],
        [2, 4],
      ]),
      pooled([[3, 9]]),
    ]);
    const sample = { ...doc.samples[0], events_data: { messages: msgs, calls: [] } };
    const t = parse({ ...doc, samples: [sample] });
    expect(t.threads[0].requests.map((r) => [r.inputEnd, r.responseEnd])).toEqual([
      [2, 3],
      [4, 5],
      [0, undefined],
    ]);
    expect(t.parseIssues.map((i) => i.message)).toEqual([
      'samples[0]: 1 model-event input_refs range(s) outside the 5-message pool; those inputs are shorter',
    ]);
  });

  it('two samples with one id and epoch load as two threads, the later renamed', () => {
    const doc = log([]);
    const t = parse({ ...doc, samples: [doc.samples[0], { ...doc.samples[0], messages: msgs.slice(0, 2) }] });
    expect(t.threads.map((x) => [x.id, x.messages.length])).toEqual([
      ['sample-a-2', 5],
      ['sample-a-2~2', 2],
    ]);
    expect(t.parseIssues.map((i) => i.message)).toEqual([
      'two samples make thread sample-a-2; the later one is sample-a-2~2',
    ]);
  });
});
