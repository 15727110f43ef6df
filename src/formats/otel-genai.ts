// OpenTelemetry GenAI spans in OTLP JSON (otel-spans.ts), as the GenAI semantic conventions define them and
// exporters write them (Development status; the conventions moved to their own repository in 2026). A model call is
// a span whose `gen_ai.operation.name` is chat / text_completion / generate_content, or that carries messages: its
// input is `gen_ai.input.messages` (roles with parts: text, tool_call, tool_call_response, reasoning, blob/uri),
// its reply `gen_ai.output.messages`, its prefix `gen_ai.system_instructions` and `gen_ai.tool.definitions`; the
// older OpenLLMetry attributes `gen_ai.prompt.N.*` / `gen_ai.completion.N.*` are read too. Calls are grouped into
// threads by their inputs, as request logs are (request-threads.ts): a sub-agent's calls, whose inputs share no
// prefix with the main agent's, become a thread titled by its `invoke_agent` span's `gen_ai.agent.name`.
// Usage: `gen_ai.usage.input_tokens` "SHOULD include all types of input tokens, including cached tokens", with
// `gen_ai.usage.cache_read.input_tokens` and `gen_ai.usage.cache_creation.input_tokens` beside it (an exporter that
// writes Anthropic's raw `input_tokens`, smaller than the cache figures, is read as uncached). Some exporters repeat
// a run's totals on the enclosing span under the same names: usage counts only on the innermost span that has it,
// and usage on a span that is no model call (an agent's totals with no model spans below) is billed but kept apart.
import { pushAll } from '../lib/arrays.ts';
import { arr, display, isObject, num, str, tryParseJson } from '../lib/json.ts';
import type { BilledResponse, Block, Message, ObservedUsage, Request, Thread, ToolDef } from '../model/transcript.ts';
import { geminiBlocks } from './gemini-parts.ts';
import { jsonLines, linesAreJson } from './jsonl.ts';
import { isTracesData, type Span, spansOf } from './otel-spans.ts';
import { createThreadGrouper } from './request-threads.ts';
import { makeTranscript, newThread } from './thread.ts';
import type { FormatParser, ParseContext, ParseInput, SniffHead } from './types.ts';

// `llm_call`: Gemini CLI's own spans (packages/core/src/core/loggingContentGenerator.ts, GeminiCliOperation.LLMCall).
const MODEL_OPS = new Set(['chat', 'text_completion', 'generate_content', 'completion', 'responses', 'llm_call']);
const first = (a: Map<string, unknown>, keys: string[]) => {
  for (const k of keys) if (a.has(k)) return a.get(k);
  return undefined;
};
const count = (v: unknown) => {
  const n = typeof v === 'string' ? Number(v) : num(v);
  return n !== undefined && Number.isFinite(n) ? n : undefined;
};

/** The span's usage under the conventions' rule (input includes the cache figures). */
function usageOf(a: Map<string, unknown>): { usage: ObservedUsage; reasoning?: number } | undefined {
  const input = count(first(a, ['gen_ai.usage.input_tokens', 'gen_ai.usage.prompt_tokens']));
  const output = count(first(a, ['gen_ai.usage.output_tokens', 'gen_ai.usage.completion_tokens']));
  if (input === undefined && output === undefined) return undefined;
  const read =
    count(
      first(a, [
        'gen_ai.usage.cache_read.input_tokens',
        'gen_ai.usage.cache_read_input_tokens',
        'gen_ai.usage.cached_tokens',
      ]),
    ) ?? 0;
  const write =
    count(first(a, ['gen_ai.usage.cache_creation.input_tokens', 'gen_ai.usage.cache_creation_input_tokens'])) ?? 0;
  if ((input ?? 0) + (output ?? 0) === 0) return undefined;
  const total = input ?? 0;
  const uncached = total >= read + write ? total - read - write : total;
  const usage = { input: uncached, cacheRead: read, cacheWrite: write, output: output ?? 0 };
  const reasoning = count(a.get('gen_ai.usage.reasoning_tokens'));
  return reasoning !== undefined ? { usage, reasoning } : { usage };
}

