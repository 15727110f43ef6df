// claude-trace logs (formats.md §2): one line per HTTP request/response pair Claude Code sent. Messages API
// calls become Requests with their exact input and prefix; responses (JSON body, SSE text in `body_raw`, or
// parsed `events`) become the assistant message and observed usage. Pairs are grouped into threads by
// message prefix; side calls (titles, quota probes, topic checks) get their own threads, and the conversation
// that continues after Claude Code's own compaction joins the one it continues. Of the headers only
// `request-id` and the Claude Code version in `user-agent` are read: credentials never enter the model.

import { pushAll } from '../lib/arrays.ts';
import { arr, isObject, type JsonObject, num, preview, str, toEpochMs, tryParseJson } from '../lib/json.ts';
import type { Message } from '../model/transcript.ts';
import { anthropicContent, anthropicUsage } from './anthropic-blocks.ts';
import { buildRequestThreads, createBodyReader, type LoggedRequest } from './anthropic-request.ts';
import { jsonLines } from './jsonl.ts';
import { createThreadGrouper } from './request-threads.ts';
import { assembleAnthropicStream, looksLikeSse, parseSse } from './sse.ts';
import { bump, makeTranscript } from './thread.ts';
import type { FormatParser } from './types.ts';

function isPair(v: unknown): v is JsonObject & { request: JsonObject } {
  return isObject(v) && isObject(v.request) && 'response' in v && v.logged_at !== undefined;
}

/** Case-insensitive header lookup (only for the few headers we need). */
function header(headers: unknown, name: string): string | undefined {
  if (!isObject(headers)) return undefined;
  for (const k of Object.keys(headers)) if (k.toLowerCase() === name) return str(headers[k]);
  return undefined;
}

/** A response read from a pair: the assistant content, or why there is none. */
type ResponseRead = {
  content?: unknown[];
  id?: string;
  model?: string;
  usage?: unknown;
  time?: number;
  requestId?: string;
  /** Where the content came from, as a JSON path in the line. */
  path?: string;
  /** Set when the request has no usable response (error status, error event, none recorded). */
  problem?: string;
  /** Lesser problems: the content is kept. */
  notes: string[];
};

function errorText(body: unknown): string {
  if (typeof body === 'string') {
    const r = tryParseJson(body);
    return r.ok && isObject(r.value) ? errorText(r.value) : preview(body, 160);
  }
  if (isObject(body)) {
    const e = isObject(body.error) ? body.error : body;
    const type = str(e.type);
    const message = str(e.message);
    if (type || message) return [type, message].filter(Boolean).join(': ');
  }
  return 'no error details';
}

function fromMessage(out: ResponseRead, body: JsonObject, path: string): ResponseRead {
  if (body.type === 'error' || isObject(body.error)) return { ...out, problem: `error response: ${errorText(body)}` };
  out.content = arr(body.content) ?? [];
  out.id = str(body.id);
  out.model = str(body.model);
  out.usage = body.usage;
  out.path = path;
  return out;
}

function fromStream(
  out: ResponseRead,
  events: Iterable<{ event?: string; data: unknown }>,
  path: string,
): ResponseRead {
  const s = assembleAnthropicStream(events);
  pushAll(out.notes, s.problems);
  if (s.error !== undefined) return { ...out, problem: `stream error event: ${s.error}` };
  if (!s.complete) out.notes.push('the stream ends without message_stop (cut off); kept what arrived');
  out.content = s.content;
  out.id = s.id;
  out.model = s.model;
  out.usage = s.usage;
  out.path = path;
  return out;
}

/** Read the response half of a pair (JSON body, SSE `body_raw`, or parsed `events`). */
function readResponse(pair: JsonObject): ResponseRead {
  const r = pair.response;
  if (r === null || r === undefined) {
    const note = str(pair.note);
    return { problem: `no response was recorded${note ? ` (${preview(note, 120)})` : ''}`, notes: [] };
  }
  if (!isObject(r)) return { problem: 'the response is not an object', notes: [] };
  const out: ResponseRead = { notes: [] };
  const time = toEpochMs(r.timestamp);
  if (time !== undefined) out.time = Math.round(time);
  const requestId = header(r.headers, 'request-id');
  if (requestId !== undefined) out.requestId = requestId;
  const status = num(r.status_code);
  const raw = str(r.body_raw);
  const events = arr(r.events);
  if (status !== undefined && status >= 400) {
    return { ...out, problem: `HTTP ${status}: ${errorText(r.body ?? raw ?? events?.[0])}` };
  }
  const body = isObject(r.body) ? r.body : undefined;
  if (
    body &&
    (Array.isArray(body.content) || body.type === 'message' || body.type === 'error' || isObject(body.error))
  ) {
    return fromMessage(out, body, 'response.body');
  }
  if (raw !== undefined && raw.trim() !== '') {
    if (looksLikeSse(raw)) return fromStream(out, parseSse(raw), 'response.body_raw');
    const j = tryParseJson(raw);
    if (j.ok && isObject(j.value)) return fromMessage(out, j.value, 'response.body_raw');
    return { ...out, problem: `body_raw is neither SSE nor JSON: ${preview(raw, 80)}` };
  }
  if (events && events.length > 0) {
    const list = events.filter(isObject).map((e) => ({ event: str(e.event), data: e.data }));
    return fromStream(out, list, 'response.events');
  }
  return { ...out, problem: `the response (status ${status ?? 'unknown'}) has no body` };
}

