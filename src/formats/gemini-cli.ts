// Gemini CLI chats (~/.gemini/tmp/<project hash or slug>/chats/): the older `session-*.json` (one document) and the
// 2026 `session-*.jsonl` (records replayed by gemini-log.ts), with sub-agent chats in `chats/<parent session id>/`.
// What the model saw, from gemini-cli packages/core/src/core/geminiChat.ts: only `user` and `gemini` messages are
// history (`info`, `error`, `warning` are the UI's; a resumed session keeps only those two types); a reply's
// thoughts are stripped from later requests (stripThoughts for Gemini 2+ models), so they are kept as thinking
// blocks of the reply only; a reply's function calls sit in its `toolCalls` with their `result` (the
// functionResponse parts the next request carried), and since 2026 the CLI also records that response as a `user`
// message of functionResponse parts — when it did, that message is the results and none is made up from
// `toolCalls`. One reply with `tokens` = one request, its input the messages it was sent after (gemini-log.ts);
// replies a rewind dropped were billed and are kept apart; a `$set` that rewrote the history (compression) starts
// the requests after it from the rewritten list, its new user turn marked as the agent's summary.
import { arr, display, isObject, type JsonObject, str, toEpochMs } from '../lib/json.ts';
import type { BilledResponse, Block, Message, Request, Thread, TranscriptMeta } from '../model/transcript.ts';
import { type GeminiLog, type GeminiRecord, GeminiReplay } from './gemini-log.ts';
import { functionResponseBlock, functionResponses, geminiBlocks, geminiUsage } from './gemini-parts.ts';
import { jsonLinesOf, linesAreJson } from './jsonl.ts';
import { bump, makeTranscript, newThread, pushMessage } from './thread.ts';
import type { FormatParser, ParseContext, ParseInput, SniffHead, SourceFile } from './types.ts';

const TYPES = new Set(['user', 'gemini', 'info', 'error', 'warning']);

const isHeader = (v: unknown) =>
  isObject(v) && typeof v.sessionId === 'string' && typeof v.projectHash === 'string' && !('type' in v);
const isRecord = (v: unknown) =>
  isObject(v) &&
  (typeof v.$rewindTo === 'string' ||
    isObject(v.$set) ||
    (typeof v.id === 'string' && typeof v.type === 'string' && TYPES.has(v.type) && 'timestamp' in v));

/** The thought summaries of a reply as one thinking block (`**subject** description`, as the CLI shows them). */
function thoughtBlock(rec: JsonObject): Block[] {
  const parts = (arr(rec.thoughts) ?? []).filter(isObject).map((t) => {
    const subject = str(t.subject) ?? '';
    const text = str(t.description) ?? '';
    return subject ? `**${subject}** ${text}` : text;
  });
  const text = parts.filter((p) => p.trim() !== '').join('\n\n');
  return text ? [{ type: 'thinking', thinking: text }] : [];
}

/** A reply's tool calls: `{id, name, args, result, status}`. */
function toolCalls(rec: JsonObject): JsonObject[] {
  return (arr(rec.toolCalls) ?? []).filter(isObject);
}

/** The tool_result blocks a reply's `toolCalls` carry (a call without a result answers nothing). */
function resultBlocks(calls: JsonObject[]): Block[] {
  return calls.flatMap((c) => {
    const result = c.result;
    if (result === undefined || result === null) return [];
    const responses = functionResponses(result);
    if (responses.length > 0) return responses.map(functionResponseBlock);
    const content = geminiBlocks(result);
    return [{ type: 'tool_result', toolUseId: str(c.id) ?? '', content, isError: c.status === 'error' }];
  });
}

type Built = { thread: Thread; billed: BilledResponse[]; calls: Map<string, JsonObject> };