/** A JSON attribute: an array/object as exported, or its JSON string. */
function jsonAttr(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const r = tryParseJson(v);
  return r.ok ? r.value : undefined;
}

function partBlock(p: unknown): Block {
  if (typeof p === 'string') return { type: 'text', text: p };
  if (!isObject(p)) return { type: 'other', kind: typeof p, raw: p };
  // Gemini CLI exports the API's own Content parts ({text}, {functionCall}, {functionResponse}) without a type.
  if (p.type === undefined) return geminiBlocks([p])[0] ?? { type: 'other', kind: 'part', raw: p };
  switch (p.type) {
    case 'text':
      return { type: 'text', text: str(p.content) ?? str(p.text) ?? '' };
    case 'reasoning':
      return { type: 'thinking', thinking: str(p.content) ?? '' };
    case 'tool_call': {
      const args = typeof p.arguments === 'string' ? (jsonAttr(p.arguments) ?? p.arguments) : p.arguments;
      return { type: 'tool_use', id: str(p.id) ?? '', name: str(p.name) ?? '', input: args ?? {} };
    }
    case 'tool_call_response': {
      const res = p.response ?? p.result;
      const content = typeof res === 'string' ? res : (JSON.stringify(res ?? null) ?? '');
      return { type: 'tool_result', toolUseId: str(p.id) ?? '', content, isError: false };
    }
    case 'blob':
    case 'uri':
    case 'file':
      return p.modality === 'image'
        ? { type: 'image', mediaType: str(p.mime_type), source: p }
        : { type: 'other', kind: display(p.type, 40), raw: p };
    default:
      return { type: 'other', kind: str(p.type) ?? 'part', raw: p };
  }
}

/** `[{role, parts}]` messages as Messages; a `tool` message's parts are tool results in a user message. */
function semconvMessages(v: unknown, span: Span, side: string): Message[] {
  const value = jsonAttr(v);
  // Gemini CLI's spans hold the reply as one Content object, not a list.
  const list = arr(value) ?? (isObject(value) ? [value] : []);
  return list.filter(isObject).map((m, i) => {
    const role = m.role === 'assistant' || m.role === 'model' ? 'assistant' : m.role === 'system' ? 'system' : 'user';
    const parts = arr(m.parts) ?? (m.content !== undefined ? [{ type: 'text', content: m.content }] : []);
    return {
      index: i,
      role,
      blocks: parts.map(partBlock),
      source: { line: span.line, path: `${span.path}.${side}[${i}]`, uuid: `${span.spanId}:${side}:${i}` },
    };
  });
}

/** OpenLLMetry's indexed attributes: gen_ai.prompt.N.{role,content,tool_call_id}, gen_ai.completion.N.{…}. */
function indexedMessages(a: Map<string, unknown>, prefix: string, span: Span): Message[] {
  const out: Message[] = [];
  for (let i = 0; a.has(`${prefix}.${i}.role`) || a.has(`${prefix}.${i}.content`); i++) {
    const at = (k: string) => a.get(`${prefix}.${i}.${k}`);
    const role = at('role') === 'assistant' ? 'assistant' : at('role') === 'system' ? 'system' : 'user';
    const blocks: Block[] = [];
    const content = str(at('content'));
    const callId = str(at('tool_call_id'));
    if (at('role') === 'tool')
      blocks.push({ type: 'tool_result', toolUseId: callId ?? '', content: content ?? '', isError: false });
    else if (content) blocks.push({ type: 'text', text: content });
    for (let j = 0; a.has(`${prefix}.${i}.tool_calls.${j}.name`); j++) {
      const args = at(`tool_calls.${j}.arguments`);
      blocks.push({
        type: 'tool_use',
        id: str(at(`tool_calls.${j}.id`)) ?? '',
        name: str(at(`tool_calls.${j}.name`)) ?? '',
        input: jsonAttr(args) ?? args ?? {},
      });
    }
    out.push({
      index: i,
      role,
      blocks,
      source: { line: span.line, path: `${span.path}.${prefix}.${i}`, uuid: `${span.spanId}:${prefix}:${i}` },
    });
  }
  return out;
}

