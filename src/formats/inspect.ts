// Inspect AI eval logs (JSON, log version 2; formats.md §4): each sample becomes a main thread built from
// `sample.messages` (OpenAI-like ChatMessages), and each `model` event a request whose input is the first
// `input.length` messages. Long strings stored as `attachment://<hash>` are resolved from `sample.attachments`.
// Model events whose input is not a prefix of the sample's messages (scorers, sub-agents) become side calls.
import { arr, display, isObject, type JsonObject, num, str, toEpochMs } from '../lib/json.ts';
import type {
  Message,
  ObservedUsage,
  ParseIssue,
  Request,
  Thread,
  ToolDef,
  TranscriptMeta,
} from '../model/transcript.ts';
import { anthropicUsage } from './anthropic-blocks.ts';
import { deepEqual, openaiMessages, openaiTools, openaiUsage } from './openai-messages.ts';
import { makeTranscript, newThread } from './thread.ts';
import type { FormatParser } from './types.ts';

const ATTACHMENT = 'attachment://';

/** Deep copy of `v` with every `attachment://<hash>` string replaced by its text; unknown hashes are counted. */
function resolveAttachments(v: unknown, attachments: JsonObject, missing: Set<string>, depth = 0): unknown {
  if (typeof v === 'string') {
    if (!v.startsWith(ATTACHMENT)) return v;
    const text = str(attachments[v.slice(ATTACHMENT.length)]);
    if (text === undefined) missing.add(v);
    return text ?? v;
  }
  if (typeof v !== 'object' || v === null || depth > 1000) return v;
  if (Array.isArray(v)) return v.map((x) => resolveAttachments(x, attachments, missing, depth + 1));
  const out: JsonObject = {};
  for (const [k, x] of Object.entries(v)) out[k] = resolveAttachments(x, attachments, missing, depth + 1);
  return out;
}

/**
 * Inspect's usage follows the provider: for OpenAI-style providers `input_tokens` includes the cache read,
 * for Anthropic it does not. Prefer the raw provider usage in `call.response.usage`; otherwise tell the two
 * apart by `total_tokens` (= input + output when the cache read is included), then by the model name.
 */
function inspectUsage(event: JsonObject): ObservedUsage | undefined {
  const call = isObject(event.call) ? event.call : undefined;
  const raw = call && isObject(call.response) ? call.response.usage : undefined;
  if (isObject(raw) && num(raw.prompt_tokens) !== undefined) return openaiUsage(raw);
  if (isObject(raw) && num(raw.cache_read_input_tokens) !== undefined) return anthropicUsage(raw);
  const output = isObject(event.output) ? event.output : {};
  const u = isObject(output.usage) ? output.usage : undefined;
  const input = u ? num(u.input_tokens) : undefined;
  if (!u || input === undefined) return undefined;
  const cacheRead = num(u.input_tokens_cache_read) ?? 0;
  const cacheWrite = num(u.input_tokens_cache_write) ?? 0;
  const out = num(u.output_tokens) ?? 0;
  const total = num(u.total_tokens);
  let included = !/anthropic|claude/i.test(str(event.model) ?? '');
  if (total !== undefined && cacheRead + cacheWrite > 0) {
    if (total === input + out) included = true;
    else if (total === input + out + cacheRead + cacheWrite) included = false;
  }
  const uncached = included ? Math.max(0, input - cacheRead - cacheWrite) : input;
  return { input: uncached, cacheRead, cacheWrite, output: out };
}

/** Same ChatMessage: equal ids when both have one, else (unless `idsOnly`) equal role and content. */
function sameChatMessage(a: unknown, b: unknown, idsOnly = false): boolean {
  if (!isObject(a) || !isObject(b)) return false;
  const ia = str(a.id);
  const ib = str(b.id);
  if (ia !== undefined && ib !== undefined) return ia === ib;
  if (idsOnly) return false;
  return a.role === b.role && deepEqual(a.content, b.content) && deepEqual(a.tool_calls, b.tool_calls);
}

function toMessages(raw: unknown[], base: string, issues: ParseIssue[]): Message[] {
  return openaiMessages(raw, {
    locate: (j) => ({ line: 0, path: `${base}[${j}]` }),
    issue: (severity, message, j) => issues.push({ line: 0, severity, message: `${base}[${j}]: ${message}` }),
  });
}

function modelRequest(event: JsonObject, inputEnd: number, threadId: string): Request {
  const r: Request = { index: 0, thread: threadId, inputEnd };
  const output = isObject(event.output) ? event.output : {};
  const model = str(output.model) ?? str(event.model);
  if (model !== undefined) r.model = model;
  const time = toEpochMs(event.timestamp);
  if (time !== undefined) r.time = time;
  const done = toEpochMs(event.completed);
  if (done !== undefined) r.responseTime = done;
  const observed = inspectUsage(event);
  if (observed) r.observed = observed;
  return r;
}

function withTools(r: Request, tools: ToolDef[] | undefined, thread: Thread): void {
  if (!tools) return;
  thread.prefix.tools ??= tools;
  r.exactPrefix = { tools: deepEqual(thread.prefix.tools, tools) ? thread.prefix.tools : tools };
}

