// OpenAI Chat Completions logs (formats.md §4): JSONL whose lines are request/response pairs
// (`{request:{messages,…}, response:{choices,usage,…}}`, e.g. Inspect's `call` objects) or whole
// conversations (`{messages:[…]}`). Pairs are grouped into threads by message prefix (request-threads.ts:
// each request re-sends the history) and keep their exact input; usage is normalized (cached ⊂ prompt_tokens).

import { arr, display, isObject, type JsonObject, num, str, toEpochMs, tryParseJson } from '../lib/json.ts';
import type {
  IssueSeverity,
  Message,
  ObservedUsage,
  ParseIssue,
  Request,
  Thread,
  ToolDef,
} from '../model/transcript.ts';
import type { LineNumber } from '../model/units.ts';
import { jsonLines } from './jsonl.ts';
import { isMiniTrajectory } from './mini-swe-agent.ts';
import { deepEqual, openaiMessages, openaiTools, openaiUsage } from './openai-messages.ts';
import {
  createThreadGrouper,
  type JoinedThread,
  joinContinuations,
  type Placement,
  type ThreadGrouper,
} from './request-threads.ts';
import { bump, makeTranscript, newThread } from './thread.ts';
import type { FormatParser, ParseContext, ParseInput } from './types.ts';

const OPENAI_ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool']);

function isPairLine(o: JsonObject): boolean {
  const req = o.request;
  const resp = o.response;
  return (
    isObject(req) &&
    Array.isArray(req.messages) &&
    isObject(resp) &&
    (Array.isArray(resp.choices) || resp.object === 'chat.completion')
  );
}

/** `{messages:[…]}` with OpenAI roles only; plain user/assistant text is accepted unless it looks Anthropic. */
function isConversationLine(o: JsonObject): boolean {
  const msgs = arr(o.messages);
  if (!msgs || msgs.length === 0) return false;
  if (!msgs.every((m) => isObject(m) && typeof m.role === 'string' && OPENAI_ROLES.has(m.role))) return false;
  const openaiMarker = msgs.some(
    (m) =>
      isObject(m) &&
      (m.tool_calls !== undefined ||
        m.tool_call_id !== undefined ||
        (m.role !== 'user' && m.role !== 'assistant') ||
        (arr(m.content) ?? []).some((p) => isObject(p) && (p.type === 'image_url' || p.type === 'refusal'))),
  );
  if (openaiMarker) return true;
  const anthropicBlock = msgs.some(
    (m) => isObject(m) && (arr(m.content) ?? []).some((p) => isObject(p) && p.type !== 'text'),
  );
  return !anthropicBlock && o.system === undefined && o.max_tokens === undefined;
}

type Entry = { value: unknown; line: LineNumber };