function toolDefs(v: unknown): ToolDef[] | undefined {
  const list = arr(jsonAttr(v));
  return list?.filter(isObject).map((t) => {
    const f = isObject(t.function) ? t.function : t;
    const def: ToolDef = { name: str(f.name) ?? 'unknown' };
    const d = str(f.description);
    if (d) def.description = d;
    if (f.parameters !== undefined) def.inputSchema = f.parameters;
    return def;
  });
}

function readSpans(input: ParseInput, ctx: ParseContext): Span[] {
  // One body per line (the Collector's file exporter), or one pretty-printed body.
  const doc = linesAreJson(input) ? undefined : input.doc();
  if (isTracesData(doc)) return spansOf(doc, 0);
  const out: Span[] = [];
  for (const { line, value } of jsonLines(input, ctx)) {
    if (isTracesData(value)) pushAll(out, spansOf(value, line.no));
    else
      ctx.issue({ line: line.no, severity: 'warning', message: 'not an OTLP traces body (no resourceSpans); skipped' });
  }
  return out;
}

export const otelGenaiParser: FormatParser = {
  id: 'otel-genai',
  label: 'OpenTelemetry GenAI spans (OTLP JSON)',
  sniff: (head: SniffHead) => {
    const bodies = [head.doc, ...head.lines].filter(isTracesData);
    return bodies.some((b) => JSON.stringify(b).includes('gen_ai.'));
  },
  parse: (input: ParseInput, ctx: ParseContext) => {
    const spans = readSpans(input, ctx);
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const withUsage = new Set(spans.filter((s) => usageOf(s.attrs)).map((s) => s.spanId));
    // A span whose descendants carry usage repeats their totals.
    const aggregate = new Set<string>();
    for (const s of spans) {
      if (!withUsage.has(s.spanId)) continue;
      const seen = new Set<string>();
      for (let p = s.parentSpanId; p && !seen.has(p); p = byId.get(p)?.parentSpanId) {
        seen.add(p);
        if (withUsage.has(p)) aggregate.add(p);
      }
    }
    const agentOf = (s: Span) => {
      const seen = new Set<string>();
      for (
        let p: Span | undefined = s;
        p && !seen.has(p.spanId);
        p = p.parentSpanId ? byId.get(p.parentSpanId) : undefined
      ) {
        seen.add(p.spanId);
        const name = str(p.attrs.get('gen_ai.agent.name'));
        if (name && p.attrs.get('gen_ai.operation.name') === 'invoke_agent') return name;
      }
      return undefined;
    };
    const calls: Span[] = [];
    const billed: BilledResponse[] = [];
    for (const s of spans) {
      const op = str(s.attrs.get('gen_ai.operation.name'));
      const messages =
        s.attrs.has('gen_ai.input.messages') ||
        s.attrs.has('gen_ai.output.messages') ||
        s.attrs.has('gen_ai.prompt.0.role');
      const model =
        (op !== undefined && MODEL_OPS.has(op)) || messages || (op === undefined && withUsage.has(s.spanId));
      if (model && !aggregate.has(s.spanId)) calls.push(s);
      else if (withUsage.has(s.spanId) && !aggregate.has(s.spanId)) {
        const u = usageOf(s.attrs);
        if (u)
          billed.push({
            why: 'no-request',
            usage: u.usage,
            line: s.line,
            ...(s.start !== undefined ? { time: s.start } : {}),
          });
      }
    }
    if (aggregate.size > 0)
      ctx.issue({
        line: 0,
        severity: 'info',
        message: `${aggregate.size} span(s) repeat the usage of the spans below them (a run's totals): counted once, on the innermost`,
      });
    calls.sort((a, b) => (a.start ?? 0) - (b.start ?? 0));
    const grouper = createThreadGrouper();
    let unreadable = 0;
    const placed = calls.map((s) => {
      const a = s.attrs;
      for (const k of ['gen_ai.input.messages', 'gen_ai.output.messages'])
        if (typeof a.get(k) === 'string' && jsonAttr(a.get(k)) === undefined && unreadable++ === 0)
          ctx.issue({
            line: s.line,
            severity: 'warning',
            message: `span ${s.spanId}: ${k} is not JSON (an exporter that truncates long values, as Gemini CLI's does at 10,000 characters, cut it): that call's messages are unknown`,
          });
      const input = a.has('gen_ai.input.messages')
        ? semconvMessages(a.get('gen_ai.input.messages'), s, 'input')
        : indexedMessages(a, 'gen_ai.prompt', s);
      const output = a.has('gen_ai.output.messages')
        ? semconvMessages(a.get('gen_ai.output.messages'), s, 'output')
        : indexedMessages(a, 'gen_ai.completion', s);
      return { s, placement: grouper.add(input, output) };
    });
    const agents = new Map<number, string | undefined>();
    for (const p of placed) if (!agents.has(p.placement.thread)) agents.set(p.placement.thread, agentOf(p.s));
    const mainAgent = agents.get(0);
    const threads: Thread[] = grouper.threads.map((g, t) => {
      const agent = agents.get(t);
      const kind = t === 0 ? 'main' : agent && agent !== mainAgent ? 'sidechain' : 'side-call';
      const th = newThread(
        t === 0 ? 'main' : `call-${t}`,
        kind,
        t === 0 ? agent : agent ? `sub-agent · ${agent}` : undefined,
      );
      th.messages = g.messages;
      return th;
    });
    for (const { s, placement } of placed) {
      const th = threads[placement.thread];
      const a = s.attrs;
      const r: Request = {
        index: th.requests.length,
        thread: th.id,
        inputEnd: placement.inputEnd,
        exactInput: placement.exactInput,
      };
      if (placement.responseEnd !== undefined) r.responseEnd = placement.responseEnd;
      const system = a.has('gen_ai.system_instructions')
        ? (arr(jsonAttr(a.get('gen_ai.system_instructions'))) ?? []).map(partBlock)
        : undefined;
      const tools = toolDefs(a.get('gen_ai.tool.definitions'));
      if (system || tools) r.exactPrefix = { ...(system ? { system } : {}), ...(tools ? { tools } : {}) };
      if (th.requests.length === 0 && r.exactPrefix) th.prefix = r.exactPrefix;
      const model = str(first(a, ['gen_ai.response.model', 'gen_ai.request.model']));
      if (model) r.model = model;
      if (s.start !== undefined) r.time = s.start;
      if (s.end !== undefined) r.responseTime = s.end;
      const u = usageOf(a);
      if (u) {
        r.observed = u.usage;
        if (u.reasoning !== undefined) r.reasoningOutput = u.reasoning;
      }
      const id = str(a.get('gen_ai.response.id'));
      if (id) r.requestId = id;
      r.line = s.line;
      th.requests.push(r);
    }
    if (billed.length > 0) {
      if (threads.length === 0) threads.push(newThread('main', 'main'));
      threads[0].billedApart = billed;
    }
    const conversation = spans.map((s) => str(s.attrs.get('gen_ai.conversation.id'))).find(Boolean);
    const service = spans.map((s) => s.service).find(Boolean);
    const meta = {
      fileName: input.main.name,
      ...(conversation ? { sessionId: conversation } : {}),
      extra: { spans: spans.length, modelCalls: calls.length, ...(service ? { service } : {}) },
    };
    return makeTranscript('otel-genai', meta, threads);
  },
};