/** One chat log as a thread. `file`: the companion file it came from (sub-agents). */
function buildThread(log: GeminiLog, id: string, kind: Thread['kind'], file?: string): Built {
  const thread = newThread(id, kind);
  const billed: BilledResponse[] = [];
  const calls = new Map<string, JsonObject>();
  /** Each message id's normalized messages: the message, and the results made up after a reply. */
  const made = new Map<string, Message[]>();
  const source = (r: GeminiRecord, suffix = '') => {
    const s: Message['source'] = { line: r.line, uuid: r.id + suffix, shape: 'native' };
    if (r.lines) s.lines = r.lines;
    if (r.path !== undefined) s.path = r.path;
    if (file !== undefined) s.file = file;
    return s;
  };
  const ids = [...log.messages.keys()];
  const conversational = ids.filter((m) => {
    const type = log.messages.get(m)?.rec.type;
    if (type === 'user' || type === 'gemini') return true;
    bump(log.skipped, `message:${display(type, 40)}`);
    return false;
  });
  conversational.forEach((mid, k) => {
    const r = log.messages.get(mid) as GeminiRecord;
    const time = toEpochMs(r.rec.timestamp);
    if (log.dropped.has(mid)) {
      const usage = r.rec.type === 'gemini' ? geminiUsage(r.rec.tokens) : undefined;
      if (usage) billed.push(billedApart(r, usage.usage, time, file));
      return;
    }
    const out: Message[] = [];
    const msg: Omit<Message, 'index'> = {
      role: r.rec.type === 'gemini' ? 'assistant' : 'user',
      blocks: [],
      source: source(r),
    };
    if (time !== undefined) msg.time = time;
    if (r.rec.type === 'user') {
      msg.blocks = geminiBlocks(r.rec.content);
      if (log.rewrittenIn.has(mid) && msg.blocks.some((b) => b.type === 'text')) msg.compaction = 'summary';
    } else {
      const model = str(r.rec.model);
      if (model !== undefined) msg.model = model;
      const own = geminiBlocks(r.rec.content);
      const called = new Set(own.flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])));
      const list = toolCalls(r.rec);
      for (const c of list) calls.set(str(c.id) ?? '', c);
      const uses: Block[] = list
        .filter((c) => !called.has(str(c.id) ?? ''))
        .map((c) => ({ type: 'tool_use', id: str(c.id) ?? '', name: str(c.name) ?? '', input: c.args ?? {} }));
      msg.blocks = [...thoughtBlock(r.rec), ...own, ...uses];
    }
    out.push({ ...msg, index: 0 } as Message);
    if (r.rec.type === 'gemini') {
      // Results come from the next message when the CLI recorded the function response as a user turn.
      const next = log.messages.get(conversational[k + 1] ?? '');
      const answered = next?.rec.type === 'user' && functionResponses(next.rec.content).length > 0;
      const results = answered ? [] : resultBlocks(toolCalls(r.rec));
      if (results.length > 0) {
        const res: Omit<Message, 'index'> = { role: 'user', blocks: results, source: source(r, '#results') };
        if (time !== undefined) res.time = time;
        out.push({ ...res, index: 0 } as Message);
      }
    }
    made.set(mid, out);
    for (const m of out) pushMessage(thread, m);
  });
  // Indexes of each id's first message, for inputs and requests.
  const first = new Map<string, number>();
  thread.messages.forEach((m) => {
    const mid = (m.source.uuid ?? '').replace(/#results$/, '');
    if (!first.has(mid)) first.set(mid, m.index);
  });
  for (const [mid, at] of first) {
    const r = log.messages.get(mid) as GeminiRecord;
    if (r.rec.type !== 'gemini') continue;
    const q = request(r, thread, at);
    const seen = log.inputs.get(mid);
    if (seen && !seen.aligned) {
      q.exactInput = seen.snapshot.list.slice(0, seen.snapshot.len).flatMap((x) => made.get(x) ?? []);
    }
    if (seen?.afterRewrite && !thread.requests.some((x) => x.boundary) && q.exactInput) q.boundary = 'agent-compaction';
    thread.requests.push(q);
  }
  return { thread, billed, calls };
}

function request(r: GeminiRecord, thread: Thread, at: number): Request {
  const q: Request = { index: thread.requests.length, thread: thread.id, inputEnd: at, responseEnd: at + 1 };
  q.line = r.line;
  const time = toEpochMs(r.rec.timestamp);
  if (time !== undefined) q.time = q.responseTime = time;
  const model = str(r.rec.model);
  if (model !== undefined) q.model = model;
  const u = geminiUsage(r.rec.tokens);
  if (u) {
    q.observed = u.usage;
    if (u.reasoning > 0) q.reasoningOutput = u.reasoning;
  }
  return q;
}

function billedApart(r: GeminiRecord, usage: BilledResponse['usage'], time: number | undefined, file?: string) {
  const b: BilledResponse = { why: 'abandoned-branch', usage, line: r.line };
  if (time !== undefined) b.time = time;
  const model = str(r.rec.model);
  if (model !== undefined) b.model = model;
  if (file !== undefined) b.file = file;
  return b;
}

/** Replay a file: the document (legacy `.json`) or its lines. */
function replay(lines: Iterable<{ line: { no: number }; value: unknown }>, doc: unknown): GeminiLog {
  const r = new GeminiReplay();
  if (doc !== undefined) r.record(doc, 0);
  else for (const { line, value } of lines) r.record(value, line.no);
  return r.log;
}

