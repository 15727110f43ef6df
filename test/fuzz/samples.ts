// Small repo-own inputs, one or more per format, that touch every field the parsers read (tool calls and
// results, usage, sidechains, compactions, SSE bodies, attachments, Python-repr tool calls…). They seed the
// fuzz properties next to the real fixtures, and their fields are the positions the wrong-type fuzz replaces.
import { fileFromText, parseTranscript } from '../../src/formats/index.ts';
import { exportBundle } from '../../src/formats/tierscope.ts';
import type { FormatId } from '../../src/model/transcript.ts';

export type Sample = { name: string; format: FormatId; jsonl: boolean; text: string };

const jsonl = (lines: unknown[]) => `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;

const T0 = Date.UTC(2025, 0, 1);
const iso = (s: number) => new Date(T0 + s * 1000).toISOString();

const cc = (o: Record<string, unknown>, n: number) => ({
  parentUuid: n === 1 ? null : `u${n - 1}`,
  isSidechain: false,
  userType: 'external',
  cwd: '/w',
  sessionId: 'sess-cc',
  version: '1.0.98',
  ...o,
  uuid: `u${n}`,
  timestamp: iso(n),
});

const USAGE = {
  input_tokens: 10,
  cache_creation_input_tokens: 100,
  cache_read_input_tokens: 1000,
  output_tokens: 5,
  cache_creation: { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 0 },
};

const CLAUDE_CODE = jsonl([
  { type: 'summary', summary: 'Fuzz seed', leafUuid: 'u9' },
  cc({ type: 'user', message: { role: 'user', content: 'Read the file and run a task' } }, 1),
  cc(
    {
      type: 'assistant',
      requestId: 'req_1',
      message: {
        id: 'msg_1',
        role: 'assistant',
        model: 'claude-sonnet-4',
        content: [{ type: 'thinking', thinking: 'plan', signature: 'sig' }],
        usage: USAGE,
      },
    },
    2,
  ),
  cc(
    {
      type: 'assistant',
      requestId: 'req_1',
      message: {
        id: 'msg_1',
        role: 'assistant',
        model: 'claude-sonnet-4',
        content: [
          { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/w/a.ts' } },
          { type: 'tool_use', id: 'toolu_2', name: 'Task', input: { prompt: 'Sub task', description: 'helper' } },
        ],
        usage: USAGE,
      },
    },
    3,
  ),
  cc(
    {
      type: 'user',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'file text' }] },
      toolUseResult: { stdout: 'file text', interrupted: false },
    },
    4,
  ),
  {
    parentUuid: null,
    isSidechain: true,
    sessionId: 'sess-cc',
    type: 'user',
    message: { role: 'user', content: 'Sub task' },
    uuid: 's1',
    timestamp: iso(5),
  },
  {
    parentUuid: 's1',
    isSidechain: true,
    sessionId: 'sess-cc',
    type: 'assistant',
    requestId: 'req_s',
    message: { id: 'msg_s', role: 'assistant', content: [{ type: 'text', text: 'sub done' }], usage: USAGE },
    uuid: 's2',
    timestamp: iso(6),
  },
  cc(
    {
      type: 'user',
      message: {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_2',
            content: [
              { type: 'text', text: 'sub done' },
              { type: 'image', source: { media_type: 'image/png' } },
            ],
            is_error: false,
          },
        ],
      },
      toolUseResult: { agentId: 'ag1' },
    },
    5,
  ),
  cc({ type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', logicalParentUuid: 'u5' }, 6),
  cc(
    {
      type: 'user',
      isCompactSummary: true,
      message: { role: 'user', content: 'This session is being continued from a previous conversation. Summary.' },
    },
    7,
  ),
  cc(
    {
      type: 'assistant',
      requestId: 'req_2',
      message: {
        id: 'msg_2',
        role: 'assistant',
        model: 'claude-sonnet-4',
        content: [
          { type: 'text', text: 'done' },
          { type: 'server_tool_use', id: 'srv_1', name: 'web_search', input: { q: 'x' } },
          { type: 'redacted_thinking', data: 'abc' },
          { type: 'web_search_tool_result', content: [] },
        ],
        usage: USAGE,
      },
    },
    8,
  ),
  cc({ type: 'user', isMeta: true, message: { role: 'user', content: '[Request interrupted by user]' } }, 9),
  { type: 'file-history-snapshot', messageId: 'm', snapshot: { files: [] } },
  { type: 'custom-title', customTitle: 'My title' },
  { type: 'last-prompt', leafUuid: 'u9' },
]);

const sse = (events: [string, unknown][]) =>
  `${events.map(([e, d]) => `event: ${e}\ndata: ${JSON.stringify(d)}\n`).join('\n')}\n`;

const SYSTEM = [{ type: 'text', text: 'You are Claude Code.', cache_control: { type: 'ephemeral' } }];
const TOOLS = [
  { name: 'Read', description: 'read a file', input_schema: { type: 'object' } },
  { type: 'web_search_20250305', name: 'web_search' },
];
const traceBody = (messages: unknown[], extra: Record<string, unknown> = {}) => ({
  model: 'claude-sonnet-4',
  max_tokens: 1000,
  system: SYSTEM,
  tools: TOOLS,
  messages,
  ...extra,
});
const traceReq = (body: unknown, url = 'https://api.anthropic.com/v1/messages') => ({
  timestamp: 1748500000.5,
  method: 'POST',
  url,
  headers: { 'user-agent': 'claude-cli/1.0.6 (external, cli)', authorization: 'Bearer sk-...-AAA' },
  body,
});
const U1 = { role: 'user', content: [{ type: 'text', text: 'hello', cache_control: { type: 'ephemeral' } }] };
const A1 = {
  role: 'assistant',
  content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'a' } }],
};
const U2 = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'text' }] };

const CLAUDE_TRACE = jsonl([
  {
    request: traceReq(traceBody([U1])),
    response: {
      timestamp: 1748500001,
      status_code: 200,
      headers: { 'request-id': 'req_a' },
      body: {
        id: 'msg_a',
        type: 'message',
        model: 'claude-sonnet-4',
        content: A1.content,
        usage: USAGE,
      },
    },
    logged_at: '2025-05-29T10:00:00Z',
  },
  {
    request: traceReq(traceBody([U1, A1, U2])),
    response: {
      timestamp: 1748500002,
      status_code: 200,
      headers: { 'Request-Id': 'req_b' },
      body_raw: sse([
        ['message_start', { type: 'message_start', message: { id: 'msg_b', model: 'claude-sonnet-4', usage: USAGE } }],
        ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
        ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'ok' } }],
        ['content_block_stop', { type: 'content_block_stop', index: 0 }],
        [
          'content_block_start',
          { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_2', name: 'Read' } },
        ],
        [
          'content_block_delta',
          { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"a":' } },
        ],
        [
          'content_block_delta',
          { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '1}' } },
        ],
        ['content_block_stop', { type: 'content_block_stop', index: 1 }],
        ['message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 9 } }],
        ['message_stop', { type: 'message_stop' }],
      ]),
    },
    logged_at: '2025-05-29T10:00:02Z',
  },
  {
    request: traceReq(traceBody([{ role: 'user', content: 'quota' }], { model: 'claude-3-5-haiku', max_tokens: 1 })),
    response: {
      status_code: 200,
      events: [
        { event: 'message_start', data: { type: 'message_start', message: { id: 'msg_c', usage: USAGE } } },
        {
          event: 'content_block_delta',
          data: { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'hm' } },
        },
        { event: 'message_stop', data: { type: 'message_stop' } },
      ],
    },
    logged_at: '2025-05-29T10:00:03Z',
  },
  {
    request: traceReq(JSON.stringify(traceBody([U1]))),
    response: { status_code: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'busy' } } },
    logged_at: '2025-05-29T10:00:04Z',
  },
  {
    request: traceReq({ x: 1 }, 'https://api.anthropic.com/v1/messages/count_tokens'),
    response: null,
    note: 'aborted',
    logged_at: '2025-05-29T10:00:05Z',
  },
]);

const ANTHROPIC_REQUEST = jsonl([
  traceBody([U1]),
  traceBody([U1, A1, U2], { max_tokens: 2000 }),
  traceBody([{ role: 'user', content: 'side' }], { model: 'claude-3-5-haiku', system: 'Summarize' }),
]);

const OAI_TOOLS = [
  { type: 'function', function: { name: 'shell', description: 'run', parameters: { type: 'object' } } },
];
const OAI_MSGS = [
  { role: 'system', content: 'sys' },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'go' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,AA' } },
    ],
  },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'shell', arguments: '{"cmd":"ls"}' } }],
  },
  { role: 'tool', tool_call_id: 'call_1', content: 'a.txt' },
];
const OPENAI_CHAT = jsonl([
  {
    request: { model: 'gpt-4o-mini', messages: OAI_MSGS.slice(0, 2), tools: OAI_TOOLS },
    response: {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1747000000,
      model: 'gpt-4o-mini',
      choices: [{ index: 0, message: OAI_MSGS[2], finish_reason: 'tool_calls' }],
      usage: { prompt_tokens: 100, completion_tokens: 10, prompt_tokens_details: { cached_tokens: 64 } },
    },
    time: 1.5,
  },
  {
    request: { model: 'gpt-4o-mini', messages: OAI_MSGS, tools: OAI_TOOLS },
    response: {
      id: 'chatcmpl-2',
      object: 'chat.completion',
      created: 1747000002,
      model: 'gpt-4o-mini',
      choices: [{ index: 0, message: { role: 'assistant', content: 'done', refusal: null } }],
      usage: { prompt_tokens: 120, completion_tokens: 3 },
    },
    time: 0.5,
  },
  {
    messages: [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'yo', tool_calls: [] },
    ],
    model: 'gpt-4o',
  },
]);

const cx = (type: string, payload: unknown, s: number) => ({ timestamp: iso(s), type, payload });
const CODEX = jsonl([
  cx(
    'session_meta',
    {
      id: 'sess-cx',
      cli_version: '0.77.0',
      originator: 'codex_cli_rs',
      cwd: '/w',
      base_instructions: { text: 'You are Codex.' },
    },
    1,
  ),
  cx('turn_context', { model: 'gpt-5-codex', cwd: '/w' }, 2),
  cx(
    'response_item',
    {
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: '<environment_context>x</environment_context>' }],
    },
    3,
  ),
  cx('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'list files' }] }, 4),
  cx('event_msg', { type: 'user_message', message: 'list files' }, 5),
  cx(
    'response_item',
    { type: 'reasoning', summary: [{ type: 'summary_text', text: 'think' }], encrypted_content: 'enc' },
    6,
  ),
  cx('response_item', { type: 'function_call', name: 'shell', arguments: '{"command":["ls"]}', call_id: 'c1' }, 7),
  cx('response_item', { type: 'custom_tool_call', name: 'apply_patch', input: '*** Begin Patch', call_id: 'c2' }, 8),
  cx('response_item', { type: 'local_shell_call', call_id: 'c3', action: { type: 'exec', command: ['pwd'] } }, 9),
  cx(
    'event_msg',
    {
      type: 'token_count',
      info: {
        total_token_usage: { input_tokens: 100, cached_input_tokens: 50, output_tokens: 7 },
        last_token_usage: { input_tokens: 100, cached_input_tokens: 50, output_tokens: 7 },
        model_context_window: 272000,
      },
    },
    10,
  ),
  cx('response_item', { type: 'function_call_output', call_id: 'c1', output: 'Exit code: 0\na.txt' }, 11),
  cx('response_item', { type: 'custom_tool_call_output', call_id: 'c2', output: { content: 'ok', success: true } }, 12),
  cx(
    'response_item',
    { type: 'function_call_output', call_id: 'c3', output: [{ type: 'input_text', text: '/w' }] },
    13,
  ),
  cx('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'a.txt' }] }, 14),
  cx(
    'event_msg',
    {
      type: 'token_count',
      info: { total_token_usage: { input_tokens: 250, cached_input_tokens: 100, output_tokens: 12 } },
    },
    15,
  ),
  cx(
    'compacted',
    {
      message: 'summary of work',
      replacement_history: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'list files' }] },
        { type: 'compaction', encrypted_content: 'xyz' },
      ],
    },
    16,
  ),
  cx('response_item', { type: 'message', role: 'user', content: 'continue' }, 17),
  cx('response_item', { type: 'web_search_call', action: { query: 'q' } }, 18),
  cx('response_item', { type: 'ghost_snapshot', ghost_commit: {} }, 19),
  { record_type: 'state' },
]);

const INSPECT = JSON.stringify(
  {
    version: 2,
    status: 'success',
    eval: {
      task: 'browse',
      eval_id: 'ev1',
      run_id: 'run1',
      model: 'openai/gpt-4o-mini',
      created: '2025-05-12T20:27:36',
    },
    samples: [
      {
        id: 1,
        epoch: 1,
        messages: [
          { id: 'm1', role: 'system', content: 'attachment://abc' },
          { id: 'm2', role: 'user', content: [{ type: 'text', text: 'find it' }] },
          {
            id: 'm3',
            role: 'assistant',
            content: [{ type: 'reasoning', reasoning: 'hmm', redacted: false }],
            tool_calls: [{ id: 'tc1', function: 'web_browser_go', arguments: { url: 'https://x' }, parse_error: null }],
            model: 'gpt-4o-mini',
          },
          { id: 'm4', role: 'tool', tool_call_id: 'tc1', content: 'page', error: null },
          { id: 'm5', role: 'assistant', content: 'found' },
        ],
        events: [
          { event: 'sample_init' },
          {
            event: 'model',
            model: 'openai/gpt-4o-mini',
            timestamp: '2025-05-12T20:27:37Z',
            completed: '2025-05-12T20:27:38Z',
            input: [
              { id: 'm1', role: 'system', content: 'attachment://abc' },
              { id: 'm2', role: 'user', content: [{ type: 'text', text: 'find it' }] },
            ],
            tools: [{ name: 'web_browser_go', description: 'go', parameters: { type: 'object' } }],
            output: {
              model: 'gpt-4o-mini',
              usage: { input_tokens: 100, output_tokens: 5, total_tokens: 105, input_tokens_cache_read: 20 },
              choices: [],
            },
            call: {
              request: {},
              response: {
                usage: { prompt_tokens: 100, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 20 } },
              },
            },
          },
          {
            event: 'model',
            model: 'anthropic/claude',
            input: [{ role: 'user', content: 'score this' }],
            output: {
              choices: [{ message: { role: 'assistant', content: 'C' } }],
              usage: { input_tokens: 3, output_tokens: 1 },
            },
          },
        ],
        attachments: { abc: 'You are a browsing agent.' },
        error: { message: 'boom' },
      },
    ],
  },
  null,
  2,
);

const SWE_AGENT = JSON.stringify(
  {
    environment: 'swe_main',
    trajectory: [{ action: 'ls', observation: 'a', response: 'r' }],
    history: [
      { role: 'system', content: 'You are SWE-agent', agent: 'main', message_type: 'system_prompt' },
      { role: 'user', content: [{ type: 'text', text: 'fix the bug' }], agent: 'main' },
      {
        role: 'assistant',
        content: 'look',
        tool_calls:
          "[{'id': 'call_1', 'type': 'function', 'function': {'name': 'bash', 'arguments': '{\"command\": \"ls\"}'}}]",
        agent: 'main',
      },
      { role: 'tool', content: 'a.py', tool_call_ids: "['call_1']", agent: 'main' },
      {
        role: 'assistant',
        content: 'done',
        tool_calls: [{ id: 'call_2', function: { name: 'submit', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: 'submitted' }] },
    ],
    info: { exit_status: 'submitted', model_stats: { instance_cost: 0, tokens_sent: 0, api_calls: 2 } },
    replay_config: { agent: { model: { name: 'gpt-4o' } }, problem_statement: { id: 'marshmallow-1867' } },
  },
  null,
  2,
);

function bundleOf(text: string): string {
  const r = parseTranscript(fileFromText('seed.jsonl', text));
  if (!r.ok) throw new Error(`sample did not load: ${r.error}`);
  return exportBundle(r.transcript);
}

const GEMINI_HEADER = { sessionId: 'g1', projectHash: 'h', startTime: iso(0), lastUpdated: iso(0), kind: 'main' };
const GEMINI_TOKENS = { input: 3000, output: 20, cached: 1000, thoughts: 5, tool: 0, total: 3025 };
const GEMINI_CALL = {
  id: 'c1',
  name: 'read_file',
  args: { file_path: 'a' },
  status: 'success',
  result: [{ functionResponse: { id: 'c1', name: 'read_file', response: { output: 'AAA' } } }],
};
const GEMINI_MESSAGES = [
  { id: 'u1', timestamp: iso(1), type: 'user', content: [{ text: 'read a' }] },
  {
    id: 'g1',
    timestamp: iso(2),
    type: 'gemini',
    content: '',
    model: 'gemini-2.5-pro',
    tokens: GEMINI_TOKENS,
    thoughts: [{ subject: 's', description: 'd', timestamp: iso(2) }],
    toolCalls: [GEMINI_CALL],
  },
  { id: 'i1', timestamp: iso(2), type: 'info', content: 'note' },
  { id: 'g2', timestamp: iso(3), type: 'gemini', content: 'done', model: 'gemini-2.5-pro', tokens: GEMINI_TOKENS },
];
const GEMINI_JSONL = jsonl([
  GEMINI_HEADER,
  ...GEMINI_MESSAGES,
  { $set: { lastUpdated: iso(3), summary: 'Fuzz chat' } },
  { $rewindTo: 'g2' },
  { id: 'g3', timestamp: iso(4), type: 'gemini', content: 'again', model: 'gemini-2.5-pro', tokens: GEMINI_TOKENS },
  { $set: { messages: [{ id: 's1', timestamp: iso(5), type: 'user', content: [{ text: 'summary' }] }] } },
  { type: 'message_update', id: 's1', content: [{ text: 'summary 2' }] },
]);
const GEMINI_JSON = JSON.stringify({ ...GEMINI_HEADER, messages: GEMINI_MESSAGES }, null, 2);

const CLINE_TASK = JSON.stringify([
  { role: 'user', content: [{ type: 'text', text: '<task>fix</task>' }] },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'ok' },
      { type: 'tool_use', id: 't1', name: 'read_file', input: { path: 'a' } },
    ],
  },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'AAA' }] },
  { role: 'assistant', content: [{ type: 'text', text: 'done' }], isSummary: true },
]);
const CLINE_SESSION = JSON.stringify({
  version: 1,
  agent: 'lead',
  sessionId: 's1',
  system_prompt: 'be brief',
  messages: [
    { id: 'm1', role: 'user', content: [{ type: 'text', text: 'go' }] },
    {
      id: 'm2',
      role: 'assistant',
      ts: 1745343730123,
      modelInfo: { id: 'claude-sonnet-4-6', provider: 'anthropic' },
      metrics: { inputTokens: 3000, outputTokens: 9, cacheReadTokens: 2000, cacheWriteTokens: 100, cost: 0.01 },
      content: [
        { type: 'thinking', thinking: 'look first', signature: 'sig' },
        { type: 'text', text: 'reading' },
        { type: 'tool_use', id: 't1', name: 'read_files', input: { paths: ['src/a.ts', 'src/b.ts'] } },
      ],
    },
    {
      id: 'm3',
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'export const a = 1;' }] },
        { type: 'text', text: 'and b?' },
      ],
    },
    {
      id: 'm4',
      role: 'assistant',
      ts: 1745343731123,
      modelInfo: { id: 'claude-sonnet-4-6', provider: 'anthropic' },
      metrics: { inputTokens: 3300, outputTokens: 12, cacheReadTokens: 3000, cacheWriteTokens: 200 },
      content: [
        { type: 'tool_use', id: 't2', name: 'run_commands', input: { commands: ['ls src', 'wc -l src/b.ts'] } },
      ],
    },
    {
      id: 'm5',
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 't2', content: 'a.ts b.ts', is_error: false }],
    },
    {
      id: 'm6',
      role: 'assistant',
      ts: 1745343732123,
      modelInfo: { id: 'claude-sonnet-4-6', provider: 'anthropic' },
      metrics: { inputTokens: 3400, outputTokens: 5, cacheReadTokens: 3300, cacheWriteTokens: 50 },
      content: [{ type: 'text', text: 'ok' }],
    },
  ],
});
const ATIF = JSON.stringify({
  schema_version: 'ATIF-v1.6',
  session_id: 'a1',
  agent: { name: 'terminus-2', version: '1', model_name: 'gpt-4o' },
  steps: [
    { step_id: 1, source: 'system', message: 'sys' },
    { step_id: 2, source: 'user', message: [{ type: 'text', text: 'do it' }] },
    {
      step_id: 3,
      source: 'agent',
      message: 'calling',
      reasoning_content: 'r',
      tool_calls: [{ tool_call_id: 'k1', function_name: 'bash', arguments: { cmd: 'ls' } }],
      observation: { results: [{ source_call_id: 'k1', content: 'a b' }, { content: 'free text' }] },
      metrics: {
        prompt_tokens: 3000,
        completion_tokens: 30,
        cached_tokens: 1000,
        extra: { cache_creation_input_tokens: 50 },
      },
    },
    {
      step_id: 4,
      source: 'agent',
      message: 'done',
      llm_call_count: 2,
      metrics: { prompt_tokens: 6000, completion_tokens: 10 },
    },
  ],
});
const otelAttr = (key: string, v: unknown) => ({
  key,
  value:
    typeof v === 'number' ? { intValue: String(v) } : { stringValue: typeof v === 'string' ? v : JSON.stringify(v) },
});
const OTEL = jsonl([
  {
    resourceSpans: [
      {
        resource: { attributes: [otelAttr('service.name', 'fuzz')] },
        scopeSpans: [
          {
            spans: [
              {
                traceId: 't',
                spanId: 'a',
                name: 'invoke_agent x',
                startTimeUnixNano: '1735689600000000000',
                attributes: [
                  otelAttr('gen_ai.operation.name', 'invoke_agent'),
                  otelAttr('gen_ai.agent.name', 'x'),
                  otelAttr('gen_ai.usage.input_tokens', 9000),
                ],
              },
              {
                traceId: 't',
                spanId: 'b',
                parentSpanId: 'a',
                name: 'chat',
                startTimeUnixNano: '1735689601000000000',
                endTimeUnixNano: '1735689602000000000',
                attributes: [
                  otelAttr('gen_ai.operation.name', 'chat'),
                  otelAttr('gen_ai.request.model', 'gpt-4o'),
                  otelAttr('gen_ai.input.messages', [{ role: 'user', parts: [{ type: 'text', content: 'hi' }] }]),
                  otelAttr('gen_ai.output.messages', [
                    { role: 'assistant', parts: [{ type: 'tool_call', id: 'q', name: 'f', arguments: '{"a":1}' }] },
                  ]),
                  otelAttr('gen_ai.usage.input_tokens', 3000),
                  otelAttr('gen_ai.usage.cache_read.input_tokens', 1000),
                  otelAttr('gen_ai.usage.output_tokens', 5),
                ],
              },
              {
                traceId: 't',
                spanId: 'c',
                parentSpanId: 'a',
                name: 'chat',
                startTimeUnixNano: '1735689603000000000',
                attributes: [
                  otelAttr('gen_ai.operation.name', 'chat'),
                  otelAttr('gen_ai.prompt.0.role', 'user'),
                  otelAttr('gen_ai.prompt.0.content', 'hi'),
                  otelAttr('gen_ai.completion.0.role', 'assistant'),
                  otelAttr('gen_ai.completion.0.content', 'yo'),
                  otelAttr('gen_ai.usage.prompt_tokens', 3100),
                ],
              },
            ],
          },
        ],
      },
    ],
  },
]);

export const SAMPLES: Sample[] = [
  { name: 'inline gemini-cli jsonl', format: 'gemini-cli', jsonl: true, text: GEMINI_JSONL },
  { name: 'inline gemini-cli json', format: 'gemini-cli', jsonl: false, text: GEMINI_JSON },
  { name: 'inline cline task', format: 'cline', jsonl: false, text: CLINE_TASK },
  { name: 'inline cline session', format: 'cline', jsonl: false, text: CLINE_SESSION },
  { name: 'inline atif', format: 'atif', jsonl: false, text: ATIF },
  { name: 'inline otel-genai', format: 'otel-genai', jsonl: true, text: OTEL },
  { name: 'inline claude-code', format: 'claude-code', jsonl: true, text: CLAUDE_CODE },
  { name: 'inline claude-trace', format: 'claude-trace', jsonl: true, text: CLAUDE_TRACE },
  { name: 'inline anthropic-request', format: 'anthropic-request', jsonl: true, text: ANTHROPIC_REQUEST },
  { name: 'inline openai-chat', format: 'openai-chat', jsonl: true, text: OPENAI_CHAT },
  { name: 'inline codex', format: 'codex', jsonl: true, text: CODEX },
  { name: 'inline inspect', format: 'inspect', jsonl: false, text: INSPECT },
  { name: 'inline swe-agent', format: 'swe-agent', jsonl: false, text: SWE_AGENT },
  { name: 'inline tierscope', format: 'tierscope', jsonl: false, text: bundleOf(CLAUDE_CODE) },
];
