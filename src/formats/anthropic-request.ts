// Anthropic Messages request bodies (formats.md §5): one JSON document, a JSON array of them, or JSONL with
// one per line. Each request becomes a Request with its exact input and static prefix; requests are grouped
// into threads by message prefix (request-threads.ts). Also exports the body reader and the thread builder
// (main thread, side-call titles, compaction continuations, sub-agents) that claude-trace reuses.
import { arr, isObject, type JsonObject, num, preview, str, tryParseJson } from '../lib/json.ts';
import type { Block, Message, ObservedUsage, Request, Role, Thread, ThreadPrefix } from '../model/transcript.ts';
import type { EpochMs, LineNumber } from '../model/units.ts';
import { anthropicContent, anthropicSystem, anthropicTools } from './anthropic-blocks.ts';
import { jsonLines } from './jsonl.ts';
import {
  contentKey,
  createThreadGrouper,
  type JoinedThread,
  joinContinuations,
  type Placement,
  type ThreadGrouper,
} from './request-threads.ts';
import { makeTranscript, newThread } from './thread.ts';
import type { FormatParser, ParseContext, ParseInput } from './types.ts';

/** A normalized Messages request body. */
export type MessagesBody = {
  model?: string;
  maxTokens?: number;
  messages: Message[];
  prefix: ThreadPrefix;
};

/** One logged request after placement, with what the log says about its response. */
export type LoggedRequest = {
  body: MessagesBody;
  placement: Placement;
  line?: LineNumber;
  time?: EpochMs;
  responseTime?: EpochMs;
  observed?: ObservedUsage;
  requestId?: string;
};

/** Where a body came from, for message sources and issue texts. */
export type BodySite = { line: LineNumber; path: string; time?: EpochMs };

const ROLES = new Set<string>(['user', 'assistant', 'system']);

/** True for a value shaped like a Messages request body (model, max_tokens, messages[]), not a log pair. */
function isMessagesRequest(v: unknown): v is JsonObject {
  return (
    isObject(v) &&
    typeof v.model === 'string' &&
    typeof v.max_tokens === 'number' &&
    Array.isArray(v.messages) &&
    !('request' in v && 'response' in v)
  );
}

/**
 * A reader that normalizes request bodies; equal static prefixes (system + tools) come back as one shared
 * object. Bad messages are reported through `issue` and left out; undefined when `body` has no messages array.
 */
export function createBodyReader(): (
  body: unknown,
  site: BodySite,
  issue: (m: string) => void,
) => MessagesBody | undefined {
  const prefixes = new Map<string, ThreadPrefix>();
  return (body, site, issue) => {
    if (!isObject(body)) return undefined;
    const list = arr(body.messages);
    if (!list) return undefined;
    const messages: Message[] = [];
    list.forEach((raw, i) => {
      const role = isObject(raw) ? str(raw.role) : undefined;
      if (!isObject(raw) || role === undefined || !ROLES.has(role)) {
        issue(`${site.path}messages[${i}] has no user/assistant role; left out`);
        return;
      }
      if (raw.content === undefined) issue(`${site.path}messages[${i}] has no content`);
      const m: Message = {
        index: messages.length,
        role: role as Role,
        blocks: anthropicContent(raw.content),
        source: { line: site.line, path: `${site.path}messages[${i}]`, shape: 'native' },
      };
      if (site.time !== undefined) m.time = site.time;
      messages.push(m);
    });
    const prefix: ThreadPrefix = {};
    const system = anthropicSystem(body.system);
    const tools = anthropicTools(body.tools);
    if (system) prefix.system = system;
    if (tools) prefix.tools = tools;
    const key = contentKey(prefix);
    const shared = prefixes.get(key) ?? prefix;
    prefixes.set(key, shared);
    const out: MessagesBody = { messages, prefix: shared };
    const model = str(body.model);
    const maxTokens = num(body.max_tokens);
    if (model !== undefined) out.model = model;
    if (maxTokens !== undefined) out.maxTokens = maxTokens;
    return out;
  };
}

function texts(m: Message | undefined): string[] {
  return (m?.blocks ?? []).flatMap((b) => (b.type === 'text' ? [b.text.trim()] : []));
}

