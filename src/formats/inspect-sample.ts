// One Inspect AI sample → threads (formats.md §4), shared by the `.json` log and the `.eval` archive: the main
// thread is built from `sample.messages` (OpenAI-like ChatMessages), each `model` event a request whose input is
// the first `input.length` messages. Long strings stored as `attachment://<hash>` are resolved from
// `sample.attachments`; inputs condensed into a message pool (`input_refs` ranges into `events_data.messages`, or
// `message_pool` in log v3) are expanded. Model events whose input is not a prefix of the history become side calls.
import { arr, display, isObject, type JsonObject, num, str, toEpochMs } from '../lib/json.ts';
import type { Message, ObservedUsage, ParseIssue, Request, Thread, ToolDef } from '../model/transcript.ts';
import { anthropicUsage } from './anthropic-blocks.ts';
import { deepEqual, openaiMessages, openaiTools, openaiUsage } from './openai-messages.ts';
import { newThread } from './thread.ts';

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
 * A model event's input: inline, or range-encoded `input_refs` ([start, end) pairs) into the sample's message
 * pool. Refs outside the pool are dropped (as Inspect does) and counted in `bad`.
 */
function eventInput(ev: JsonObject, pool: unknown[] | undefined, bad: { refs: number }): unknown[] {
  const inline = arr(ev.input) ?? [];
  const refs = arr(ev.input_refs);
  if (inline.length > 0 || !refs) return inline;
  const out: unknown[] = [];
  for (const r of refs) {
    const [start, end] = arr(r) ?? [];
    const a = num(start);
    const b = num(end);
    if (!pool || a === undefined || b === undefined || a < 0 || b > pool.length || a > b) bad.refs++;
    else for (let k = a; k < b; k++) out.push(pool[k]);
  }
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

/** The sample's message pool: `events_data.messages` (current logs) or `message_pool` (log v3). */
function messagePool(sample: JsonObject): unknown[] | undefined {
  const data = isObject(sample.events_data) ? sample.events_data : undefined;
  return arr(data?.messages) ?? arr(sample.message_pool);
}

/**
 * One sample → its main thread plus a side-call thread per model event that is not on the main history.
 * `at` names the sample in issues (`samples[3]` in a `.json` log, `samples/3_epoch_1.json` in a `.eval`) and `path`
 * prefixes the JSON paths of its messages (`samples[3].`, `samples/3_epoch_1.json:`); `index` stands in for a
 * missing sample id.
 */
export function sampleThreads(
  sample: JsonObject,
  index: number,
  issues: ParseIssue[],
  at: string,
  path = `${at}.`,
): Thread[] {
  const attachments = isObject(sample.attachments) ? sample.attachments : {};
  const missing = new Set<string>();
  const resolve = (v: unknown) => resolveAttachments(v, attachments, missing);
  const sid = display(sample.id ?? index);
  const epoch = display(sample.epoch ?? 1);
  const id = `sample-${sid}-${epoch}`;
  const main = newThread(id, 'main', `Sample ${sid} (epoch ${epoch})`);
  const rawMessages = arr(resolve(sample.messages)) ?? [];
  if (!Array.isArray(sample.messages))
    issues.push({ line: 0, severity: 'warning', message: `${path}messages: missing` });
  main.messages = toMessages(rawMessages, `${path}messages`, issues);
  const threads = [main];
  const pool = messagePool(sample);
  const bad = { refs: 0 };

  const events = arr(sample.events) ?? [];
  events.forEach((ev, k) => {
    if (!isObject(ev) || ev.event !== 'model') return;
    // Matching by message id needs no resolution; only the parts read below are resolved (not `call`).
    const rawInput = eventInput(ev, pool, bad);
    const byId =
      rawInput.length <= rawMessages.length && rawInput.every((m, j) => sameChatMessage(m, rawMessages[j], true));
    const input = byId ? rawInput : (arr(resolve(rawInput)) ?? []);
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
    side.messages = toMessages(input, `${path}events[${k}].input`, issues);
    const output = isObject(event.output) ? event.output : {};
    const choice = arr(output.choices)?.[0];
    const r = modelRequest(event, side.messages.length, side.id);
    if (isObject(choice) && choice.message !== undefined) {
      const [reply] = toMessages([choice.message], `${path}events[${k}].output.choices`, issues);
      if (reply) side.messages.push({ ...reply, index: side.messages.length });
      r.responseEnd = side.messages.length;
    }
    withTools(r, tools, side);
    side.requests.push(r);
    threads.push(side);
  });
  if (bad.refs > 0) {
    const where = pool ? `outside the ${pool.length}-message pool` : 'but the sample has no message pool';
    issues.push({
      line: 0,
      severity: 'warning',
      message: `${at}: ${bad.refs} model-event input_refs range(s) ${where}; those inputs are shorter`,
    });
  }
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

/**
 * Thread ids made unique in place: two samples with one id and epoch (or a sample without an id whose stand-in
 * collides) would otherwise share a thread id; later ones become `<id>~2`, `<id>~3` with a warning.
 */
export function uniqueThreadIds(threads: Thread[], issues: ParseIssue[]): void {
  const seen = new Set<string>();
  for (const th of threads) {
    if (seen.has(th.id)) {
      let k = 2;
      while (seen.has(`${th.id}~${k}`)) k++;
      const id = `${th.id}~${k}`;
      issues.push({
        line: 0,
        severity: 'warning',
        message: `two samples make thread ${th.id}; the later one is ${id}`,
      });
      th.id = id;
    }
    seen.add(th.id);
  }
}