function reportLog(log: GeminiLog, ctx: ParseContext, file?: string): void {
  for (const line of log.unknown)
    ctx.issue({
      line,
      severity: 'warning',
      message: 'not a Gemini CLI record (no id, $set, $rewindTo or header); skipped',
      ...(file ? { file } : {}),
    });
  if (log.unknownRewinds > 0)
    ctx.issue({
      line: 0,
      severity: 'warning',
      message: `${log.unknownRewinds} $rewindTo line(s) name a message the chat does not hold (the CLI never writes one): ignored`,
      ...(file ? { file } : {}),
    });
  if (log.rewinds > 0 || log.rewrites > 0) {
    const what = [
      log.rewinds ? `${log.rewinds} rewind(s)` : '',
      log.rewrites ? `${log.rewrites} history rewrite(s)` : '',
    ]
      .filter(Boolean)
      .join(' and ');
    ctx.issue({
      line: 0,
      severity: 'info',
      message: `${what}: requests after them start from the list the CLI kept`,
      ...(file ? { file } : {}),
    });
  }
}

function metaOf(log: GeminiLog, name: string): TranscriptMeta {
  const h = log.header;
  const meta: TranscriptMeta = { fileName: name };
  const id = str(h.sessionId);
  if (id !== undefined) meta.sessionId = id;
  const summary = str(h.summary);
  if (summary?.trim()) meta.title = summary;
  const extra: Record<string, string | number | boolean> = {};
  for (const k of ['projectHash', 'kind', 'startTime', 'lastUpdated'] as const) {
    const v = str(h[k]);
    if (v !== undefined) extra[k] = v;
  }
  const dirs = arr(h.directories);
  if (dirs && dirs.length > 0) extra.directories = dirs.length;
  if (Object.keys(extra).length > 0) meta.extra = extra;
  if (Object.keys(log.skipped).length > 0) meta.skipped = { ...log.skipped };
  return meta;
}

/** A sub-agent chat: the companion's own lines (or document). */
function companionLog(input: ParseInput, f: SourceFile, ctx: ParseContext): GeminiLog {
  const lines = [...jsonLinesOf(input.extraLines(f), ctx, f.name)];
  // A `.json` companion is one document spread over lines: read it whole.
  if (lines.length !== 1 && f.name.endsWith('.json')) {
    const text = [...input.extraLines(f)].map((l) => l.text).join('\n');
    try {
      return replay([], JSON.parse(text));
    } catch {
      ctx.issue({ line: 0, file: f.name, severity: 'error', message: 'sub-agent chat is not valid JSON; skipped' });
      return replay([], undefined);
    }
  }
  return replay(lines, undefined);
}

export const geminiCliParser: FormatParser = {
  id: 'gemini-cli',
  label: 'Gemini CLI chat',
  sniff: (head: SniffHead) => {
    if (isObject(head.doc) && isHeader(head.doc) && Array.isArray(head.doc.messages)) return true;
    const [first, ...rest] = head.lines.filter((v) => v !== undefined);
    if (isHeader(first)) return rest.length === 0 || rest.some(isRecord);
    // A chat whose header line is damaged: its records still say what it is (a reply, a patch, a rewind).
    const records = head.lines.filter(isRecord);
    return records.length >= 2 && records.some((r) => isObject(r) && (r.type === 'gemini' || !('type' in r)));
  },
  parse: (input: ParseInput, ctx: ParseContext) => {
    // A pretty-printed `.json` chat is one document; a `.jsonl` one (or a one-line `.json`) is read line by line.
    const doc = linesAreJson(input) ? undefined : input.doc();
    const log = replay(doc === undefined ? jsonLinesOf(input.lines(), ctx) : [], doc);
    reportLog(log, ctx);
    const main = buildThread(log, 'main', 'main');
    const threads: Thread[] = [main.thread];
    const billed = [...main.billed];
    for (const f of input.extra) {
      const sub = companionLog(input, f, ctx);
      reportLog(sub, ctx, f.name);
      const sid = str(sub.header.sessionId) ?? f.name;
      const built = buildThread(sub, `agent-${sid}`, 'sidechain', f.name);
      const call = [...main.calls.values()].find((c) => str(c.agentId) === sid);
      if (call) {
        built.thread.parentToolUseId = str(call.id) ?? '';
        built.thread.title = `sub-agent · ${str(call.displayName) ?? str(call.name) ?? sid}`;
      } else built.thread.title = `sub-agent · ${sid}`;
      if (built.billed.length > 0) built.thread.billedApart = built.billed;
      threads.push(built.thread);
    }
    if (billed.length > 0) main.thread.billedApart = billed;
    return makeTranscript('gemini-cli', metaOf(log, input.main.name), threads);
  },
};
