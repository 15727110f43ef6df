// Seeded generators of realistic large logs, the one source of generated logs for the bench and the e2e tests:
// Claude Code 2.1 JSONL (one line per block, parallel tool batches as fans, hook attachments, auto-compaction,
// sub-agent files, usage with cache reads/writes, TTL gaps, ~10% CJK, long unspaced runs), claude-trace
// request/response pairs and OpenAI chat request/response pairs. Each yields lines, so a 100 MB file is written
// without holding it in memory.
import { utf8Length } from '../src/lib/runes.ts';
import { type ContentKind, content, prose, Rng } from './content.ts';

const SESSION = '7f1c2d3e-0000-4000-8000-00000000b3c4';
const TOOLS: { name: string; kind: ContentKind; input: (r: Rng) => Record<string, unknown> }[] = [
  {
    name: 'Read',
    kind: 'code',
    input: (r) => ({
      file_path: `/repo/internal/${r.pick(['auth', 'cache', 'api', 'store'])}/${r.pick(['session', 'handler', 'config', 'client'])}.go`,
    }),
  },
  {
    name: 'Bash',
    kind: 'log',
    input: (r) => ({ command: r.pick(['go test ./...', 'npm test', 'ls -la internal', 'git status', 'make build']) }),
  },
  {
    name: 'Grep',
    kind: 'prose',
    input: (r) => ({ pattern: r.pick(['handleRequest', 'TODO', 'cacheKey', 'retry']), path: 'internal' }),
  },
  { name: 'WebFetch', kind: 'cjk', input: () => ({ url: 'https://example.invalid/docs/ja/caching' }) },
  { name: 'Bash', kind: 'unspaced', input: () => ({ command: 'cat build/bundle.min.js' }) },
  {
    name: 'mcp__api__query',
    kind: 'json',
    input: (r) => ({ query: r.pick(['users', 'orders', 'events']), limit: r.int(10, 500) }),
  },
  {
    name: 'Edit',
    kind: 'prose',
    input: (r) => ({ file_path: `/repo/internal/auth/session.go`, old_string: 'a', new_string: prose(r, 40) }),
  },
];

function uuid(r: Rng): string {
  const h = () =>
    Math.floor(r.next() * 0x10000)
      .toString(16)
      .padStart(4, '0');
  return `${h()}${h()}-${h()}-4${h().slice(1)}-8${h().slice(1)}-${h()}${h()}${h()}`;
}

function resultSize(r: Rng): number {
  const x = r.next();
  if (x < 0.5) return r.int(200, 3000);
  if (x < 0.85) return r.int(3000, 15000);
  if (x < 0.97) return r.int(15000, 45000);
  return r.int(50001, 90000);
}

function kindFor(r: Rng, base: ContentKind): ContentKind {
  // ~10% CJK overall, a few long unspaced runs
  if (r.chance(0.08)) return 'cjk';
  if (r.chance(0.02)) return 'unspaced';
  return base;
}

type Msg = Record<string, unknown>;

export type ClaudeCodeOptions = {
  /** Stop after this many API responses (main thread and sub-agents together). */
  maxRequests?: number;
  /** Scale of tool result sizes (1: the mix of resultSize). */
  resultScale?: number;
  /** Where a sub-agent's lines go (2.x writes them to `<session>/subagents/agent-<id>.jsonl`); without it
   *  sub-agents are not generated (the Task result stays, as when only the session file is opened). */
  onAgentLine?: (agentId: string, line: string) => void;
  /** One thread (issue 30's hard case): every request a text and 1–4 parallel tool calls (no thinking), no interjected
   *  prompts or reminders, no sub-agents, no auto-compaction — the history only grows. */
  singleThread?: boolean;
  /** Exact tokens of a text (o200k_base): usage is then 1.1× the count of what each request adds, as Claude's
   *  usage is of o200k's on real logs (SPEC §9) — one rate over the whole thread, as a provider's count is. */
  count?: (text: string) => number;
};

/**
 * Claude Code 2.1 JSONL lines, until about `targetBytes` (or `maxRequests` API responses), shaped like the
 * sessions in fixtures/wild: one line per content block of a response (thinking, text, tool calls, all with the
 * response's message.id and requestId); parallel calls answered by one result line each, hung off the line of
 * the call it answers (`sourceToolAssistantUUID`), so a batch is a fan of sibling branches; PostToolUse hook
 * attachments (not sent) and the odd todo reminder (sent); the agent's auto-compaction (compact_boundary +
 * summary) when the prompt nears 155k tokens; sub-agents in their own files. Usage follows the content.
 */
