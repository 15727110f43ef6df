// opencode sessions from its SQLite database (`~/.local/share/opencode/opencode.db`; tables `session`, `message`,
// `part`, each message's and part's JSON in `data`; anomalyco/opencode packages/opencode/src/session/session.sql.ts).
// A session's child sessions (`parent_id`: the `task` tool's sub-agents) are its sidechains; a database of many root
// sessions is read one session at a time (`ParseInput.session`, the sessions table), or whole. What the model saw,
// from opencode's own conversion (session/message-v2.ts toModelMessages, filterCompacted):
// - a user message is its text parts (not `ignored`), its files other than text/plain and directories, "What did
//   we do so far?" for a compaction part, "The following tool was executed by the user" for a subtask part;
// - an assistant message is split into model calls at its `step-start` parts: each step is one request, its reply
//   the step's reasoning, text and tool calls, and the next user turn the step's tool results (completed: the
//   output, or "[Old tool result content cleared]" once the output was pruned — `time.compacted`; an error: the
//   error text; pending or running: "[Tool execution was interrupted]");
// - an assistant message that ended in an error other than an abort with output is left out of later inputs (its
//   steps were billed and are kept apart); a summary message (`summary: true`) after a compaction part restarts
//   the input.
// Usage per request is the step's own `step-finish` part: `tokens {input, output, reasoning, cache {read, write}}`
// where `input` holds neither cache figure and `output` leaves out `reasoning`, which opencode bills at the output
// price (session getUsage: `input: inputTokens − cacheRead − cacheWrite`, `output: outputTokens − reasoning`, cost
// `+ reasoning × cost.output`).
import { isObject, type JsonObject, num, str, tryParseJson } from '../lib/json.ts';
import type {
  BilledResponse,
  Block,
  Message,
  ObservedUsage,
  Request,
  Thread,
  TranscriptMeta,
} from '../model/transcript.ts';
import type { SqliteDb } from './sqlite.ts';
import { makeTranscript, newThread, pushMessage } from './thread.ts';
import type { FormatParser, ParseContext, ParseInput, SniffHead } from './types.ts';

const CLEARED = '[Old tool result content cleared]';

type Row = Record<string, unknown>;
type Part = JsonObject & { id: string };
type Msg = { id: string; info: JsonObject; parts: Part[]; created: number };

const json = (v: unknown): JsonObject | undefined => {
  if (typeof v !== 'string') return undefined;
  const r = tryParseJson(v);
  return r.ok && isObject(r.value) ? r.value : undefined;
};

/** The root sessions of a database (no parent), oldest first: what the sessions table lists. */
export function opencodeSessions(db: SqliteDb): { id: string; title: string; created: number }[] {
  return db
    .rows('SELECT id, title, time_created FROM session WHERE parent_id IS NULL ORDER BY time_created, id')
    .map((r) => ({ id: String(r.id), title: String(r.title ?? ''), created: num(r.time_created) ?? 0 }));
}

function messagesOf(db: SqliteDb, session: string): Msg[] {
  const byId = new Map<string, Msg>();
  const list: Msg[] = [];
  db.each(
    'SELECT id, time_created, data FROM message WHERE session_id = ? ORDER BY time_created, id',
    [session],
    (r) => {
      const info = json(r.data);
      if (!info) return;
      const m = { id: String(r.id), info, parts: [], created: num(r.time_created) ?? 0 };
      byId.set(m.id, m);
      list.push(m);
    },
  );
  db.each('SELECT id, message_id, data FROM part WHERE session_id = ? ORDER BY message_id, id', [session], (r) => {
    const data = json(r.data);
    if (data) byId.get(String(r.message_id))?.parts.push({ ...data, id: String(r.id) });
  });
  return list;
}

function usageOf(p: JsonObject): { usage: ObservedUsage; reasoning: number } | undefined {
  const t = isObject(p.tokens) ? p.tokens : undefined;
  if (!t) return undefined;
  const cache = isObject(t.cache) ? t.cache : {};
  const reasoning = num(t.reasoning) ?? 0;
  const usage = {
    input: num(t.input) ?? 0,
    cacheRead: num(cache.read) ?? 0,
    cacheWrite: num(cache.write) ?? 0,
    output: (num(t.output) ?? 0) + reasoning,
  };
  return usage.input + usage.cacheRead + usage.cacheWrite + usage.output > 0 ? { usage, reasoning } : undefined;
}

function userBlocks(m: Msg): Block[] {
  const out: Block[] = [];
  for (const p of m.parts) {
    if (p.type === 'text' && p.ignored !== true) out.push({ type: 'text', text: str(p.text) ?? '' });
    if (p.type === 'file' && p.mime !== 'text/plain' && p.mime !== 'application/x-directory') {
      const mime = str(p.mime) ?? '';
      out.push(
        mime.startsWith('image/')
          ? { type: 'image', mediaType: mime, source: { url: p.url } }
          : { type: 'other', kind: 'file', raw: p },
      );
    }
    if (p.type === 'compaction') out.push({ type: 'text', text: 'What did we do so far?' });
    if (p.type === 'subtask') out.push({ type: 'text', text: 'The following tool was executed by the user' });
  }
  return out;
}