/** JSONL entries; a single pretty-printed JSON document (object, or array of entries) is accepted too. */
function* entries(input: ParseInput, ctx: ParseContext): Generator<Entry> {
  let first: string | undefined;
  for (const l of input.lines()) {
    if (!l.tooLong && l.text.trim() !== '') {
      first = l.text;
      break;
    }
  }
  // A pretty-printed document opens with a bare `{` or `[` line; only then is the whole text parsed at once.
  if (first !== undefined && /^(\{|\[|\[\s*\{)$/.test(first.trim()) && !tryParseJson(first).ok) {
    const doc = input.doc();
    if (isObject(doc) || Array.isArray(doc)) {
      for (const value of Array.isArray(doc) ? doc : [doc]) yield { value, line: 1 };
      return;
    }
  }
  for (const { line, value } of jsonLines(input, ctx)) yield { value, line: line.no };
}

type Pending = {
  placement: Placement;
  line: LineNumber;
  model?: string;
  observed?: ObservedUsage;
  time?: number;
  responseTime?: number;
  requestId?: string;
  tools?: ToolDef[];
  boundary?: boolean;
};

type Sink = (severity: IssueSeverity, message: string) => void;

/** One request/response pair: normalized, placed into a thread by message prefix, kept as a pending request. */
function pairEntry(o: JsonObject, line: LineNumber, grouper: ThreadGrouper, issue: Sink): Pending | undefined {
  const req = isObject(o.request) ? o.request : {};
  const rawMsgs = arr(req.messages);
  if (!rawMsgs) {
    issue('error', 'request has no messages array; skipped');
    return undefined;
  }
  const resp = isObject(o.response) ? o.response : undefined;
  const msgs = openaiMessages(rawMsgs, {
    locate: () => ({ line }),
    issue: (sev, m, i) => issue(sev, `request.messages[${i}]: ${m}`),
  });
  const choices = resp ? arr(resp.choices) : undefined;
  const choice = choices?.[0];
  let response: Message[] = [];
  if (isObject(choice) && choice.message !== undefined) {
    const reply = isObject(choice.message) ? { role: 'assistant', ...choice.message } : choice.message;
    response = openaiMessages([reply], {
      locate: () => ({ line }),
      issue: (sev, m) => issue(sev, `response.choices[0].message: ${m}`),
    });
    if (choices && choices.length > 1) issue('info', `response has ${choices.length} choices; the first is kept`);
  } else if (resp && isObject(resp.error)) {
    issue('warning', `request failed: ${str(resp.error.message) ?? display(resp.error, 160)}`);
  } else issue('warning', 'response has no choices[0].message; the request is kept without a response');

  const placement = grouper.add(msgs, response);
  if (placement.rewrittenAt !== undefined) {
    issue('info', `the input rewrites the thread's history from message ${placement.rewrittenAt} on`);
  }
  const p: Pending = { placement, line, tools: openaiTools(req.tools) };
  p.model = (resp ? str(resp.model) : undefined) ?? str(req.model);
  p.observed = openaiUsage(resp?.usage);
  p.requestId = resp ? str(resp.id) : undefined;
  // `created` (epoch s) is when the provider took the request; Inspect's `time` is the call's duration (s).
  const created = resp ? num(resp.created) : undefined;
  const t = num(o.time);
  p.time = toEpochMs(o.timestamp ?? o.logged_at) ?? (created !== undefined ? created * 1000 : undefined);
  if (t !== undefined && t > 1e9) p.responseTime = toEpochMs(t);
  else if (t !== undefined && p.time !== undefined) p.responseTime = p.time + Math.round(t * 1000);
  return p;
}

/** A grouped thread with its requests; tools of its first request become the thread prefix. */
function finishThread(g: JoinedThread, pending: Pending[], id: string, kind: Thread['kind']): Thread {
  const t = newThread(id, kind);
  t.messages = g.messages;
  const tools = pending[0]?.tools;
  if (tools) t.prefix.tools = tools;
  t.requests = pending.map((p, index) => {
    const { inputEnd, responseEnd, exactInput } = p.placement;
    const r: Request = { index, thread: id, inputEnd, exactInput, line: p.line };
    if (p.boundary) r.boundary = 'agent-compaction';
    if (responseEnd !== undefined) r.responseEnd = responseEnd;
    if (p.tools) r.exactPrefix = { tools: tools && deepEqual(tools, p.tools) ? tools : p.tools };
    if (p.model !== undefined) r.model = p.model;
    if (p.observed) r.observed = p.observed;
    if (p.time !== undefined) r.time = p.time;
    if (p.responseTime !== undefined) r.responseTime = p.responseTime;
    if (p.requestId !== undefined) r.requestId = p.requestId;
    return r;
  });
  return t;
}

function conversationEntry(o: JsonObject, line: LineNumber, issue: Sink): Thread {
  const thread = newThread(`line-${line}`, 'main');
  thread.messages = openaiMessages(arr(o.messages) ?? [], {
    locate: () => ({ line }),
    issue: (sev, m, i) => issue(sev, `messages[${i}]: ${m}`),
  });
  const tools = openaiTools(o.tools);
  if (tools) thread.prefix.tools = tools;
  const model = str(o.model);
  thread.messages.forEach((m, k) => {
    if (m.role !== 'assistant') return;
    const r: Request = { index: 0, thread: thread.id, inputEnd: k, responseEnd: k + 1, line };
    const mm = m.model ?? model;
    if (mm !== undefined) r.model = mm;
    thread.requests.push(r);
  });
  return thread;
}

export const openaiChatParser: FormatParser = {
  id: 'openai-chat',
  label: 'OpenAI Chat Completions',
  sniff: (head) => {
    const first = head.lines.find(isObject) ?? (isObject(head.doc) ? head.doc : undefined);
    // A mini-swe-agent trajectory is a conversation too, with its run around it: the SWE-agent parser reads it.
    return first !== undefined && !isMiniTrajectory(first) && (isPairLine(first) || isConversationLine(first));
  },
  parse: (input, ctx) => {
    const issues: ParseIssue[] = [];
    const grouper = createThreadGrouper();
    const pending: Pending[] = [];
    const conversations: Thread[] = [];
    const skipped: Record<string, number> = {};
    for (const { value, line } of entries(input, ctx)) {
      const issue: Sink = (severity, message) => issues.push({ line, severity, message });
      if (!isObject(value)) {
        issue('error', `line is ${Array.isArray(value) ? 'an array' : typeof value}, not a JSON object; skipped`);
        bump(skipped, 'not-an-object');
      } else if (isObject(value.request)) {
        const p = pairEntry(value, line, grouper, issue);
        if (p) pending.push(p);
      } else if (Array.isArray(value.messages)) conversations.push(conversationEntry(value, line, issue));
      else {
        issue('warning', 'line is neither a request/response pair nor a {messages} conversation; skipped');
        bump(skipped, 'unknown');
      }
    }
    // A conversation that continues after the agent's own compaction (a Claude Code request relayed as Chat
    // Completions) joins the conversation it continues (joinContinuations).
    const joined = joinContinuations(
      grouper,
      pending.map((p) => p.placement),
      { model: (k) => pending[k]?.model },
    );
    const placed = pending.map((p, k) => ({
      ...p,
      placement: joined.placements[k],
      boundary: joined.boundaries.has(k),
    }));
    // The thread with the most requests is the main one; the others are side calls.
    const byThread = joined.threads.map((g) => g.requests.map((k) => placed[k]));
    const mainAt = byThread.reduce((best, list, t) => (list.length > byThread[best].length ? t : best), 0);
    const threads = joined.threads.map((g, t) =>
      t === mainAt
        ? finishThread(g, byThread[t], 'main', 'main')
        : finishThread(g, byThread[t], `call-${byThread[t][0]?.line ?? t}`, 'side-call'),
    );
    const meta = Object.keys(skipped).length > 0 ? { skipped } : {};
    return makeTranscript('openai-chat', meta, [...threads, ...conversations], issues);
  },
};