/** One sample → its main thread plus a side-call thread per model event that is not on the main history. */
function sampleThreads(sample: JsonObject, i: number, issues: ParseIssue[]): Thread[] {
  const at = `samples[${i}]`;
  const attachments = isObject(sample.attachments) ? sample.attachments : {};
  const missing = new Set<string>();
  const resolve = (v: unknown) => resolveAttachments(v, attachments, missing);
  const sid = display(sample.id ?? i);
  const epoch = display(sample.epoch ?? 1);
  const id = `sample-${sid}-${epoch}`;
  const main = newThread(id, 'main', `Sample ${sid} (epoch ${epoch})`);
  const rawMessages = arr(resolve(sample.messages)) ?? [];
  if (!Array.isArray(sample.messages))
    issues.push({ line: 0, severity: 'warning', message: `${at}.messages: missing` });
  main.messages = toMessages(rawMessages, `${at}.messages`, issues);
  const threads = [main];

  const events = arr(sample.events) ?? [];
  events.forEach((ev, k) => {
    if (!isObject(ev) || ev.event !== 'model') return;
    // Matching by message id needs no resolution; only the parts read below are resolved (not `call`).
    const rawInput = arr(ev.input) ?? [];
    const byId =
      rawInput.length <= rawMessages.length && rawInput.every((m, j) => sameChatMessage(m, rawMessages[j], true));
    const input = byId ? rawInput : (arr(resolve(ev.input)) ?? []);
    const event: JsonObject = { ...ev, tools: resolve(ev.tools), output: resolve(ev.output) };
    const tools = openaiTools(event.tools);
    const onMain =
      byId || (input.length <= rawMessages.length && input.every((m, j) => sameChatMessage(m, rawMessages[j])));
    if (onMain) {
      const r = modelRequest(event, input.length, main.id);
      const reply = main.messages[input.length];
      if (reply?.role === 'assistant') {
        r.responseEnd = input.length + 1;
        if (r.responseTime !== undefined) reply.time ??= r.responseTime;
      }
      withTools(r, tools, main);
      main.requests.push(r);
      return;
    }
    // Not a prefix of the sample's history: its own thread (input + output message).
    const side = newThread(`${id}-call-${k}`, 'side-call', `model call (event ${k})`);
    side.messages = toMessages(input, `${at}.events[${k}].input`, issues);
    const output = isObject(event.output) ? event.output : {};
    const choice = arr(output.choices)?.[0];
    const r = modelRequest(event, side.messages.length, side.id);
    if (isObject(choice) && choice.message !== undefined) {
      const [reply] = toMessages([choice.message], `${at}.events[${k}].output.choices`, issues);
      if (reply) side.messages.push({ ...reply, index: side.messages.length });
      r.responseEnd = side.messages.length;
    }
    withTools(r, tools, side);
    side.requests.push(r);
    threads.push(side);
  });
  if (missing.size > 0) {
    issues.push({
      line: 0,
      severity: 'warning',
      message: `${at}: ${missing.size} attachment reference(s) not found in attachments (e.g. ${[...missing][0]}); kept as is`,
    });
  }
  if (isObject(sample.error)) {
    issues.push({
      line: 0,
      severity: 'info',
      message: `${at}: the sample ended with an error: ${str(sample.error.message) ?? ''}`,
    });
  }
  return threads;
}

export const inspectParser: FormatParser = {
  id: 'inspect',
  label: 'Inspect AI eval log',
  sniff: (head) => {
    const d = head.doc;
    return isObject(d) && d.version !== undefined && isObject(d.eval);
  },
  parse: (input) => {
    const issues: ParseIssue[] = [];
    const doc = input.doc();
    if (!isObject(doc)) {
      issues.push({ line: 0, severity: 'error', message: 'the file is not one JSON object; nothing to load' });
      return makeTranscript('inspect', {}, [], issues);
    }
    const ev = isObject(doc.eval) ? doc.eval : {};
    const meta: TranscriptMeta = {};
    if (doc.version !== undefined) meta.version = display(doc.version);
    const task = str(ev.task);
    if (task !== undefined) meta.title = task;
    const sessionId = str(ev.eval_id) ?? str(ev.run_id);
    if (sessionId !== undefined) meta.sessionId = sessionId;
    const extra: Record<string, string> = {};
    for (const [k, v] of [
      ['task', task],
      ['model', str(ev.model)],
      ['status', str(doc.status)],
      ['created', str(ev.created)],
    ] as const) {
      if (v !== undefined) extra[k] = v;
    }
    if (Object.keys(extra).length > 0) meta.extra = extra;
    const samples = arr(doc.samples);
    if (!samples) {
      issues.push({
        line: 0,
        severity: 'info',
        message: 'the log has no samples (header-only log, e.g. written with --no-log-samples); nothing to replay',
      });
      return makeTranscript('inspect', meta, [], issues);
    }
    const threads: Thread[] = [];
    samples.forEach((s, i) => {
      if (isObject(s)) threads.push(...sampleThreads(s, i, issues));
      else issues.push({ line: 0, severity: 'error', message: `samples[${i}]: not an object; skipped` });
    });
    return makeTranscript('inspect', meta, threads, issues);
  },
};