export function* claudeCodeLines(targetBytes: number, seed = 1, opts: ClaudeCodeOptions = {}): Generator<string> {
  const r = new Rng(seed);
  const scale = opts.resultScale ?? 1;
  const maxRequests = opts.maxRequests ?? Number.POSITIVE_INFINITY;
  let bytes = 0;
  let time = Date.UTC(2026, 9, 1, 9, 0, 0);
  // Usage follows the content: the cached prompt grows by what each request added (≈ UTF-8 bytes / 4).
  type Acct = { prompt: number; pending: number };
  const mainAcct: Acct = { prompt: 14000, pending: 20 };
  const count = opts.count;
  const approx = (x: unknown) => {
    const text = typeof x === 'string' ? x : JSON.stringify(x);
    return count ? Math.round(1.1 * count(text)) : Math.ceil(utf8Length(text) / 4);
  };
  /** A response's tokens from what is sent of it (texts; a call's name and input as the replay counts them). */
  const sent = (blocks: Msg[]) =>
    blocks.reduce(
      (n, b) =>
        n + approx(b.type === 'tool_use' ? `${b.name} ${JSON.stringify(b.input)}` : String(b.text ?? b.thinking ?? '')),
      0,
    );
  const grows = (blocks: Msg[]) => (count ? sent(blocks) : approx(blocks));
  const emit = (o: Msg) => {
    const s = JSON.stringify(o);
    bytes += utf8Length(s) + 1;
    return s;
  };
  const base = (parent: string | null, agentId: string | undefined, type: string, uuidv: string): Msg => ({
    parentUuid: parent,
    isSidechain: agentId !== undefined,
    userType: 'external',
    cwd: '/repo',
    sessionId: SESSION,
    version: '2.1.114',
    gitBranch: 'main',
    ...(agentId ? { agentId } : {}),
    type,
    uuid: uuidv,
    timestamp: new Date(time).toISOString(),
  });
  let req = 0;
  const model = 'claude-sonnet-4-5-20250929';
  const id24 = () => uuid(r).replace(/-/g, '').slice(0, 24);

  /** One response and its results; returns the line the next one hangs off. */
  const turn = function* (agentId: string | undefined, parentIn: string | null, acct: Acct): Generator<string, string> {
    let p = parentIn;
    const msgId = `msg_${id24()}`;
    const requestId = `req_${id24()}`;
    const n = r.chance(0.65) ? 1 : r.int(2, 4);
    const blocks: Msg[] = [];
    if (!opts.singleThread && r.chance(0.5))
      blocks.push({ type: 'thinking', thinking: prose(r, r.int(80, 900)), signature: `sig_${id24()}` });
    if (opts.singleThread || r.chance(0.6))
      blocks.push({ type: 'text', text: r.chance(0.1) ? content(r, 'cjk', r.int(40, 300)) : prose(r, r.int(40, 400)) });
    const calls: { id: string; tool: (typeof TOOLS)[number]; line?: string }[] = [];
    for (let i = 0; i < n; i++) {
      const tool = r.pick(TOOLS);
      const id = `toolu_${id24()}`;
      calls.push({ id, tool });
      blocks.push({ type: 'tool_use', id, name: tool.name, input: tool.input(r) });
    }
    const newTokens = acct.pending;
    const gap = r.chance(0.01) ? r.int(360, 1200) * 1000 : r.int(2, 40) * 1000;
    time += gap;
    const expired = gap > 300_000;
    const usage = {
      input_tokens: r.int(1, 8),
      cache_creation_input_tokens: expired ? acct.prompt + newTokens : newTokens,
      cache_read_input_tokens: expired ? 0 : acct.prompt,
      output_tokens: grows(blocks),
      service_tier: 'standard',
    };
    acct.prompt += newTokens + grows(blocks);
    acct.pending = 0;
    req++;
    for (const b of blocks) {
      const u = uuid(r);
      const line = emit({
        ...base(p, agentId, 'assistant', u),
        message: { id: msgId, type: 'message', role: 'assistant', model, content: [b], stop_reason: null, usage },
        requestId,
      });
      if (b.type === 'tool_use') {
        const c = calls.find((x) => x.id === b.id);
        if (c) c.line = u;
      }
      yield line;
      p = u;
    }
    // Results, one user line each, hung off the line of the call they answer; each may carry its hook's output.
    let last = p as string;
    for (const c of calls) {
      time += r.int(1, 5) * 1000;
      const u = uuid(r);
      const isErr = r.chance(0.05);
      const text = isErr
        ? `Error: ${prose(r, r.int(30, 200))}`
        : content(r, kindFor(r, c.tool.kind), Math.max(20, Math.round(resultSize(r) * scale)));
      acct.pending += approx(text) + (count ? 0 : 8);
      yield emit({
        ...base(c.line ?? p, agentId, 'user', u),
        message: {
          role: 'user',
          content: [{ tool_use_id: c.id, type: 'tool_result', content: text, ...(isErr ? { is_error: true } : {}) }],
        },
        toolUseResult: isErr ? text : { stdout: text.slice(0, 100), stderr: '', interrupted: false, isImage: false },
        sourceToolAssistantUUID: c.line,
      });
      last = u;
      if (r.chance(0.3)) {
        const h = uuid(r);
        yield emit({
          ...base(u, agentId, 'attachment', h),
          attachment: {
            type: 'hook_success',
            hookName: `PostToolUse:${c.tool.name}`,
            hookEvent: 'PostToolUse',
            content: '',
          },
        });
        last = h;
      }
    }
    if (!opts.singleThread && r.chance(0.05)) {
      const a = uuid(r);
      const todos = [
        { content: 'Refactor session refresh', status: 'in_progress' },
        { content: 'Keep the tests green', status: 'pending' },
      ];
      acct.pending += 120;
      yield emit({ ...base(last, agentId, 'attachment', a), attachment: { type: 'todo_reminder', content: todos } });
      last = a;
    }
    if (!agentId && !opts.singleThread && r.chance(0.02)) last = yield* subAgent(last, acct);
    return last;
  };

  /** A Task call, the sub-agent's own file (its lines go to onAgentLine), and the Task result. */
  const subAgent = function* (parentIn: string, acct: Acct): Generator<string, string> {
    const taskId = `toolu_${id24()}`;
    const promptText = `Investigate ${prose(r, 60)}`;
    const u = uuid(r);
    time += 2000;
    yield emit({
      ...base(parentIn, undefined, 'assistant', u),
      message: {
        id: `msg_${id24()}`,
        type: 'message',
        role: 'assistant',
        model,
        content: [
          {
            type: 'tool_use',
            id: taskId,
            name: 'Task',
            input: { description: 'Investigate module', prompt: promptText, subagent_type: 'general-purpose' },
          },
        ],
        stop_reason: null,
        usage: {
          input_tokens: 3,
          cache_creation_input_tokens: acct.pending + 90,
          cache_read_input_tokens: acct.prompt,
          output_tokens: 90,
        },
      },
      requestId: `req_${id24()}`,
    });
    req++;
    acct.prompt += acct.pending + 90;
    acct.pending = 0;
    const agentId = id24().slice(0, 17);
    if (opts.onAgentLine) {
      const put = (line: string) => opts.onAgentLine?.(agentId, line);
      const root = uuid(r);
      put(emit({ ...base(null, agentId, 'user', root), message: { role: 'user', content: promptText } }));
      let sp = root;
      // A sub-agent shares the system + tools prefix (~11k) and starts its own history.
      const sub: Acct = { prompt: 11400, pending: approx(promptText) };
      const steps = r.int(3, 12);
      for (let i = 0; i < steps && req < maxRequests; i++) {
        const lines = turn(agentId, sp, sub);
        for (;;) {
          const x = lines.next();
          if (x.done) {
            sp = x.value;
            break;
          }
          put(x.value);
        }
      }
    }
    const ru = uuid(r);
    yield emit({
      ...base(u, undefined, 'user', ru),
      message: {
        role: 'user',
        content: [{ tool_use_id: taskId, type: 'tool_result', content: [{ type: 'text', text: prose(r, 600) }] }],
      },
      sourceToolAssistantUUID: u,
    });
    acct.pending += 160;
    return ru;
  };

  const first = uuid(r);
  yield emit({
    ...base(null, undefined, 'user', first),
    message: {
      role: 'user',
      content: 'Refactor internal/auth/session.go to use the new cache API and keep the tests green.',
    },
  });
  let parent = first;
  while (bytes < targetBytes && req < maxRequests) {
    if (!opts.singleThread && r.chance(0.05)) {
      const u = uuid(r);
      time += r.int(10, 120) * 1000;
      const text = r.chance(0.15) ? content(r, 'cjk', 120) : prose(r, r.int(40, 300));
      mainAcct.pending += approx(text);
      yield emit({ ...base(parent, undefined, 'user', u), message: { role: 'user', content: text } });
      parent = u;
    }
    parent = yield* turn(undefined, parent, mainAcct);
    if (!opts.singleThread && mainAcct.prompt + mainAcct.pending >= 155_000) {
      // Auto-compaction: the boundary starts a new chain (logicalParentUuid names the old one), then the summary.
      const b = uuid(r);
      time += 30_000;
      yield emit({
        ...base(null, undefined, 'system', b),
        subtype: 'compact_boundary',
        content: 'Conversation compacted',
        isMeta: false,
        level: 'info',
        logicalParentUuid: parent,
        compactMetadata: { trigger: 'auto', preTokens: mainAcct.prompt + mainAcct.pending },
      });
      const s = uuid(r);
      const summary = `This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\n${prose(r, r.int(3000, 9000))}`;
      yield emit({
        ...base(b, undefined, 'user', s),
        isCompactSummary: true,
        isVisibleInTranscriptOnly: true,
        message: { role: 'user', content: summary },
      });
      parent = s;
      mainAcct.prompt = 18_000;
      mainAcct.pending = approx(summary);
    }
  }
}