/** First user text that is not an injected `<system-reminder>`. */
function firstUserText(messages: Message[]): string {
  const user = messages.find((m) => m.role === 'user');
  return texts(user).find((t) => t !== '' && !t.startsWith('<system-reminder>')) ?? '';
}

function systemPurpose(system: Block[] | undefined): string | undefined {
  const all = texts({ index: 0, role: 'system', blocks: system ?? [], source: { line: 0 } });
  const line = all
    .at(-1)
    ?.split('\n')
    .find((l) => l.trim() !== '');
  return line === undefined ? undefined : preview(line, 60);
}

type TaskLink = { id: string; description?: string };

/** Sub-agent links: thread → the Task tool_use (in another thread) whose prompt opens it. */
function findSidechains(grouper: ThreadGrouper): Map<number, TaskLink> {
  const prompts = new Map<string, TaskLink & { thread: number }>();
  grouper.threads.forEach((g, t) => {
    for (const m of g.messages) {
      for (const b of m.blocks) {
        if (b.type !== 'tool_use' || !isObject(b.input)) continue;
        const prompt = str(b.input.prompt);
        if (prompt === undefined) continue;
        prompts.set(prompt.trim(), { id: b.id, description: str(b.input.description), thread: t });
      }
    }
  });
  const links = new Map<number, TaskLink>();
  grouper.threads.forEach((g, t) => {
    const hit = texts(g.messages[0])
      .map((x) => prompts.get(x))
      .find((x) => x !== undefined && x.thread !== t);
    if (hit) links.set(t, { id: hit.id, description: hit.description });
  });
  return links;
}

/** The largest conversation (messages, then requests) on the main model, the model of requests with tools. */
function pickMain(threads: JoinedThread[], entries: LoggedRequest[], exclude: Map<number, TaskLink>): number {
  const byModel = new Map<string, number>();
  const agentic = entries.filter((e) => (e.body.prefix.tools?.length ?? 0) > 0);
  for (const e of agentic.length > 0 ? agentic : entries) {
    const m = e.body.model ?? '';
    byModel.set(m, (byModel.get(m) ?? 0) + 1);
  }
  const mainModel = [...byModel.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  let best = -1;
  for (const onModel of [true, false]) {
    threads.forEach((g, t) => {
      if (exclude.has(g.parts[0]) || (onModel && (entries[g.requests[0]].body.model ?? '') !== mainModel)) return;
      const b = best >= 0 ? threads[best] : undefined;
      const better =
        !b ||
        g.messages.length > b.messages.length ||
        (g.messages.length === b.messages.length && g.requests.length > b.requests.length);
      if (better) best = t;
    });
    if (best >= 0) break;
  }
  return best;
}

function sideCallTitle(g: JoinedThread, first: LoggedRequest, mainSystem: string): string {
  const model = first.body.model ?? 'unknown model';
  if (first.body.maxTokens === 1) return `quota probe · ${model}`;
  if (g.continuation) return `${model} · continued after compaction`;
  const system = first.body.prefix.system;
  const purpose = contentKey(system ?? null) === mainSystem ? undefined : systemPurpose(system);
  const user = preview(firstUserText(g.messages), purpose ? 40 : 60);
  return purpose ? `${model} · ${purpose} — ${user}` : `${model} · ${user}`;
}

/**
 * Turn grouped requests into Threads. First, a conversation that continues after the agent's own compaction
 * (Claude Code's "This session is being continued…" summary) is joined to the conversation it continues
 * (joinContinuations: the thread whose last request preceded it on the same model, preferring the one whose
 * last request was the compaction request): its summary becomes a `compaction: 'summary'` message and its
 * first request the `agent-compaction` boundary. Then a thread opened by the prompt of a Task tool_use in
 * another thread is a 'sidechain'; of the rest, the largest conversation on the main model is 'main';
 * everything else is a 'side-call' titled by purpose.
 */
export function buildRequestThreads(grouper: ThreadGrouper, entries: LoggedRequest[]): Thread[] {
  const agents = findSidechains(grouper);
  const joined = joinContinuations(
    grouper,
    entries.map((e) => e.placement),
    { model: (k) => entries[k].body.model, exclude: (t) => agents.has(t) },
  );
  const main = pickMain(joined.threads, entries, agents);
  const mainSystem = contentKey(
    main >= 0 ? (entries[joined.threads[main].requests[0]].body.prefix.system ?? null) : null,
  );
  let sides = 0;
  let subs = 0;
  return joined.threads.map((g, t) => {
    const first = entries[g.requests[0]];
    const task = agents.get(g.parts[0]);
    let thread: Thread;
    if (t === main) thread = newThread('main', 'main');
    else if (task) {
      const what = task.description ?? preview(firstUserText(g.messages), 60);
      thread = newThread(`agent-${++subs}`, 'sidechain', `sub-agent · ${what}`);
      thread.parentToolUseId = task.id;
    } else thread = newThread(`side-${++sides}`, 'side-call', sideCallTitle(g, first, mainSystem));
    thread.messages = g.messages;
    thread.prefix = first.body.prefix;
    thread.requests = g.requests.map((k, index) => {
      const r = toRequest(entries[k], joined.placements[k], thread.id, index);
      if (joined.boundaries.has(k)) r.boundary = 'agent-compaction';
      return r;
    });
    return thread;
  });
}

function toRequest(e: LoggedRequest, p: Placement, thread: string, index: number): Request {
  const r: Request = { index, thread, inputEnd: p.inputEnd, exactInput: p.exactInput, exactPrefix: e.body.prefix };
  if (p.responseEnd !== undefined) r.responseEnd = p.responseEnd;
  if (e.time !== undefined) r.time = e.time;
  if (e.responseTime !== undefined) r.responseTime = e.responseTime;
  if (e.body.model !== undefined) r.model = e.body.model;
  if (e.observed) r.observed = e.observed;
  if (e.line !== undefined) r.line = e.line;
  if (e.requestId !== undefined) r.requestId = e.requestId;
  return r;
}

/** JSON lines when one of the first lines is a JSON object by itself, else one document (maybe pretty-printed). */
function isJsonLines(input: ParseInput): boolean {
  let seen = 0;
  for (const l of input.lines()) {
    if (l.tooLong || l.text.trim() === '') continue;
    const r = tryParseJson(l.text);
    if (r.ok && typeof r.value === 'object' && r.value !== null) return true;
    if (++seen >= 3) break;
  }
  return false;
}

/** Values to read: JSON lines (with line numbers) or the whole document; arrays expand to their items. */
function* requestValues(
  input: ParseInput,
  ctx: ParseContext,
): Generator<{ value: unknown; line?: number; path: string }> {
  const values: Iterable<{ value: unknown; line?: number }> = isJsonLines(input)
    ? (function* () {
        for (const j of jsonLines(input, ctx)) yield { value: j.value, line: j.line.no };
      })()
    : [{ value: input.doc() }];
  for (const { value, line } of values) {
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) yield { value: item, line, path: `[${i}].` };
    } else yield { value, line, path: '' };
  }
}