/** A tool part's result as the model saw it at time `at` (pruned outputs are cleared from then on). */
function toolResult(p: Part, at: number | undefined): Block {
  const state = isObject(p.state) ? p.state : {};
  const time = isObject(state.time) ? state.time : {};
  const id = str(p.callID) ?? '';
  if (state.status === 'completed') {
    const compacted = num(time.compacted);
    const cleared = compacted !== undefined && at !== undefined && compacted <= at;
    return {
      type: 'tool_result',
      toolUseId: id,
      content: cleared ? CLEARED : (str(state.output) ?? ''),
      isError: false,
    };
  }
  if (state.status === 'error') {
    const meta = isObject(state.metadata) ? state.metadata : {};
    const out = meta.interrupted === true ? str(meta.output) : undefined;
    return { type: 'tool_result', toolUseId: id, content: out ?? str(state.error) ?? '', isError: out === undefined };
  }
  return { type: 'tool_result', toolUseId: id, content: '[Tool execution was interrupted]', isError: true };
}

/** Whether an assistant message stays in later inputs (toModelMessages skips errors other than an abort with output). */
function kept(m: Msg): boolean {
  const err = isObject(m.info.error) ? m.info.error : undefined;
  if (!err) return true;
  return err.name === 'MessageAbortedError' && m.parts.some((p) => p.type !== 'step-start' && p.type !== 'reasoning');
}

type Step = { parts: Part[]; finish?: Part };

function steps(m: Msg): Step[] {
  const out: Step[] = [];
  let cur: Step | undefined;
  for (const p of m.parts) {
    if (p.type === 'step-start' || !cur) {
      cur = { parts: [] };
      out.push(cur);
      if (p.type === 'step-start') continue;
    }
    if (p.type === 'step-finish') cur.finish = p;
    else cur.parts.push(p);
  }
  return out;
}

type SessionThread = { thread: Thread; children: Map<string, string> };

function sessionThread(db: SqliteDb, row: Row, kind: Thread['kind']): SessionThread {
  const id = String(row.id);
  const thread = newThread(id, kind, str(row.title));
  const children = new Map<string, string>();
  const billed: BilledResponse[] = [];
  /** Tool results waiting for a request time to be rendered (pruning depends on it), by message index. */
  const results: { index: number; parts: Part[] }[] = [];
  let summaryPending = false;
  for (const m of messagesOf(db, id)) {
    const time = num(isObject(m.info.time) ? m.info.time.created : undefined) ?? m.created;
    const source = (suffix = '') => ({
      line: 0,
      uuid: m.id + suffix,
      path: `message ${m.id}`,
      shape: 'native' as const,
    });
    if (m.info.role === 'user') {
      if (m.parts.some((p) => p.type === 'compaction')) summaryPending = true;
      pushMessage(thread, { role: 'user', blocks: userBlocks(m), source: source(), time });
      continue;
    }
    const model = str(m.info.modelID);
    const stay = kept(m);
    const summary = m.info.summary === true;
    steps(m).forEach((s, k) => {
      const u = s.finish ? usageOf(s.finish) : undefined;
      if (!stay) {
        if (u) billed.push({ why: 'no-request', usage: u.usage, line: 0, time, ...(model ? { model } : {}) });
        return;
      }
      const blocks: Block[] = [];
      for (const p of s.parts) {
        if (p.type === 'reasoning') blocks.push({ type: 'thinking', thinking: str(p.text) ?? '' });
        if (p.type === 'text') blocks.push({ type: 'text', text: str(p.text) ?? '' });
        if (p.type === 'tool') {
          const state = isObject(p.state) ? p.state : {};
          blocks.push({ type: 'tool_use', id: str(p.callID) ?? '', name: str(p.tool) ?? '', input: state.input ?? {} });
          const meta = isObject(state.metadata) ? state.metadata : {};
          const child = str(meta.sessionId);
          if (p.tool === 'task' && child) children.set(child, str(p.callID) ?? '');
        }
      }
      if (blocks.length === 0 && !u) return;
      const msg: Omit<Message, 'index'> = { role: 'assistant', blocks, source: source(`#${k}`), time };
      if (model) msg.model = model;
      if (summary && blocks.some((b) => b.type === 'text')) msg.compaction = 'summary';
      const at = pushMessage(thread, msg);
      const r: Request = { index: thread.requests.length, thread: id, inputEnd: at, responseEnd: at + 1, time };
      if (model) r.model = model;
      if (u) {
        r.observed = u.usage;
        if (u.reasoning > 0) r.reasoningOutput = u.reasoning;
      }
      if (summaryPending && !summary) {
        r.boundary = 'agent-compaction';
        summaryPending = false;
      }
      thread.requests.push(r);
      const tools = s.parts.filter((p) => p.type === 'tool');
      if (tools.length > 0) {
        const index = pushMessage(thread, { role: 'user', blocks: [], source: source(`#${k}:results`), time });
        results.push({ index, parts: tools });
      }
    });
  }
  renderResults(thread, results);
  if (billed.length > 0) thread.billedApart = billed;
  return { thread, children };
}