/** OpenAI Chat Completions request/response pairs (each request carries the whole history). */
export function* openaiChatLines(targetBytes: number, seed = 2): Generator<string> {
  const r = new Rng(seed);
  const messages: Msg[] = [
    { role: 'system', content: prose(r, 2000) },
    { role: 'user', content: 'Fix the failing tests in the billing service.' },
  ];
  let bytes = 0;
  let cached = 0;
  let k = 0;
  while (bytes < targetBytes) {
    const id = `call_${k++}`;
    const tool = r.pick(TOOLS);
    const response = {
      role: 'assistant',
      content: null,
      tool_calls: [{ id, type: 'function', function: { name: tool.name, arguments: JSON.stringify(tool.input(r)) } }],
    };
    const promptTokens = Math.round(JSON.stringify(messages).length / 3.6);
    const line = JSON.stringify({
      request: {
        model: 'gpt-4o-mini',
        messages,
        tools: TOOLS.map((t) => ({
          type: 'function',
          function: { name: t.name, description: `${t.name} tool`, parameters: { type: 'object' } },
        })),
      },
      response: {
        id: `chatcmpl-${k}`,
        object: 'chat.completion',
        model: 'gpt-4o-mini',
        choices: [{ index: 0, message: response, finish_reason: 'tool_calls' }],
        usage: { prompt_tokens: promptTokens, completion_tokens: 30, prompt_tokens_details: { cached_tokens: cached } },
      },
    });
    cached = Math.floor(promptTokens / 128) * 128;
    bytes += line.length + 1;
    yield line;
    messages.push(response, {
      role: 'tool',
      tool_call_id: id,
      content: content(r, kindFor(r, tool.kind), Math.min(resultSize(r), 8000)),
    });
  }
}