export const anthropicRequestParser: FormatParser = {
  id: 'anthropic-request',
  label: 'Anthropic Messages request',
  sniff: (head) => {
    const d = head.doc;
    if (d !== undefined)
      return isMessagesRequest(d) || (Array.isArray(d) && d.length > 0 && d.every(isMessagesRequest));
    const parsed = head.lines.filter((v) => v !== undefined);
    return parsed.length > 0 && parsed.every(isMessagesRequest);
  },
  parse: (input, ctx) => {
    const read = createBodyReader();
    const grouper = createThreadGrouper();
    const entries: LoggedRequest[] = [];
    for (const { value, line, path } of requestValues(input, ctx)) {
      const where = line !== undefined ? line : 0;
      if (value === undefined) {
        ctx.issue({
          line: 1,
          severity: 'error',
          message: 'neither one JSON document nor JSON lines (the document does not parse; is it truncated?)',
        });
        continue;
      }
      const issue = (message: string) => ctx.issue({ line: where, severity: 'warning', message });
      const body = read(value, { line: where, path }, issue);
      if (!body) {
        const what = isObject(value) ? `keys ${Object.keys(value).slice(0, 6).join(', ')}` : typeof value;
        ctx.issue({
          line: where,
          severity: 'error',
          message: `${path}not a Messages request (no messages array; ${what})`,
        });
        continue;
      }
      const placement = grouper.add(body.messages, []);
      entries.push(line !== undefined ? { body, placement, line } : { body, placement });
    }
    const threads = buildRequestThreads(grouper, entries);
    return makeTranscript('anthropic-request', { extra: { requests: entries.length } }, threads);
  },
};