/** Which kind of call a URL is, or undefined for a Messages API call. */
function skipReason(url: string, method: string | undefined): string | undefined {
  const path = url.replace(/^[a-z]+:\/\/[^/]+/i, '').split('?')[0];
  if (path.includes('/v1/messages/count_tokens')) return 'count_tokens request';
  if (!path.endsWith('/v1/messages')) return 'non-Messages request';
  if (method !== undefined && method.toUpperCase() !== 'POST') return 'non-POST Messages request';
  return undefined;
}

export const claudeTraceParser: FormatParser = {
  id: 'claude-trace',
  label: 'claude-trace log',
  sniff: (head) => head.lines.some((o) => isPair(o) && (str(o.request.url) ?? '').includes('/v1/messages')),
  parse: (input, ctx) => {
    const read = createBodyReader();
    const grouper = createThreadGrouper();
    const entries: LoggedRequest[] = [];
    const skipped: Record<string, number> = {};
    let version: string | undefined;
    for (const { line, value } of jsonLines(input, ctx)) {
      const no = line.no;
      const warn = (message: string) => ctx.issue({ line: no, severity: 'warning', message });
      if (!isPair(value)) {
        const what = isObject(value) ? `keys ${Object.keys(value).slice(0, 6).join(', ')}` : typeof value;
        ctx.issue({
          line: no,
          severity: 'error',
          message: `not a claude-trace pair (needs request, response, logged_at; ${what})`,
        });
        continue;
      }
      const req = value.request;
      const url = str(req.url);
      if (url === undefined) {
        ctx.issue({ line: no, severity: 'error', message: 'the request has no url; skipped' });
        continue;
      }
      const reason = skipReason(url, str(req.method));
      if (reason) {
        bump(skipped, reason);
        continue;
      }
      version ??= /claude-cli\/([\w.+-]+)/.exec(header(req.headers, 'user-agent') ?? '')?.[1];
      const reqTime = toEpochMs(req.timestamp) ?? toEpochMs(value.logged_at);
      const time = reqTime === undefined ? undefined : Math.round(reqTime);
      let body = req.body;
      if (typeof body === 'string') {
        const j = tryParseJson(body);
        body = j.ok ? j.value : body;
      }
      const parsed = read(body, { line: no, path: 'request.body.', time }, warn);
      if (!parsed) {
        ctx.issue({
          line: no,
          severity: 'error',
          message: 'the request body is not a Messages request (no messages array)',
        });
        continue;
      }
      const res = readResponse(value);
      for (const n of res.notes) warn(n);
      if (res.problem !== undefined) warn(`request without response: ${res.problem}`);
      const response: Message[] = [];
      if (res.problem === undefined && res.content) {
        const m: Message = {
          index: 0,
          role: 'assistant',
          blocks: anthropicContent(res.content),
          source: { line: no, shape: 'native' },
        };
        if (res.path !== undefined) m.source.path = res.path;
        if (res.id !== undefined) m.source.uuid = res.id;
        if (res.time !== undefined) m.time = res.time;
        const model = res.model ?? parsed.model;
        if (model !== undefined) m.model = model;
        response.push(m);
      }
      const entry: LoggedRequest = { body: parsed, placement: grouper.add(parsed.messages, response), line: no };
      if (time !== undefined) entry.time = time;
      if (res.time !== undefined) entry.responseTime = res.time;
      const observed = res.problem === undefined ? anthropicUsage(res.usage) : undefined;
      if (observed) entry.observed = observed;
      if (res.requestId !== undefined) entry.requestId = res.requestId;
      entries.push(entry);
    }
    const meta = {
      ...(version !== undefined ? { version } : {}),
      ...(Object.keys(skipped).length > 0 ? { skipped } : {}),
      extra: { messagesRequests: entries.length },
    };
    return makeTranscript('claude-trace', meta, buildRequestThreads(grouper, entries));
  },
};