/** claude-trace pairs (each request carries the whole history; SSE responses). */
export function* claudeTraceLines(targetBytes: number, seed = 3): Generator<string> {
  const r = new Rng(seed);
  const system = [{ type: 'text', text: prose(r, 3000), cache_control: { type: 'ephemeral' } }];
  const tools = TOOLS.map((t) => ({
    name: t.name,
    description: `${t.name}: ${prose(r, 200)}`,
    input_schema: { type: 'object', properties: {} },
  }));
  const messages: Msg[] = [{ role: 'user', content: [{ type: 'text', text: 'Make the cache tests pass.' }] }];
  let bytes = 0;
  let t = 1_760_000_000;
  let k = 0;
  let prompt = 4000;
  while (bytes < targetBytes) {
    const tool = r.pick(TOOLS);
    const id = `toolu_${String(k++).padStart(6, '0')}`;
    const newTokens = r.int(300, 3000);
    const sse = [
      `event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { id: `msg_${k}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-20250514', content: [], usage: { input_tokens: 4, cache_read_input_tokens: prompt, cache_creation_input_tokens: newTokens, output_tokens: 1 } } })}`,
      `event: content_block_start\ndata: ${JSON.stringify({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id, name: tool.name, input: {} } })}`,
      `event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(tool.input(r)) } })}`,
      `event: content_block_stop\ndata: ${JSON.stringify({ type: 'content_block_stop', index: 0 })}`,
      `event: message_delta\ndata: ${JSON.stringify({ type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 60 } })}`,
      `event: message_stop\ndata: ${JSON.stringify({ type: 'message_stop' })}`,
    ].join('\n\n');
    prompt += newTokens;
    const line = JSON.stringify({
      request: {
        timestamp: t,
        method: 'POST',
        url: 'https://api.anthropic.com/v1/messages?beta=true',
        headers: { 'content-type': 'application/json' },
        body: { model: 'claude-sonnet-4-20250514', max_tokens: 32000, system, tools, messages, stream: true },
      },
      response: { timestamp: t + 3, status_code: 200, headers: { 'request-id': `req_${k}` }, body_raw: `${sse}\n\n` },
      logged_at: new Date(t * 1000).toISOString(),
    });
    t += r.int(5, 60);
    bytes += line.length + 1;
    yield line;
    messages.push(
      { role: 'assistant', content: [{ type: 'tool_use', id, name: tool.name, input: tool.input(r) }] },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: id,
            content: content(r, kindFor(r, tool.kind), Math.min(resultSize(r), 6000)),
          },
        ],
      },
    );
  }
}

