// Cline and Roo Code tasks. Cline 3.x and Roo write a task folder: `api_conversation_history.json` is the messages
// as sent (Anthropic-native content: tool_use in the assistant turn, tool_result first in the next user turn),
// `ui_messages.json` holds each request's usage (cline-usage.ts), `task_metadata.json` the model used when. One
// assistant message = one request, its input the messages before it — except where Cline was truncating: it then
// sent the first two messages and those after the deleted range (ContextManager.getTruncatedMessages, replayed by
// cline/cline apps/vscode/src/sdk/legacy-task-handling.ts), and where Roo condensed: its `isSummary` message starts
// the input from then on (Roo-Code src/core/condense/index.ts getEffectiveApiHistory). Cline 4.x writes
// `~/.cline/data/sessions/<id>/<id>.messages.json` instead (cline/cline sdk/packages/core/docs/messages-contract-v1.md):
// `{version: 1, agent, sessionId, messages, system_prompt}`, each finished assistant message with `modelInfo` and
// `metrics {inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, cost}` where `inputTokens` is the whole
// prompt with reads and writes in it (sdk/packages/llms/src/providers/ai-sdk.ts bills `inputTokens − cacheRead −
// cacheWrite` as input); the manifest `<id>.json` beside it names the title and folder.
import { arr, isObject, type JsonObject, num, str, toEpochMs } from '../lib/json.ts';
import type { BilledResponse, Message, Request, Thread, TranscriptMeta } from '../model/transcript.ts';
import { anthropicContent } from './anthropic-blocks.ts';
import { type ApiRequest, apiRequests, modelUsage, usageRule } from './cline-usage.ts';
import { makeTranscript, newThread } from './thread.ts';
import type { FormatParser, ParseContext, ParseInput, SniffHead, SourceFile } from './types.ts';

const ROLES = new Set(['user', 'assistant']);
const isApiMessage = (m: unknown) => isObject(m) && typeof m.role === 'string' && ROLES.has(m.role) && 'content' in m;

/** Cline 3.x / Roo: the history is a bare array of Anthropic messages. */
const isTaskHistory = (d: unknown) => Array.isArray(d) && d.length > 0 && d.every(isApiMessage);
/** Cline 4.x: the messages contract v1. */
const isSessionMessages = (d: unknown) =>
  isObject(d) &&
  typeof d.version === 'number' &&
  Array.isArray(d.messages) &&
  ('sessionId' in d || 'agent' in d || 'updated_at' in d) &&
  d.messages.every(isApiMessage);

/** A companion file's JSON value (the task folder's other files are small documents). */
function companionJson(input: ParseInput, f: SourceFile | undefined, ctx: ParseContext): unknown {
  if (!f) return undefined;
  const text = [...input.extraLines(f)].map((l) => l.text).join('\n');
  try {
    return JSON.parse(text);
  } catch {
    ctx.issue({
      line: 0,
      file: f.name,
      severity: 'warning',
      message: `${f.name} is not valid JSON; its data is not used`,
    });
    return undefined;
  }
}

const base = (name: string) => name.slice(name.lastIndexOf('/') + 1);

function toMessage(raw: JsonObject, i: number): Message {
  const m: Message = {
    index: i,
    role: raw.role === 'assistant' ? 'assistant' : 'user',
    blocks: anthropicContent(raw.content),
    source: { line: 0, path: `[${i}]`, shape: 'native' },
  };
  const id = str(raw.id);
  if (id !== undefined) m.source.uuid = id;
  const time = toEpochMs(raw.ts);
  if (time !== undefined) m.time = time;
  const model = isObject(raw.modelInfo) ? (str(raw.modelInfo.id) ?? str(raw.modelInfo.modelId)) : undefined;
  if (model !== undefined) m.model = model;
  if (raw.isSummary === true) m.compaction = 'summary';
  return m;
}

/** The model in use at `time` (the last switch before it). */
function modelAt(models: { time: number; model: string }[], time: number | undefined): string | undefined {
  let out: string | undefined;
  for (const m of models) if (time === undefined || m.time <= time) out = m.model;
  return out ?? models[0]?.model;
}

/** Roo Code names the model in the environment details it appends to every user turn
 *  (Roo-Code src/core/environment/getEnvironmentDetails.ts: `<model>${modelId}</model>`). */
function modelInEnvironment(m: Message): string | undefined {
  for (let i = m.blocks.length - 1; i >= 0; i--) {
    const b = m.blocks[i];
    if (b.type !== 'text' || !b.text.includes('<environment_details>')) continue;
    const found = /<model>([^<\n]{1,200})<\/model>/.exec(b.text)?.[1]?.trim();
    if (found) return found;
  }
  return undefined;
}

/** Which ui entry each assistant message's request is: by the history index the entry names, else in order. */
function pairRequests(
  thread: Thread,
  reqs: ApiRequest[],
): { byReply: Map<number, ApiRequest>; unpaired: ApiRequest[] } {
  const byReply = new Map<number, ApiRequest>();
  const assistants = thread.messages.filter((m) => m.role === 'assistant').map((m) => m.index);
  const placed = reqs.filter((r) => r.replyAt !== undefined && thread.messages[r.replyAt]?.role === 'assistant');
  if (placed.length > 0 && placed.length >= reqs.filter((r) => r.usage).length / 2) {
    for (const r of placed) byReply.set(r.replyAt as number, r);
    return { byReply, unpaired: reqs.filter((r) => !placed.includes(r) && r.usage) };
  }
  // In order: the entries that answered (a request cancelled before any output wrote no assistant message).
  const answered = reqs.filter((r) => r.usage && !(r.cancelled && (r.usage.output ?? 0) === 0));
  assistants.forEach((at, k) => {
    const r = answered[k];
    if (r) byReply.set(at, r);
  });
  return { byReply, unpaired: answered.slice(assistants.length) };
}

