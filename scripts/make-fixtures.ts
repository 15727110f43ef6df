// Writes the DERIVED and synthetic fixtures of test/fixtures/ from the real files beside them, each by the rule of
// the writer named in the folder's PROVENANCE.md, so they can be made again and checked (`npm run -s
// make-fixtures`; the tests read the committed files). What each one is:
// - gemini-cli/derived-aim-control_pro.jsonl: aim-control_pro.json rewritten as Gemini CLI migrates a legacy
//   `.json` chat on resume (chatRecordingService.ts initialize(): the metadata line, each message as a line, then
//   `{"$set": {"sessionId"}}`).
// - cline/tasks/<id>/: the Cline 4 session fixture (cline/cline's own) as a Cline 3.x task folder, by the rules of
//   Cline's translator between the two (apps/vscode/src/sdk/message-translator.ts normalizeUsageEvent: disjoint
//   tokensIn / cacheReads / cacheWrites; ui entries say where the history stood).
// - cline/roo-tasks/<id>/: the same as a Roo Code task after 2025-10-31 (`apiProtocol`, `tokensIn` the whole prompt).
// - atif/harbor-gemini-cli-pomodoro/trajectory.json: the real Gemini CLI pomodoro chat converted as Harbor does.
// - otel-genai/pomodoro-genai-spans.json: that chat's calls as GenAI semantic-conventions spans (see otelSpans).
// - opencode/*/opencode.db: that chat as an opencode session, written by the real SQLite (make-opencode-db.py).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../test/fixtures');
const read = (rel: string) => JSON.parse(readFileSync(join(ROOT, rel), 'utf8'));
function write(rel: string, text: string): void {
  mkdirSync(dirname(join(ROOT, rel)), { recursive: true });
  writeFileSync(join(ROOT, rel), text);
  console.log(`wrote test/fixtures/${rel} (${text.length} bytes)`);
}

type Obj = Record<string, unknown>;

function geminiMigration(): void {
  const { messages, ...rec } = read('gemini-cli/aim-control_pro.json') as Obj & { messages: Obj[] };
  const header = {
    sessionId: rec.sessionId,
    projectHash: rec.projectHash,
    startTime: rec.startTime,
    lastUpdated: rec.lastUpdated,
    kind: rec.kind,
    directories: rec.directories,
    summary: rec.summary,
  };
  const lines = [header, ...messages, { $set: { sessionId: rec.sessionId } }];
  write('gemini-cli/session-2026-03-26T04-33-b36c9e17.jsonl', `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
}

function clineTask(roo: boolean): void {
  const doc = read('cline/sessions/1784094124598_rruoq/1784094124598_rruoq.messages.json') as { messages: Obj[] };
  // Roo appends its environment details, which name the model in use, to every user turn (getEnvironmentDetails.ts):
  // the model of the reply that follows.
  const env = (i: number) => {
    const model = (doc.messages.slice(i).find((m) => m.modelInfo)?.modelInfo as Obj | undefined)?.id;
    const text = `<environment_details>\n# Current Mode\n<slug>code</slug>\n<model>${model}</model>\n</environment_details>`;
    return { type: 'text', text };
  };
  const history = doc.messages.map((m, i) => ({
    role: m.role,
    content: roo && m.role === 'user' ? [...(m.content as unknown[]), env(i)] : m.content,
    ...(roo && m.ts ? { ts: m.ts } : {}),
  }));
  const ui: Obj[] = [{ ts: doc.messages[0].ts ?? 1783376868634, type: 'say', say: 'task', text: 'task' }];
  doc.messages.forEach((m, i) => {
    if (m.role !== 'assistant') return;
    const x = (m.metrics ?? {}) as Record<string, number>;
    const read = x.cacheReadTokens ?? 0;
    const write = x.cacheWriteTokens ?? 0;
    const tokensIn = roo ? x.inputTokens : Math.max(0, x.inputTokens - read - write);
    const info = {
      request: '…',
      tokensIn,
      tokensOut: x.outputTokens,
      cacheWrites: write,
      cacheReads: read,
      cost: x.cost,
      ...(roo ? { apiProtocol: 'anthropic' } : {}),
    };
    const started = Number(m.ts ?? 0) - 1000;
    ui.push({
      ts: started,
      type: 'say',
      say: 'api_req_started',
      text: JSON.stringify(info),
      conversationHistoryIndex: i - 2,
      ...(roo
        ? {}
        : { modelInfo: { modelId: (m.modelInfo as Obj | undefined)?.id, providerId: 'cline', mode: 'act' } }),
    });
  });
  const dir = roo ? 'cline/roo-tasks/1783376868634' : 'cline/tasks/1783376868634';
  write(`${dir}/api_conversation_history.json`, JSON.stringify(history));
  write(`${dir}/ui_messages.json`, JSON.stringify(ui));
}