/**
 * Claude Code 2.x JSONL of many small messages (issue 19 item 10: a million of them), until `messages` messages
 * or about `targetBytes`: a short prompt and a one-line text answer per turn, every fifth turn a tool call and
 * its short result before the answer, usage on every response, the agent's auto-compaction near 155k tokens.
 * What a long chat-like session looks like to the parser and the replay: per-message cost, not per-byte.
 */
export function* claudeCodeSmallLines(targetBytes: number, seed = 5, messages = Number.POSITIVE_INFINITY) {
  const r = new Rng(seed);
  const model = 'claude-sonnet-4-5-20250929';
  let time = Date.UTC(2026, 9, 1, 9, 0, 0);
  let bytes = 0;
  let n = 0;
  let prompt = 14000;
  let pending = 20;
  let parent: string | null = null;
  let turn = 0;
  const id24 = () => uuid(r).replace(/-/g, '').slice(0, 24);
  const line = (type: string, rest: Msg, parentUuid: string | null = parent): string => {
    const u = uuid(r);
    const s = JSON.stringify({
      parentUuid,
      isSidechain: false,
      userType: 'external',
      cwd: '/repo',
      sessionId: SESSION,
      version: '2.1.114',
      gitBranch: 'main',
      type,
      ...rest,
      uuid: u,
      timestamp: new Date(time).toISOString(),
    });
    parent = u;
    bytes += s.length + 1;
    return s;
  };
  const answer = (block: Msg): string => {
    time += r.int(2, 20) * 1000;
    const out = Math.ceil(JSON.stringify(block).length / 4);
    const usage = {
      input_tokens: r.int(1, 8),
      cache_creation_input_tokens: pending,
      cache_read_input_tokens: prompt,
      output_tokens: out,
    };
    prompt += pending + out;
    pending = 0;
    n++;
    const message = { id: `msg_${id24()}`, type: 'message', role: 'assistant', model, content: [block], usage };
    return line('assistant', { message, requestId: `req_${id24()}` });
  };
  const user = (content: unknown, extra: Msg = {}): string => {
    time += r.int(1, 30) * 1000;
    pending += Math.ceil(JSON.stringify(content).length / 4);
    n++;
    return line('user', { message: { role: 'user', content }, ...extra });
  };
  while (n < messages && bytes < targetBytes) {
    yield user(prose(r, r.int(10, 60)));
    if (++turn % 5 === 0 && n + 3 <= messages) {
      const id = `toolu_${id24()}`;
      yield answer({
        type: 'tool_use',
        id,
        name: 'Bash',
        input: { command: r.pick(['ls', 'git status', 'npm test']) },
      });
      const text = prose(r, r.int(20, 120));
      yield user([{ tool_use_id: id, type: 'tool_result', content: text }], { toolUseResult: { stdout: text } });
    }
    if (n < messages) yield answer({ type: 'text', text: prose(r, r.int(10, 80)) });
    if (prompt + pending >= 155_000 && n + 2 <= messages) {
      const b = line(
        'system',
        {
          subtype: 'compact_boundary',
          content: 'Conversation compacted',
          isMeta: false,
          level: 'info',
          logicalParentUuid: parent,
          compactMetadata: { trigger: 'auto', preTokens: prompt + pending },
        },
        null,
      );
      yield b;
      const summary = `This session is being continued from a previous conversation. ${prose(r, r.int(2000, 4000))}`;
      yield user(summary, { isCompactSummary: true, isVisibleInTranscriptOnly: true });
      prompt = 18_000;
    }
  }
}