function taskThread(input: ParseInput, doc: unknown[], ctx: ParseContext): { thread: Thread; meta: TranscriptMeta } {
  const thread = newThread('main', 'main');
  thread.messages = doc.map((m, i) => toMessage(m as JsonObject, i));
  const extra = new Map(input.extra.map((f) => [base(f.name), f]));
  const ui = companionJson(input, extra.get('ui_messages.json'), ctx);
  const models = modelUsage(companionJson(input, extra.get('task_metadata.json'), ctx));
  const rule = usageRule(ui);
  const reqs = apiRequests(ui, rule);
  const { byReply, unpaired } = pairRequests(thread, reqs);
  let summaryPending = false;
  let envModel: string | undefined;
  for (const m of thread.messages) {
    if (m.compaction === 'summary') summaryPending = true;
    if (m.role === 'user') envModel = modelInEnvironment(m) ?? envModel;
    if (m.role !== 'assistant') continue;
    const e = byReply.get(m.index);
    const r: Request = { index: thread.requests.length, thread: 'main', inputEnd: m.index, responseEnd: m.index + 1 };
    const time = e?.time ?? m.time;
    if (time !== undefined) r.time = time;
    if (m.time !== undefined) r.responseTime = m.time;
    const model = e?.model ?? modelAt(models, time) ?? m.model ?? envModel;
    if (model !== undefined) r.model = model;
    if (e?.usage) r.observed = e.usage;
    if (summaryPending) r.boundary = 'agent-compaction';
    summaryPending = false;
    const range = e?.deletedRange;
    if (range && range[1] >= 2 && range[1] + 1 < m.index)
      r.exactInput = [...thread.messages.slice(0, 2), ...thread.messages.slice(range[1] + 1, m.index)];
    thread.requests.push(r);
  }
  const billed: BilledResponse[] = unpaired.flatMap((e) =>
    e.usage
      ? [
          {
            why: 'no-request' as const,
            usage: e.usage,
            line: 0,
            file: 'ui_messages.json',
            ...(e.time ? { time: e.time } : {}),
            ...(e.model ? { model: e.model } : {}),
          },
        ]
      : [],
  );
  if (billed.length > 0) thread.billedApart = billed;
  if (ui === undefined)
    ctx.issue({
      line: 0,
      severity: 'info',
      message:
        'no ui_messages.json beside the history: the requests have no recorded usage (open the task folder, or both files)',
    });
  const meta: TranscriptMeta = { extra: { usageRule: rule } };
  if (reqs.some((x) => x.cost !== undefined))
    (meta.extra as Record<string, number | string>).loggedCostUsd = reqs.reduce((s, x) => s + (x.cost ?? 0), 0);
  return { thread, meta };
}

function sessionThread(
  input: ParseInput,
  doc: JsonObject,
  ctx: ParseContext,
): { thread: Thread; meta: TranscriptMeta } {
  const thread = newThread('main', 'main');
  const raw = (arr(doc.messages) ?? []) as JsonObject[];
  thread.messages = raw.map(toMessage);
  const system = str(doc.system_prompt);
  if (system) thread.prefix.system = [{ type: 'text', text: system }];
  raw.forEach((m, i) => {
    if (m.role !== 'assistant') return;
    const r: Request = { index: thread.requests.length, thread: 'main', inputEnd: i, responseEnd: i + 1 };
    const time = toEpochMs(m.ts);
    if (time !== undefined) r.time = r.responseTime = time;
    const model = thread.messages[i].model;
    if (model !== undefined) r.model = model;
    const x = isObject(m.metrics) ? m.metrics : undefined;
    if (x) {
      const read = num(x.cacheReadTokens) ?? 0;
      const write = num(x.cacheWriteTokens) ?? 0;
      const total = num(x.inputTokens) ?? 0;
      r.observed = {
        input: Math.max(0, total - read - write),
        cacheRead: read,
        cacheWrite: write,
        output: num(x.outputTokens) ?? 0,
      };
    }
    thread.requests.push(r);
  });
  const meta: TranscriptMeta = {};
  const id = str(doc.sessionId);
  if (id !== undefined) meta.sessionId = id;
  const manifestFile = input.extra.find((f) => f.name.endsWith('.json') && !f.name.endsWith('.messages.json'));
  const manifest = companionJson(input, manifestFile, ctx);
  const info = isObject(manifest) && isObject(manifest.metadata) ? manifest.metadata : undefined;
  const title = str(info?.title);
  if (title) meta.title = title;
  const extra: Record<string, string> = {};
  const agent = str(doc.agent);
  if (agent) extra.agent = agent;
  const cwd = isObject(manifest) ? str(manifest.cwd) : undefined;
  if (cwd) extra.cwd = cwd;
  if (Object.keys(extra).length > 0) meta.extra = extra;
  return { thread, meta };
}

export const clineParser: FormatParser = {
  id: 'cline',
  label: 'Cline / Roo Code task',
  sniff: (head: SniffHead) => isTaskHistory(head.doc) || isSessionMessages(head.doc),
  parse: (input: ParseInput, ctx: ParseContext) => {
    const doc = input.doc();
    if (!isTaskHistory(doc) && !isSessionMessages(doc)) {
      ctx.issue({ line: 0, severity: 'error', message: 'not a Cline task history nor a Cline messages.json document' });
      return makeTranscript('cline', { fileName: input.main.name }, []);
    }
    const { thread, meta } = Array.isArray(doc)
      ? taskThread(input, doc, ctx)
      : sessionThread(input, doc as JsonObject, ctx);
    meta.fileName = input.main.name;
    return makeTranscript('cline', meta, [thread]);
  },
};