/** Tool results as each request saw them: the output before its pruning time, the cleared text after. Requests
 *  after a pruning get an exact input with the cleared results (messages without pruned results are shared). */
function renderResults(thread: Thread, results: { index: number; parts: Part[] }[]): void {
  const byIndex = new Map(results.map((r) => [r.index, r.parts]));
  for (const r of results) thread.messages[r.index].blocks = r.parts.map((p) => toolResult(p, undefined));
  const pruned = results.flatMap((r) =>
    r.parts.flatMap((p) => {
      const state = isObject(p.state) ? p.state : {};
      const t = isObject(state.time) ? num(state.time.compacted) : undefined;
      return t !== undefined ? [t] : [];
    }),
  );
  if (pruned.length === 0) return;
  for (const q of thread.requests) {
    const at = q.time;
    if (at === undefined || !pruned.some((t) => t <= at)) continue;
    q.exactInput = thread.messages.slice(0, q.inputEnd).map((m) => {
      const parts = byIndex.get(m.index);
      if (!parts) return m;
      const blocks = parts.map((p) => toolResult(p, at));
      return blocks.some((b, i) => b !== m.blocks[i] && b.type === 'tool_result' && b.content === CLEARED)
        ? { ...m, blocks }
        : m;
    });
  }
}

function readSessions(
  db: SqliteDb,
  wanted: string | undefined,
  ctx: ParseContext,
): { threads: Thread[]; meta: TranscriptMeta } {
  const all = db.rows('SELECT * FROM session ORDER BY time_created, id');
  const byId = new Map(all.map((r) => [String(r.id), r]));
  const roots = wanted !== undefined ? all.filter((r) => String(r.id) === wanted) : all.filter((r) => !r.parent_id);
  if (wanted !== undefined && roots.length === 0)
    ctx.issue({ line: 0, severity: 'error', message: `no session ${wanted} in this database` });
  const childrenOf = new Map<string, Row[]>();
  for (const r of all) {
    const p = r.parent_id ? String(r.parent_id) : undefined;
    if (p && byId.has(p)) childrenOf.set(p, [...(childrenOf.get(p) ?? []), r]);
  }
  const threads: Thread[] = [];
  const walk = (row: Row, kind: Thread['kind'], parentCalls: Map<string, string>, seen: Set<string>) => {
    const id = String(row.id);
    if (seen.has(id)) return;
    seen.add(id);
    const built = sessionThread(db, row, kind);
    const call = parentCalls.get(id);
    if (call) built.thread.parentToolUseId = call;
    if (kind === 'sidechain') built.thread.title = `sub-agent · ${str(row.title) ?? id}`;
    threads.push(built.thread);
    for (const c of childrenOf.get(id) ?? []) walk(c, 'sidechain', built.children, seen);
  };
  const seen = new Set<string>();
  for (const r of roots) walk(r, 'main', new Map(), seen);
  const first = roots[0];
  const meta: TranscriptMeta = {};
  if (first) {
    meta.sessionId = String(first.id);
    if (roots.length === 1 && str(first.title)) meta.title = str(first.title);
    const v = str(first.version);
    if (v) meta.version = v;
    const dir = str(first.directory);
    meta.extra = { ...(dir ? { cwd: dir } : {}), sessions: roots.length };
  }
  return { threads, meta };
}

export const opencodeParser: FormatParser = {
  id: 'opencode',
  label: 'opencode database',
  databases: true,
  sniff: (head: SniffHead) => {
    const t = new Set(head.database?.tables ?? []);
    return t.has('session') && t.has('message') && t.has('part');
  },
  parse: (input: ParseInput, ctx: ParseContext) => {
    if (!input.database) {
      ctx.issue({
        line: 0,
        severity: 'error',
        message: 'the opencode format is read from its SQLite database (opencode.db)',
      });
      return makeTranscript('opencode', { fileName: input.main.name }, []);
    }
    try {
      const { threads, meta } = readSessions(input.database, input.session, ctx);
      meta.fileName = input.main.name;
      return makeTranscript('opencode', meta, threads);
    } catch (e) {
      // SQLite reports a damaged file as it reads its pages (SQLITE_CORRUPT, "database disk image is malformed").
      const why = e instanceof Error ? e.message : String(e);
      ctx.issue({ line: 0, severity: 'error', message: `the database could not be read: ${why}` });
      return makeTranscript('opencode', { fileName: input.main.name }, []);
    }
  },
};