/** Harbor's Gemini CLI → ATIF conversion (harbor src/harbor/agents/installed/gemini_cli.py _convert_gemini_to_atif):
 *  a step per user or gemini message, thoughts as `subject: description` lines, each tool call's first
 *  functionResponse output as its observation, metrics {prompt_tokens: input, completion_tokens: output + thoughts +
 *  tool, cached_tokens: cached, extra {thoughts_tokens, tool_tokens}}, ATIF-v1.7. */
function harborAtif(): void {
  const rec = read('gemini-cli/yoavf-pomodoro-timer.json') as Obj & { messages: Obj[] };
  const text = (c: unknown) =>
    typeof c === 'string' ? c : Array.isArray(c) ? c.map((p) => (p as Obj)?.text ?? '').join('\n') : '';
  const steps: Obj[] = [];
  const totals = { prompt: 0, completion: 0, cached: 0 };
  let model: string | undefined;
  for (const m of rec.messages) {
    const step: Obj = { step_id: steps.length + 1, timestamp: m.timestamp };
    if (m.type === 'user') steps.push({ ...step, source: 'user', message: text(m.content) });
    if (m.type !== 'gemini') continue;
    model ??= m.model as string;
    const thoughts = ((m.thoughts as Obj[]) ?? []).map((t) =>
      t.subject && t.description ? `${t.subject}: ${t.description}` : String(t.description ?? ''),
    );
    const calls = (m.toolCalls as Obj[]) ?? [];
    const t = (m.tokens ?? {}) as Record<string, number>;
    const completion = (t.output ?? 0) + (t.thoughts ?? 0) + (t.tool ?? 0);
    totals.prompt += t.input ?? 0;
    totals.completion += completion;
    totals.cached += t.cached ?? 0;
    steps.push({
      ...step,
      source: 'agent',
      model_name: m.model,
      message: text(m.content),
      ...(thoughts.length ? { reasoning_content: thoughts.filter(Boolean).join('\n') } : {}),
      ...(calls.length
        ? {
            tool_calls: calls.map((c) => ({ tool_call_id: c.id, function_name: c.name, arguments: c.args ?? {} })),
            observation: {
              results: calls.map((c) => ({
                source_call_id: c.id,
                content: (((c.result as Obj[]) ?? [])[0]?.functionResponse as Obj | undefined)?.response
                  ? ((((c.result as Obj[])[0].functionResponse as Obj).response as Obj).output ?? null)
                  : null,
              })),
            },
          }
        : {}),
      ...(m.tokens
        ? {
            metrics: {
              prompt_tokens: t.input ?? 0,
              completion_tokens: completion,
              cached_tokens: t.cached ?? 0,
              extra: { thoughts_tokens: t.thoughts ?? 0, tool_tokens: t.tool ?? 0 },
            },
          }
        : {}),
      llm_call_count: 1,
    });
  }
  const trajectory = {
    schema_version: 'ATIF-v1.7',
    session_id: rec.sessionId,
    agent: { name: 'gemini-cli', version: 'unknown', model_name: model },
    steps,
    final_metrics: {
      total_prompt_tokens: totals.prompt,
      total_completion_tokens: totals.completion,
      total_cached_tokens: totals.cached,
      total_steps: steps.length,
    },
  };
  write('atif/harbor-gemini-cli-pomodoro/trajectory.json', `${JSON.stringify(trajectory, null, 2)}\n`);
}

