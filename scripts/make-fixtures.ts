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
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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

geminiMigration();
harborAtif();
otelSpans();
clineTask(false);
clineTask(true);
