// Codex rollout parser: the two real fixtures (counts checked by hand against the files) and small
// inline rollouts for each rule: pairing by call_id, parallel batches, usage attachment, compaction,
// output shapes, event echoes, legacy files and bad lines.
import { describe, expect, it } from 'vitest';
import { fileFromText, parseTranscript } from '../../src/formats/index.ts';
import { exportBundle } from '../../src/formats/tierscope.ts';
import type { Block, Message, Transcript } from '../../src/model/transcript.ts';
import { describeReal, loadReal } from '../helpers/fixtures.ts';

const REAL_077 = 'codex/simonw-codex-0.77-homelab.jsonl';
const SYNTH = 'codex/synthetic-agentsessions-codex-itemtypes.jsonl';

let clock = 0;
/** One rollout line; timestamps advance one second per line. */
function L(type: string, payload: unknown): string {
  clock++;
  return JSON.stringify({ timestamp: new Date(Date.UTC(2025, 0, 1, 0, 0, clock)).toISOString(), type, payload });
}
const ri = (payload: object) => L('response_item', payload);
const ev = (payload: object) => L('event_msg', payload);
const user = (text: string) => ri({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
const say = (text: string) => ri({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
const call = (id: string, args: string, name = 'shell') =>
  ri({ type: 'function_call', name, arguments: args, call_id: id });
const out = (id: string, output: unknown) => ri({ type: 'function_call_output', call_id: id, output });
const usage = (input: number, cached: number, output: number, total = input + output) =>
  ev({
    type: 'token_count',
    info: {
      total_token_usage: {
        input_tokens: input,
        cached_input_tokens: cached,
        output_tokens: output,
        total_tokens: total,
      },
      last_token_usage: {
        input_tokens: input,
        cached_input_tokens: cached,
        output_tokens: output,
        total_tokens: total,
      },
      model_context_window: 272000,
    },
  });
const META = L('session_meta', {
  id: 'sess-1',
  cli_version: '0.50.0',
  originator: 'codex_cli_rs',
  model_provider: 'openai',
});
const TURN = (model: string) => L('turn_context', { cwd: '/r', model, summary: 'auto' });

function parse(lines: string[], text?: string): Transcript {
  const r = parseTranscript(fileFromText('rollout.jsonl', text ?? `${lines.join('\n')}\n`));
  if (!r.ok) throw new Error(r.error);
  expect(r.transcript.format).toBe('codex');
  return r.transcript;
}

const kinds = (m: Message) => m.blocks.map((b) => (b.type === 'other' ? `other:${b.kind}` : b.type));
const errors = (t: Transcript) => t.parseIssues.filter((i) => i.severity === 'error');
function blocksOf<T extends Block['type']>(t: Transcript, type: T): Extract<Block, { type: T }>[] {
  return t.threads[0].messages.flatMap((m) =>
    m.blocks.filter((b): b is Extract<Block, { type: T }> => b.type === type),
  );
}

describe('codex: items become messages', () => {
  it('pairs a function_call with its output by call_id; reasoning is a thinking block', () => {
    const t = parse([
      META,
      TURN('gpt-5-codex'),
      user('list files'),
      ri({ type: 'reasoning', summary: [{ type: 'summary_text', text: 'Listing' }], encrypted_content: 'gAAA' }),
      call('call_1', '{"command":["ls"]}'),
      out('call_1', 'a.txt\n'),
      say('Found a.txt'),
    ]);
    const [u, a, tr, a2] = t.threads[0].messages;
    expect(t.threads[0].messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(a.blocks).toEqual([
      { type: 'thinking', thinking: 'Listing', signature: 'gAAA' },
      { type: 'tool_use', id: 'call_1', name: 'shell', input: { command: ['ls'] } },
    ]);
    expect(tr.blocks).toEqual([{ type: 'tool_result', toolUseId: 'call_1', content: 'a.txt\n', isError: false }]);
    expect(a.source).toEqual({ line: 4, lines: [4, 5], shape: 'responses-item' });
    expect(u.source).toEqual({ line: 3, shape: 'responses-item' });
    expect(a.model).toBe('gpt-5-codex');
    expect(a2.blocks).toEqual([{ type: 'text', text: 'Found a.txt' }]);
    expect(t.meta).toMatchObject({ sessionId: 'sess-1', version: '0.50.0' });
    expect(t.meta.extra).toMatchObject({ originator: 'codex_cli_rs', model_provider: 'openai' });
    expect(t.parseIssues).toEqual([]);
  });

  it('merges parallel calls into one assistant message and their outputs into one user message', () => {
    const t = parse([
      user('go'),
      call('c1', '{"cmd":"a"}'),
      call('c2', '{"cmd":"b"}'),
      out('c1', 'A'),
      out('c2', 'B'),
      say('done'),
    ]);
    const m = t.threads[0].messages;
    expect(m.map(kinds)).toEqual([['text'], ['tool_use', 'tool_use'], ['tool_result', 'tool_result'], ['text']]);
    expect(m[2].source.lines).toEqual([4, 5]);
    expect(m[2].blocks.map((b) => (b.type === 'tool_result' ? b.toolUseId : ''))).toEqual(['c1', 'c2']);
    const reqs = t.threads[0].requests;
    expect(reqs.map((r) => [r.inputEnd, r.responseEnd])).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });

  it('custom_tool_call keeps its freeform input; local_shell_call becomes local_shell', () => {
    const patch = '*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch';
    const t = parse([
      user('go'),
      ri({ type: 'custom_tool_call', call_id: 'p1', name: 'apply_patch', input: patch }),
      ri({ type: 'local_shell_call', call_id: 's1', status: 'completed', action: { type: 'exec', command: ['ls'] } }),
      ri({ type: 'custom_tool_call_output', call_id: 'p1', output: 'Success.' }),
      out('s1', 'a.txt'),
    ]);
    expect(blocksOf(t, 'tool_use')).toEqual([
      { type: 'tool_use', id: 'p1', name: 'apply_patch', input: patch },
      { type: 'tool_use', id: 's1', name: 'local_shell', input: { type: 'exec', command: ['ls'] } },
    ]);
    expect(blocksOf(t, 'tool_result').map((b) => b.toolUseId)).toEqual(['p1', 's1']);
  });

  it('normalizes every output shape and flags failures', () => {
    const t = parse([
      user('go'),
      call('a', '{}'),
      call('b', '{}'),
      call('c', '{}'),
      call('d', '{}'),
      call('e', '{}'),
      out('a', { content: 'permission denied', success: false }),
      out('b', [
        { type: 'input_text', text: 'x' },
        { type: 'input_image', image_url: 'data:image/png;base64,AA' },
      ]),
      out('c', { type: 'input_text', text: 'one item' }),
      out('d', 'Exit code: 2\nWall time: 0.1 seconds\nOutput:\nboom'),
      out('e', '{"output":"fine","metadata":{"exit_code":0,"duration_seconds":0.1}}'),
    ]);
    const r = blocksOf(t, 'tool_result');
    expect(r.map((b) => b.isError)).toEqual([true, false, false, true, false]);
    expect(r[0].content).toBe('permission denied');
    expect(r[1].content).toEqual([
      { type: 'text', text: 'x' },
      { type: 'image', mediaType: 'image/png', source: { type: 'input_image', image_url: 'data:image/png;base64,AA' } },
    ]);
    expect(r[2].content).toEqual([{ type: 'text', text: 'one item' }]);
    expect(t.threads[0].messages).toHaveLength(3);
  });

  it('keeps invalid JSON arguments as text, with a warning on that line', () => {
    const t = parse([user('go'), call('c1', '{"cmd": ')]);
    expect(blocksOf(t, 'tool_use')[0].input).toBe('{"cmd": ');
    expect(t.parseIssues).toEqual([expect.objectContaining({ line: 2, severity: 'warning' })]);
    expect(t.parseIssues[0].message).toMatch(/not valid JSON/);
  });

  it('developer → system, hosted tools → other blocks, ghost_snapshot skipped, injected context marked meta', () => {
    const t = parse([
      ri({ type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'rules' }] }),
      user('<environment_context>\n  <cwd>/r</cwd>\n</environment_context>'),
      user('search it'),
      ri({ type: 'web_search_call', id: 'ws', status: 'completed', action: { type: 'search', query: 'q' } }),
      ri({ type: 'ghost_snapshot', ghost_commit: { id: 'g' } }),
      say('found'),
    ]);
    const m = t.threads[0].messages;
    expect(m.map((x) => x.role)).toEqual(['system', 'user', 'user', 'assistant']);
    expect(m[1].meta).toBe(true);
    expect(m[2].meta).toBeUndefined();
    expect(kinds(m[3])).toEqual(['other:web_search_call', 'text']);
    expect(t.meta.skipped).toEqual({ 'response_item:ghost_snapshot': 1 });
  });

  it('reasoning with only encrypted content is redacted thinking', () => {
    const t = parse([
      user('go'),
      ri({ type: 'reasoning', summary: [], content: null, encrypted_content: 'ENC' }),
      say('ok'),
    ]);
    expect(t.threads[0].messages[1].blocks[0]).toEqual({ type: 'redacted_thinking', data: 'ENC' });
  });
});

describe('codex: requests and usage', () => {
  it('attaches token_count to the model call it follows; repeats and null info are skipped', () => {
    const t = parse([
      META,
      TURN('gpt-5'),
      user('go'),
      call('c1', '{}'),
      usage(1000, 800, 50), // call 1
      out('c1', 'x'),
      ev({ type: 'token_count', info: null, rate_limits: {} }),
      TURN('gpt-5-mini'),
      say('done'),
      usage(1000, 800, 50), // same totals: a rate-limit refresh, not a new call
      usage(2100, 1000, 20, 3170), // call 2
    ]);
    const [r0, r1] = t.threads[0].requests;
    expect(t.threads[0].requests).toHaveLength(2);
    expect(r0).toMatchObject({ inputEnd: 1, responseEnd: 2, model: 'gpt-5', line: 4 });
    expect(r0.observed).toEqual({ input: 200, cacheRead: 800, cacheWrite: 0, output: 50 });
    expect(r1).toMatchObject({ inputEnd: 3, model: 'gpt-5-mini' });
    expect(r1.observed).toEqual({ input: 1100, cacheRead: 1000, cacheWrite: 0, output: 20 });
    expect(r0.time).toBe(Date.UTC(2025, 0, 1, 0, 0, clock - 7));
    expect(t.meta.skipped).toEqual({ 'event_msg:token_count': 2 });
    expect(t.meta.extra?.modelContextWindow).toBe(272000);
  });

  it('current rollouts (0.42–0.58) write a call’s count before its items, then the same count again', () => {
    // As in the real rollouts of wild/codex: count(k), reasoning + call + output of k, turn_context, count(k).
    const t = parse([
      META,
      TURN('gpt-5-codex'),
      user('go'),
      ev({ type: 'token_count', info: null, rate_limits: {} }),
      usage(2878, 2560, 391), // call 1 completed
      ri({ type: 'reasoning', summary: [{ type: 'summary_text', text: 'plan' }], encrypted_content: 'x' }),
      call('c1', '{}'),
      out('c1', 'Plan updated'),
      TURN('gpt-5-codex'),
      usage(2878, 2560, 391), // the same count again
      usage(3298, 1920, 64, 3362 + 3269), // call 2 completed
      call('c2', '{"command":["ls"]}'),
      out('c2', 'a.txt'),
      TURN('gpt-5-codex'),
      usage(3298, 1920, 64, 3362 + 3269),
    ]);
    expect(t.threads[0].requests.map((r) => r.observed?.input)).toEqual([2878 - 2560, 3298 - 1920]);
    expect(t.threads[0].requests.map((r) => r.observed?.cacheRead)).toEqual([2560, 1920]);
  });

  it('keeps the reasoning tokens of a call’s output (reasoning_output_tokens) on its request', () => {
    const withReasoning = (input: number, cached: number, output: number, reasoning: number) =>
      ev({
        type: 'token_count',
        info: {
          total_token_usage: { input_tokens: input, cached_input_tokens: cached, output_tokens: output },
          last_token_usage: {
            input_tokens: input,
            cached_input_tokens: cached,
            output_tokens: output,
            reasoning_output_tokens: reasoning,
          },
        },
      });
    const t = parse([
      META,
      TURN('gpt-5-codex'),
      user('go'),
      withReasoning(2878, 2560, 391, 320), // count before its items (0.42–0.58)
      ri({ type: 'reasoning', summary: [{ type: 'summary_text', text: 'plan' }], encrypted_content: 'x' }),
      call('c1', '{}'),
      out('c1', 'ok'),
      TURN('gpt-5-codex'),
      user('more'),
      say('done'),
      usage(3298, 1920, 64), // count after its items, without a reasoning figure
    ]);
    expect(t.threads[0].requests.map((r) => r.reasoningOutput)).toEqual([320, undefined]);
  });

  it('diffs cumulative totals when last_token_usage is missing (older rollouts)', () => {
    const total = (input: number, cached: number, output: number) =>
      ev({
        type: 'token_count',
        info: { total_token_usage: { input_tokens: input, cached_input_tokens: cached, output_tokens: output } },
      });
    const t = parse([user('a'), say('1'), total(500, 0, 10), user('b'), say('2'), total(1300, 400, 30)]);
    expect(t.threads[0].requests.map((r) => r.observed)).toEqual([
      { input: 500, cacheRead: 0, cacheWrite: 0, output: 10 },
      { input: 400, cacheRead: 400, cacheWrite: 0, output: 20 },
    ]);
  });
});

describe('codex: compaction', () => {
  it('compacted without replacement_history: summary message + boundary on the next request', () => {
    const t = parse([
      user('fix it'),
      say('working'),
      usage(5000, 0, 10),
      usage(5600, 0, 300, 10910), // the summarizing call's own usage: no request of its own, billed apart
      L('compacted', { message: 'Summary: fixed half.' }),
      ev({ type: 'context_compacted' }),
      user('continue'),
      say('ok'),
    ]);
    const m = t.threads[0].messages;
    expect(m[2]).toMatchObject({
      role: 'user',
      compaction: 'summary',
      blocks: [{ type: 'text', text: 'Summary: fixed half.' }],
    });
    expect(m[2].source.line).toBe(5);
    const [r0, r1] = t.threads[0].requests;
    expect(r0.boundary).toBeUndefined();
    expect(r0.observed).toEqual({ input: 5000, cacheRead: 0, cacheWrite: 0, output: 10 });
    expect(r1).toMatchObject({ inputEnd: 4, boundary: 'agent-compaction' });
    expect(r1.exactInput).toBeUndefined();
    expect(t.meta.skipped).toEqual({ 'event_msg:context_compacted': 1 });
    // That call was paid for: recorded cost finds it apart from the requests, with the line it was read from.
    expect(t.threads[0].billedApart).toMatchObject([
      { why: 'no-request', usage: { input: 5600, cacheRead: 0, cacheWrite: 0, output: 300 }, line: 4 },
    ]);
  });

  it('replacement_history becomes the exact input of every later request', () => {
    const history = [
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fix it' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Another model worked on this.\nS' }] },
      { type: 'ghost_snapshot', ghost_commit: {} },
    ];
    const t = parse([
      user('fix it'),
      say('working'),
      L('compacted', { message: 'S', replacement_history: history }),
      user('continue'),
      call('c1', '{}'),
      out('c1', 'ok'),
      say('done'),
    ]);
    const th = t.threads[0];
    expect(th.messages.map((m) => m.compaction ?? '-')).toEqual(['-', '-', 'summary', '-', '-', '-', '-']);
    const [, r1, r2] = th.requests;
    expect(r1).toMatchObject({ inputEnd: 4, boundary: 'agent-compaction' });
    expect(r2.boundary).toBeUndefined();
    expect(r1.exactInput?.map((m) => [m.index, m.role, m.compaction ?? '-'])).toEqual([
      [0, 'user', '-'],
      [1, 'user', 'summary'],
      [2, 'user', '-'],
    ]);
    expect(r1.exactInput?.[0].source).toEqual({
      line: 3,
      shape: 'responses-item',
      path: 'payload.replacement_history[0]',
    });
    expect(r1.exactInput?.[2].blocks).toEqual(th.messages[3].blocks);
    expect(r2.exactInput?.map((m) => kinds(m).join())).toEqual(['text', 'text', 'text', 'tool_use', 'tool_result']);
    expect(r2.exactInput?.map((m) => m.index)).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('codex: event echoes', () => {
  it('user_message / agent_message events that echo items add nothing; unmatched ones are reported once', () => {
    const t = parse([
      ev({ type: 'user_message', message: 'hello', images: [] }),
      user('hello'),
      say('hi'),
      ev({ type: 'agent_message', message: 'hi' }),
      ev({ type: 'user_message', message: 'typed but never sent' }),
    ]);
    expect(t.threads[0].messages).toHaveLength(2);
    expect(t.meta.skipped).toEqual({ 'event_msg:user_message': 2, 'event_msg:agent_message': 1 });
    expect(t.parseIssues).toEqual([expect.objectContaining({ line: 5, severity: 'info' })]);
    expect(t.parseIssues[0].message).toMatch(/^1 user_message\/agent_message event/);
  });
});

describe('codex: legacy rollouts (bare items, mid-2025)', () => {
  it('parses the header, bare items and state records', () => {
    const lines = [
      JSON.stringify({ id: 'legacy-1', timestamp: '2025-05-01T10:00:00Z', instructions: null, git: {} }),
      JSON.stringify({ record_type: 'state' }),
      JSON.stringify({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }),
      JSON.stringify({ type: 'function_call', name: 'shell', arguments: '{"command":["ls"]}', call_id: 'c1' }),
      JSON.stringify({ type: 'function_call_output', call_id: 'c1', output: { content: 'a', success: true } }),
      JSON.stringify({ record_type: 'state' }),
    ];
    const t = parse(lines);
    expect(t.meta.sessionId).toBe('legacy-1');
    expect(t.threads[0].messages.map(kinds)).toEqual([['text'], ['tool_use'], ['tool_result']]);
    expect(t.threads[0].requests).toHaveLength(1);
    expect(t.meta.skipped).toEqual({ 'record_type:state': 2 });
    expect(t.parseIssues).toEqual([]);
  });
});

describe('codex: bad input', () => {
  it('bad, mistyped and truncated lines become issues with line numbers; the rest loads', () => {
    const lines = [
      META,
      user('go'),
      '{"timestamp": "2025-01-01T00:00:09Z", "type": "response_item", "payload": {"type": "mess',
      L('response_item', 'not an object'),
      L('response_item', { role: 'user' }),
      '[1, 2]',
      say('done'),
    ];
    const truncated = `${lines.join('\n')}\n{"timestamp":"2025-01-01T00:01:00Z","type":"event_msg","pay`;
    const t = parse([], truncated);
    expect(errors(t).map((i) => i.line)).toEqual([3, 4, 5, 6, 8]);
    expect(errors(t)[0].column).toBeGreaterThan(0);
    expect(errors(t)[4].message).toMatch(/truncated last line/);
    expect(t.threads[0].messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(t.threads[0].requests).toHaveLength(1);
  });

  it('sniff claims neither plain JSONL nor other formats', () => {
    const r = parseTranscript(fileFromText('x.jsonl', '{"type":"user","uuid":"u","message":{"role":"user"}}\n'));
    expect(r.ok && r.transcript.format === 'codex').toBe(false);
    const noPayload = parseTranscript(fileFromText('y.jsonl', '{"timestamp":"t","type":"response_item"}\n'));
    expect(noPayload.ok && noPayload.transcript.format === 'codex').toBe(false);
  });
});

describeReal('codex: real fixture simonw 0.77 (head of a real session)', () => {
  const t = loadReal(REAL_077);
  const th = t.threads[0];

  it('is detected and loads without issues', () => {
    expect(t.format).toBe('codex');
    expect(t.parseIssues).toEqual([]);
  });

  it('has the 3 user response_items as messages; the user_message event duplicates the third', () => {
    expect(th.messages.map((m) => [m.role, m.source.line, m.meta ?? false])).toEqual([
      ['user', 2, true], // # AGENTS.md instructions
      ['user', 3, true], // <environment_context>
      ['user', 4, false],
    ]);
    const last = th.messages[2].blocks[0];
    expect(last.type === 'text' && last.text).toMatch(/^can you analyse the MD files/);
    expect(th.requests).toEqual([]); // the head ends before the first model output
    expect(t.meta.skipped).toEqual({ 'event_msg:user_message': 1 });
  });

  it('reads session_meta', () => {
    expect(t.meta.sessionId).toBe('019b64e5-57fa-7463-b644-fba7e456f905');
    expect(t.meta.version).toBe('0.77.0');
    expect(t.meta.extra).toMatchObject({ originator: 'codex_cli_rs', model_provider: 'openai' });
  });

  it('round-trips through a bundle', () => {
    const r = parseTranscript(fileFromText('x.tierscope.json', exportBundle(t)));
    expect(r.ok && r.transcript.threads).toEqual(t.threads);
  });
});

describeReal('codex: synthetic fixture with every item/event type (cli 0.146.0)', () => {
  const t = loadReal(SYNTH);
  const th = t.threads[0];
  const roles = (role: string) => th.messages.filter((m) => m.role === role).length;

  it('loads with no errors; one warning (function_call with null arguments) and two infos', () => {
    expect(errors(t)).toEqual([]);
    expect(t.parseIssues.map((i) => [i.line, i.severity])).toEqual([
      [114, 'warning'],
      [71, 'info'], // user_message events at 71 and 85 echo no item
      [27, 'info'], // 92 timestamps are "[trimmed for fixture]"
    ]);
  });

  it('has 25 messages: 15 user, 9 assistant, 1 system', () => {
    expect(th.messages).toHaveLength(25);
    expect([roles('user'), roles('assistant'), roles('system')]).toEqual([15, 9, 1]);
    expect(th.messages[1].source.lines).toEqual([7, 9, 10]); // reasoning + custom_tool_call + function_call
    expect(kinds(th.messages[0])).toEqual(['text', 'image']);
    expect(th.messages[18]).toMatchObject({ role: 'system', source: { line: 98 } });
  });

  it('pairs tool calls by call_id: 4 tool_use, 5 tool_result', () => {
    const uses = blocksOf(t, 'tool_use');
    const results = blocksOf(t, 'tool_result');
    expect(uses).toHaveLength(4);
    expect(results).toHaveLength(5);
    expect(uses[0]).toEqual({ type: 'tool_use', id: 'call-1', name: 'shell', input: '{"command":["ls"]}' });
    expect(uses[1]).toEqual({ type: 'tool_use', id: 'call-2', name: 'shell', input: { command: ['ls'] } });
    const where = (id: string) =>
      th.messages.findIndex((m) => m.blocks.some((b) => b.type === 'tool_result' && b.toolUseId === id));
    expect([where('call-2'), where('call-1')]).toEqual([2, 6]);
    expect(results[0].content).toEqual([{ type: 'text', text: 'a.txt\n' }]);
  });

  it('has 9 requests; one carries usage from the token_count on line 22', () => {
    expect(th.requests.map((r) => r.line)).toEqual([7, 12, 14, 23, 39, 43, 49, 103, 114]);
    expect(th.requests.map((r) => r.model)).toEqual([
      ...Array(5).fill('gpt-5.6-luna'),
      'gpt-5.5',
      'gpt-5.5',
      'gpt-5.6-sol',
      'gpt-5.6-sol',
    ]);
    const withUsage = th.requests.filter((r) => r.observed);
    expect(withUsage.map((r) => r.index)).toEqual([2]);
    // last_token_usage: input 16341 (incl. 3584 cached), cache_write 0, output 81
    expect(withUsage[0].observed).toEqual({ input: 12757, cacheRead: 3584, cacheWrite: 0, output: 81 });
  });

  it('has 6 compaction summaries and 4 boundary requests with exact inputs from replacement_history', () => {
    const summaries = th.messages.filter((m) => m.compaction === 'summary');
    expect(summaries.map((m) => m.source.line)).toEqual([26, 47, 69, 81, 89, 111]);
    expect(summaries.map((m) => m.role)).toEqual(Array(6).fill('user'));
    const boundaries = th.requests.filter((r) => r.boundary === 'agent-compaction');
    expect(boundaries.map((r) => r.line)).toEqual([39, 49, 103, 114]);
    // line 26: 1 item + 2 later messages; 47: 8 items; 89: 65 items + the developer message of line 98;
    // 111: 12 messages + compaction item. Line 81's 24 ghost_snapshots are not model-visible.
    expect(th.requests.map((r) => r.exactInput?.length ?? 0)).toEqual([0, 0, 0, 0, 3, 4, 8, 66, 13]);
    const last = th.requests[8].exactInput ?? [];
    expect(last.at(-1)).toMatchObject({ compaction: 'summary', blocks: [{ type: 'other', kind: 'compaction' }] });
  });

  it('reads the first session_meta and counts what it skipped', () => {
    expect(t.meta.sessionId).toBe('019fc8be-3658-7ca3-9e29-000000000000');
    expect(t.meta.version).toBe('0.146.0');
    expect(t.meta.extra).toMatchObject({ originator: 'codex_cli_rs', sessionMetaLines: 7, modelContextWindow: 258400 });
    const skipped = t.meta.skipped ?? {};
    expect(skipped).toMatchObject({
      world_state: 5,
      inter_agent_communication_metadata: 1,
      'response_item:ghost_snapshot': 1,
      'event_msg:token_count': 2, // info null (86) and all-zero usage (87)
      'event_msg:user_message': 3,
      'event_msg:item_completed': 13,
    });
    // 68 event_msg lines − 1 attached token_count + 5 world_state + 1 inter_agent + 1 ghost_snapshot
    expect(Object.values(skipped).reduce((a, b) => a + b, 0)).toBe(74);
  });

  it('is detected by content and round-trips through a bundle', () => {
    expect(t.format).toBe('codex');
    const r = parseTranscript(fileFromText('x.tierscope.json', exportBundle(t)));
    expect(r.ok && r.transcript.threads).toEqual(t.threads);
  });
});

describeReal('codex: sniff does not claim other real fixtures', () => {
  it.each([
    'claude-code/ccviewer-5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl',
    'claude-trace/lemmy-test-traffic.redacted.jsonl',
    'openai-chat/inspect-browser-gpt4o-mini.chat-completions.jsonl',
    'inspect/inspect-browser-gpt4o-mini.json',
  ])('%s', (rel) => {
    let format: string | undefined;
    try {
      format = loadReal(rel).format;
    } catch (e) {
      format = String(e); // other parsers may not exist yet: "did not load" is fine, "codex" is not
    }
    expect(format).not.toBe('codex');
  });
});