/** OTLP JSON spans as a GenAI semantic-conventions instrumentation writes them for the pomodoro chat's calls: a
 *  `chat` span per reply (input = the history before it, thoughts not resent; `gen_ai.usage.input_tokens` with the
 *  cached part inside it, `cache_read.input_tokens`, output = the billed output with thoughts), all below one
 *  `invoke_agent` span that repeats the run's totals (as some exporters do), and a sub-agent run of two calls. Two
 *  batches, one per line, as the Collector's file exporter writes them. */
function otelSpans(): void {
  const rec = read('gemini-cli/yoavf-pomodoro-timer.json') as Obj & { messages: Obj[] };
  const ns = (iso: unknown) => `${Date.parse(String(iso))}000000`;
  const attr = (key: string, v: unknown) => ({
    key,
    value:
      typeof v === 'number' ? { intValue: String(v) } : { stringValue: typeof v === 'string' ? v : JSON.stringify(v) },
  });
  const trace = '5b8efff798038103d269b633813fc60c';
  let n = 0;
  const id = () => (++n).toString(16).padStart(16, '0');
  const root = id();
  const history: Obj[] = [];
  const spans: Obj[] = [];
  const totals = { input: 0, output: 0 };
  let prev = rec.messages[0]?.timestamp;
  for (const m of rec.messages) {
    if (m.type === 'user') history.push({ role: 'user', parts: [{ type: 'text', content: String(m.content) }] });
    if (m.type !== 'gemini') continue;
    const calls = (m.toolCalls as Obj[]) ?? [];
    const reply = {
      role: 'assistant',
      parts: [
        ...(m.content ? [{ type: 'text', content: String(m.content) }] : []),
        ...calls.map((c) => ({ type: 'tool_call', id: c.id, name: c.name, arguments: c.args })),
      ],
      finish_reason: calls.length ? 'tool_call' : 'stop',
    };
    const t = (m.tokens ?? {}) as Record<string, number>;
    const usage =
      (t.input ?? 0) + (t.output ?? 0) > 0
        ? [
            attr('gen_ai.usage.input_tokens', t.input ?? 0),
            attr('gen_ai.usage.cache_read.input_tokens', t.cached ?? 0),
            attr('gen_ai.usage.output_tokens', (t.output ?? 0) + (t.thoughts ?? 0)),
          ]
        : [];
    totals.input += t.input ?? 0;
    totals.output += (t.output ?? 0) + (t.thoughts ?? 0);
    spans.push({
      traceId: trace,
      spanId: id(),
      parentSpanId: root,
      name: `chat ${m.model}`,
      kind: 3,
      startTimeUnixNano: ns(prev),
      endTimeUnixNano: ns(m.timestamp),
      attributes: [
        attr('gen_ai.operation.name', 'chat'),
        attr('gen_ai.provider.name', 'gcp.gemini'),
        attr('gen_ai.request.model', m.model),
        attr('gen_ai.response.model', m.model),
        attr('gen_ai.conversation.id', rec.sessionId),
        attr('gen_ai.input.messages', history),
        attr('gen_ai.output.messages', [reply]),
        ...usage,
      ],
      status: { code: 1 },
    });
    history.push(reply);
    if (calls.length)
      history.push({
        role: 'tool',
        parts: calls.map((c) => ({
          type: 'tool_call_response',
          id: c.id,
          response: (((c.result as Obj[])?.[0]?.functionResponse as Obj)?.response as Obj)?.output ?? '',
        })),
      });
    prev = m.timestamp;
  }
  const start = spans[0].startTimeUnixNano;
  const end = spans.at(-1)?.endTimeUnixNano;
  const agent = {
    traceId: trace,
    spanId: root,
    name: 'invoke_agent pomodoro',
    kind: 1,
    startTimeUnixNano: start,
    endTimeUnixNano: end,
    attributes: [
      attr('gen_ai.operation.name', 'invoke_agent'),
      attr('gen_ai.agent.name', 'pomodoro'),
      attr('gen_ai.conversation.id', rec.sessionId),
      attr('gen_ai.usage.input_tokens', totals.input),
      attr('gen_ai.usage.output_tokens', totals.output),
    ],
    status: { code: 1 },
  };
  // A sub-agent run (synthetic content): its own system instructions and history, two calls.
  const sub = id();
  const subStart = Number(BigInt(end as string) / 1000000n) + 1000;
  const subSpans: Obj[] = [
    {
      traceId: trace,
      spanId: sub,
      parentSpanId: root,
      name: 'invoke_agent reviewer',
      kind: 1,
      startTimeUnixNano: `${subStart}000000`,
      endTimeUnixNano: `${subStart + 9000}000000`,
      attributes: [attr('gen_ai.operation.name', 'invoke_agent'), attr('gen_ai.agent.name', 'reviewer')],
    },
  ];
  const review: Obj[] = [
    { role: 'user', parts: [{ type: 'text', content: 'Review script.js of the Pomodoro timer for bugs.' }] },
  ];
  const replies = ['I will read script.js.', 'script.js looks correct: the timer resets and the progress bar updates.'];
  replies.forEach((text, k) => {
    const reply = { role: 'assistant', parts: [{ type: 'text', content: text }], finish_reason: 'stop' };
    subSpans.push({
      traceId: trace,
      spanId: id(),
      parentSpanId: sub,
      name: 'chat gemini-2.5-flash',
      kind: 3,
      startTimeUnixNano: `${subStart + k * 4000}000000`,
      endTimeUnixNano: `${subStart + k * 4000 + 3000}000000`,
      attributes: [
        attr('gen_ai.operation.name', 'chat'),
        attr('gen_ai.request.model', 'gemini-2.5-flash'),
        attr('gen_ai.system_instructions', [{ type: 'text', content: 'You are a careful code reviewer.' }]),
        attr('gen_ai.input.messages', review),
        attr('gen_ai.output.messages', [reply]),
        attr('gen_ai.usage.input_tokens', [21, 47][k]),
        attr('gen_ai.usage.output_tokens', [8, 17][k]),
      ],
    });
    review.push(reply, { role: 'user', parts: [{ type: 'text', content: 'Go on.' }] });
  });
  const batch = (list: Obj[]) => ({
    resourceSpans: [
      {
        resource: { attributes: [attr('service.name', 'pomodoro-agent')] },
        scopeSpans: [{ scope: { name: 'opentelemetry.instrumentation.google_genai' }, spans: list }],
      },
    ],
  });
  const lines = [batch([agent, ...spans]), batch(subSpans)];
  write('otel-genai/pomodoro-genai-spans.json', `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
}

type Rows = { project?: Obj[]; session: Obj[]; message: Obj[]; part: Obj[] };

/** A row of opencode's `session` table. */
const sessionRow = (id: string, slug: string, title: string, parent: string | null, dir: string, time: number[]) => ({
  id,
  project_id: 'prj_pomodoro',
  parent_id: parent,
  slug,
  directory: dir,
  title,
  version: '1.2.10',
  time_created: time[0],
  time_updated: time[1],
});

/** A row of the `message` or `part` table: its JSON in `data`, the ids and times in columns. */
const dataRow = (keys: Obj, created: number, updated: number, data: Obj) => ({
  ...keys,
  time_created: created,
  time_updated: updated,
  data: JSON.stringify(data),
});

/** A user message as opencode writes it: the agent and the model the prompt was sent to. */
const userMessage = (id: string, session: string, time: number, providerID: string, modelID: string) =>
  dataRow({ id, session_id: session }, time, time, {
    role: 'user',
    time: { created: time },
    agent: 'build',
    model: { providerID, modelID },
  });

const POMODORO_DIR = '/home/dev/pomodoro';

/** The pomodoro chat as an opencode session: each user prompt a user message with a text part, each Gemini reply
 *  an assistant message of one step (step-start, text, tool parts with their outputs, step-finish with the reply's
 *  tokens as opencode stores them: input without the cached part, reasoning apart from output). */
function opencodeSession(id: string, title: string, dir: string): Rows {
  const rec = read('gemini-cli/yoavf-pomodoro-timer.json') as Obj & { messages: Obj[] };
  const rows: Rows = { session: [], message: [], part: [] };
  const t0 = Date.parse(String(rec.startTime));
  rows.session.push(sessionRow(id, 'pomodoro', title, null, dir, [t0, Date.parse(String(rec.lastUpdated))]));
  let n = 0;
  const mid = () => `msg_${id.slice(4)}_${String(++n).padStart(4, '0')}`;
  let parent = '';
  for (const m of rec.messages) {
    const time = Date.parse(String(m.timestamp));
    const msgId = mid();
    let p = 0;
    const part = (data: Obj) =>
      rows.part.push(
        dataRow(
          { id: `prt_${msgId.slice(4)}_${String(++p).padStart(3, '0')}`, message_id: msgId, session_id: id },
          time,
          time,
          data,
        ),
      );
    if (m.type === 'user') {
      parent = msgId;
      rows.message.push(userMessage(msgId, id, time, 'google', String(m.model ?? 'gemini-2.5-pro')));
      part({ type: 'text', text: String(m.content) });
      continue;
    }
    if (m.type !== 'gemini') continue;
    const t = (m.tokens ?? {}) as Record<string, number>;
    const tokens = {
      input: (t.input ?? 0) - (t.cached ?? 0),
      output: t.output ?? 0,
      reasoning: t.thoughts ?? 0,
      cache: { read: t.cached ?? 0, write: 0 },
    };
    const info = {
      role: 'assistant',
      parentID: parent,
      modelID: m.model,
      providerID: 'google',
      mode: 'build',
      agent: 'build',
      path: { cwd: dir, root: dir },
      cost: 0,
      tokens,
      time: { created: time, completed: time },
      finish: 'stop',
    };
    rows.message.push(dataRow({ id: msgId, session_id: id }, time, time, info));
    part({ type: 'step-start' });
    // The chat's thoughts are left out: Gemini CLI never sent them back, so its prompt counts hold none.
    if (m.content) part({ type: 'text', text: String(m.content), time: { start: time, end: time } });
    for (const c of (m.toolCalls as Obj[]) ?? []) {
      const out = (((c.result as Obj[])?.[0]?.functionResponse as Obj)?.response as Obj)?.output ?? '';
      part({
        type: 'tool',
        callID: c.id,
        tool: c.name,
        state: {
          status: 'completed',
          input: c.args ?? {},
          output: out,
          title: String(c.description ?? c.name),
          metadata: {},
          time: { start: time, end: time },
        },
      });
    }
    part({ type: 'step-finish', reason: (m.toolCalls as Obj[])?.length ? 'tool-calls' : 'stop', cost: 0, tokens });
  }
  return rows;
}

/** A small synthetic session: a prompt and one reply with usage (sessions tables, sub-agents). */
function smallSession(
  id: string,
  title: string,
  time: number,
  parent: string | null,
  model = 'claude-sonnet-4-5',
): Rows {
  const u = `msg_${id.slice(4)}_u`;
  const a = `msg_${id.slice(4)}_a`;
  const tokens = { input: 12, output: 240, reasoning: 0, cache: { read: 18200, write: 950 } };
  const part = (n: number, message: string, at: number, data: Obj) =>
    dataRow({ id: `prt_${id.slice(4)}_${n}`, message_id: message, session_id: id }, at, at, data);
  return {
    session: [sessionRow(id, id, title, parent, POMODORO_DIR, [time, time + 9000])],
    message: [
      userMessage(u, id, time, 'anthropic', model),
      dataRow({ id: a, session_id: id }, time + 4000, time + 9000, {
        role: 'assistant',
        parentID: u,
        modelID: model,
        providerID: 'anthropic',
        mode: 'build',
        agent: 'build',
        path: { cwd: POMODORO_DIR, root: POMODORO_DIR },
        cost: 0,
        tokens,
        time: { created: time + 4000, completed: time + 9000 },
      }),
    ],
    part: [
      part(1, u, time, { type: 'text', text: title }),
      part(2, a, time + 4000, { type: 'step-start' }),
      part(3, a, time + 9000, { type: 'text', text: 'Done: the review found nothing to change.' }),
      part(4, a, time + 9000, { type: 'step-finish', reason: 'stop', cost: 0, tokens }),
    ],
  };
}

const merge = (...all: Rows[]): Rows => ({
  project: [
    {
      id: 'prj_pomodoro',
      worktree: '/home/dev/pomodoro',
      vcs: 'git',
      name: 'pomodoro',
      time_created: 1761077060000,
      time_updated: 1761077330000,
    },
  ],
  session: all.flatMap((r) => r.session),
  message: all.flatMap((r) => r.message),
  part: all.flatMap((r) => r.part),
});

function writeDb(rel: string, batches: Rows[], wal = false): void {
  const tmp = mkdtempSync(join(tmpdir(), 'opencode-fixture-'));
  const spec = join(tmp, 'spec.json');
  writeFileSync(spec, JSON.stringify({ path: join(ROOT, rel), wal, batches }));
  console.log(
    execFileSync('python3', [resolve(import.meta.dirname, 'make-opencode-db.py'), spec], { encoding: 'utf8' }).trim(),
  );
  rmSync(tmp, { recursive: true, force: true });
}

/** opencode databases: one session with a sub-agent session (its `task` call in the root's last reply); three
 *  sessions (the sessions table); and a WAL-mode database whose last session is only in its -wal file. */
function opencodeDbs(): void {
  const root = opencodeSession('ses_pomodoro01', 'Build a Pomodoro timer', '/home/dev/pomodoro');
  const last = root.message.at(-1) as Obj;
  const time = Number(last.time_created) + 60000;
  const child = smallSession(
    'ses_review0001',
    'Review script.js for bugs (@general subagent)',
    time + 1000,
    'ses_pomodoro01',
  );
  // The user asks for a review; the reply calls the `task` tool, whose sub-agent session is the child.
  const ask = 'msg_pomodoro01_ask';
  root.message.push({
    id: ask,
    session_id: 'ses_pomodoro01',
    time_created: time - 5000,
    time_updated: time - 5000,
    data: JSON.stringify({
      role: 'user',
      time: { created: time - 5000 },
      agent: 'build',
      model: { providerID: 'google', modelID: 'gemini-2.5-pro' },
    }),
  });
  root.part.push({
    id: 'prt_pomodoro01_ask_1',
    message_id: ask,
    session_id: 'ses_pomodoro01',
    time_created: time - 5000,
    time_updated: time - 5000,
    data: JSON.stringify({ type: 'text', text: 'Have a sub-agent review script.js for bugs.' }),
  });
  const callMsg = 'msg_pomodoro01_task';
  const tokens = { input: 80, output: 60, reasoning: 0, cache: { read: 12700, write: 0 } };
  root.message.push({
    id: callMsg,
    session_id: 'ses_pomodoro01',
    time_created: time,
    time_updated: time + 12000,
    data: JSON.stringify({
      role: 'assistant',
      parentID: ask,
      modelID: 'gemini-2.5-pro',
      providerID: 'google',
      mode: 'build',
      agent: 'build',
      path: { cwd: '/home/dev/pomodoro', root: '/home/dev/pomodoro' },
      cost: 0,
      tokens,
      time: { created: time, completed: time + 12000 },
    }),
  });
  const task = (k: number, data: Obj) =>
    root.part.push({
      id: `prt_pomodoro01_task_${k}`,
      message_id: callMsg,
      session_id: 'ses_pomodoro01',
      time_created: time,
      time_updated: time,
      data: JSON.stringify(data),
    });
  task(1, { type: 'step-start' });
  task(2, {
    type: 'tool',
    callID: 'toolu_task_1',
    tool: 'task',
    state: {
      status: 'completed',
      input: { description: 'Review script.js', prompt: 'Review script.js for bugs', subagent_type: 'general' },
      output: 'Done: the review found nothing to change.',
      title: 'Review script.js',
      metadata: { sessionId: 'ses_review0001' },
      time: { start: time, end: time + 11000 },
    },
  });
  task(3, { type: 'step-finish', reason: 'tool-calls', cost: 0, tokens });
  writeDb('opencode/one-session/opencode.db', [merge(root, child)]);
  const t2 = time + 3600_000;
  writeDb('opencode/three-sessions/opencode.db', [
    merge(
      root,
      child,
      smallSession('ses_readme0001', 'Write a README for the timer', t2, null),
      smallSession('ses_tests00001', 'Add tests for the timer', t2 + 3600_000, null),
    ),
  ]);
  writeDb(
    'opencode/wal/opencode.db',
    [merge(root), { ...merge(smallSession('ses_walonly001', 'A session only in the WAL', t2, null)), project: [] }],
    true,
  );
}

geminiMigration();
harborAtif();
otelSpans();
opencodeDbs();
clineTask(false);
clineTask(true);
