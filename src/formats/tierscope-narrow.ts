// Narrowing of a Tierscope bundle (which also arrives in share links, i.e. from anyone) into the model:
// every field the model declares is checked; a field of the wrong type is dropped or defaulted with an issue,
// so nothing downstream meets a `time` that is an object or a `responseEnd` past the messages. Objects are
// copied with their key order and unknown fields kept, so a valid bundle re-exports byte for byte.
import { arr, isObject, type JsonObject, num, str } from '../lib/json.ts';
import type {
  BilledResponse,
  Block,
  FormatId,
  Message,
  ObservedUsage,
  ParseIssue,
  Request,
  Role,
  Thread,
  ThreadKind,
  ThreadPrefix,
  ToolDef,
  TranscriptMeta,
} from '../model/transcript.ts';

type Issue = (message: string) => void;
type Check = (v: unknown) => boolean;

const ROLES = new Set<Role>(['system', 'user', 'assistant']);
const KINDS = new Set<ThreadKind>(['main', 'sidechain', 'side-call']);
const BLOCK_TYPES = new Set([
  'text',
  'thinking',
  'redacted_thinking',
  'image',
  'tool_use',
  'tool_result',
  'server_tool_use',
  'other',
]);
export const FORMATS = new Set<FormatId>([
  'claude-code',
  'claude-trace',
  'anthropic-request',
  'openai-chat',
  'codex',
  'inspect',
  'swe-agent',
  'gemini-cli',
  'opencode',
  'cline',
  'otel-genai',
  'atif',
  'tierscope',
]);

const isStr: Check = (v) => typeof v === 'string';
const isNum: Check = (v) => num(v) !== undefined;
/** An agent compaction's boundary record: every field optional, each of its type. */
const isCompactedFrom: Check = (v) =>
  isObject(v) &&
  (v.trigger === undefined || isStr(v.trigger)) &&
  (v.preTokens === undefined || isNum(v.preTokens)) &&
  (v.line === undefined || isNum(v.line));
const isBool: Check = (v) => typeof v === 'boolean';
const isIndex: Check = (v) => Number.isInteger(v) && (v as number) >= 0;
const oneOf =
  (...values: string[]): Check =>
  (v) =>
    typeof v === 'string' && values.includes(v);

/** Remove the fields of `o` whose value fails its check (undefined counts as absent), reporting each. */
function dropWrong(o: JsonObject, checks: Record<string, Check>, where: string, issue: Issue): void {
  for (const [k, ok] of Object.entries(checks)) {
    if (!Object.hasOwn(o, k) || o[k] === undefined || ok(o[k])) continue;
    issue(`${where}.${k} has the wrong type; dropped`);
    delete o[k];
  }
}

function narrowBlock(v: unknown, where: string, issue: Issue): Block {
  if (!isObject(v) || typeof v.type !== 'string' || !BLOCK_TYPES.has(v.type)) {
    issue(`${where}: not a known block; kept as "other"`);
    return { type: 'other', kind: 'invalid', raw: v };
  }
  if (v.type === 'tool_result') {
    const c = v.content;
    const content =
      typeof c === 'string' ? c : (arr(c) ?? []).map((b, i) => narrowBlock(b, `${where}.content[${i}]`, issue));
    return { type: 'tool_result', toolUseId: str(v.toolUseId) ?? '', content, isError: v.isError === true };
  }
  if (v.type === 'text' && typeof v.text !== 'string') {
    issue(`${where}: text block without text`);
    return { type: 'text', text: '' };
  }
  const b: JsonObject = { ...v };
  const need = (field: string) => {
    if (typeof b[field] === 'string') return;
    issue(`${where}: ${v.type} block without a string "${field}"`);
    b[field] = '';
  };
  if (v.type === 'tool_use' || v.type === 'server_tool_use') {
    need('id');
    need('name');
  } else if (v.type === 'thinking') {
    need('thinking');
    dropWrong(b, { signature: isStr }, where, issue);
  } else if (v.type === 'redacted_thinking') need('data');
  else if (v.type === 'image') dropWrong(b, { mediaType: isStr }, where, issue);
  else if (v.type === 'other') need('kind');
  return b as Block;
}

/**
 * A message at position `i`; undefined (dropped) when it has no known role or no blocks array. Messages of an
 * exact input keep their own index (the place of the shared message in the thread) when it is one.
 */
function narrowMessage(v: unknown, i: number, where: string, issue: Issue, keepIndex = false): Message | undefined {
  if (!isObject(v) || typeof v.role !== 'string' || !ROLES.has(v.role as Role) || !Array.isArray(v.blocks)) {
    issue(`${where}: not a message (needs role and blocks); dropped`);
    return undefined;
  }
  const blocks = v.blocks.map((b, j) => narrowBlock(b, `${where}.blocks[${j}]`, issue));
  const source: JsonObject = { ...(isObject(v.source) ? v.source : {}) };
  source.line = isIndex(source.line) ? source.line : 0;
  const lines = (x: unknown) => Array.isArray(x) && x.every(isIndex);
  const shapes = oneOf('native', 'openai-tool', 'openai-message', 'responses-item', 'text-action');
  dropWrong(source, { uuid: isStr, lines, shape: shapes, file: isStr, path: isStr }, `${where}.source`, issue);
  const m: JsonObject = { ...v, index: keepIndex && isIndex(v.index) ? v.index : i, role: v.role, blocks, source };
  const checks = {
    time: isNum,
    model: isStr,
    compaction: oneOf('summary', 'boundary'),
    compactedFrom: isCompactedFrom,
    meta: isBool,
    synthetic: isBool,
  };
  dropWrong(m, checks, where, issue);
  return m as Message;
}

function narrowMessages(v: unknown, where: string, issue: Issue, keepIndex = false): Message[] {
  const out: Message[] = [];
  for (const [j, m] of (arr(v) ?? []).entries()) {
    const nm = narrowMessage(m, out.length, `${where}[${j}]`, issue, keepIndex);
    if (nm) out.push(nm);
  }
  return out;
}

function isUsage(v: unknown): v is ObservedUsage {
  if (!isObject(v)) return false;
  const fields = ['input', 'cacheRead', 'cacheWrite', 'output'];
  return fields.every((k) => isNum(v[k])) && (v.cacheWrite1h === undefined || isNum(v.cacheWrite1h));
}

function narrowPrefix(v: unknown, where: string, issue: Issue): ThreadPrefix {
  if (!isObject(v)) return {};
  const p: JsonObject = { ...v };
  if (p.system !== undefined) {
    if (Array.isArray(p.system)) p.system = p.system.map((b, j) => narrowBlock(b, `${where}.system[${j}]`, issue));
    else dropWrong(p, { system: () => false }, where, issue);
  }
  if (p.tools !== undefined) {
    const tools = arr(p.tools);
    if (!tools) dropWrong(p, { tools: () => false }, where, issue);
    else {
      const ok = (t: unknown): t is ToolDef =>
        isObject(t) && typeof t.name === 'string' && (t.description === undefined || isStr(t.description));
      if (!tools.every(ok)) issue(`${where}.tools: entries without a string name dropped`);
      p.tools = tools.filter(ok);
    }
  }
  return p as ThreadPrefix;
}

/** A request at position `index` of a thread of `n` messages; undefined (dropped) without an inputEnd. */
function narrowRequest(
  v: unknown,
  index: number,
  n: number,
  threadId: string,
  where: string,
  issue: Issue,
): Request | undefined {
  if (!isObject(v) || num(v.inputEnd) === undefined) {
    issue(`${where}: not a request (needs inputEnd); dropped`);
    return undefined;
  }
  const inputEnd = Math.max(0, Math.min(n, Math.floor(num(v.inputEnd) ?? 0)));
  const r: JsonObject = { ...v, index, thread: threadId, inputEnd };
  const end = num(r.responseEnd);
  if (end !== undefined) r.responseEnd = Math.max(inputEnd, Math.min(n, Math.floor(end)));
  const checks: Record<string, Check> = {
    responseEnd: isNum,
    time: isNum,
    responseTime: isNum,
    model: isStr,
    observed: isUsage,
    reasoningOutput: isNum,
    exactInput: Array.isArray,
    boundary: oneOf('agent-compaction'),
    line: isIndex,
    requestId: isStr,
  };
  dropWrong(r, checks, where, issue);
  if (r.exactInput !== undefined) r.exactInput = narrowMessages(r.exactInput, `${where}.exactInput`, issue, true);
  if (r.exactPrefix !== undefined) r.exactPrefix = narrowPrefix(r.exactPrefix, `${where}.exactPrefix`, issue);
  return r as Request;
}

export function narrowThread(v: unknown, i: number, issue: Issue): Thread | undefined {
  const where = `threads[${i}]`;
  if (!isObject(v)) {
    issue(`${where}: not a thread; dropped`);
    return undefined;
  }
  const id = str(v.id) ?? `thread-${i}`;
  const kind = KINDS.has(v.kind as ThreadKind) ? (v.kind as ThreadKind) : 'main';
  const messages = narrowMessages(v.messages, `${where}.messages`, issue);
  const requests: Request[] = [];
  for (const [j, r] of (arr(v.requests) ?? []).entries()) {
    const nr = narrowRequest(r, requests.length, messages.length, id, `${where}.requests[${j}]`, issue);
    if (nr) requests.push(nr);
  }
  const prefix = narrowPrefix(v.prefix, `${where}.prefix`, issue);
  const t: JsonObject = { ...v, id, kind, messages, requests, prefix };
  dropWrong(t, { title: isStr, parentToolUseId: isStr, billedApart: Array.isArray }, where, issue);
  if (t.billedApart !== undefined)
    t.billedApart = narrowBilled(t.billedApart as unknown[], `${where}.billedApart`, issue);
  return t as Thread;
}

/** Billed responses apart from the requests: an entry without a reason, usage or line is dropped. */
function narrowBilled(list: unknown[], where: string, issue: Issue): BilledResponse[] {
  const out: BilledResponse[] = [];
  for (const [j, v] of list.entries()) {
    if (!isObject(v) || !oneOf('abandoned-branch', 'no-request')(v.why) || !isUsage(v.usage) || !isIndex(v.line)) {
      issue(`${where}[${j}]: not a billed response (needs why, usage and line); dropped`);
      continue;
    }
    const b: JsonObject = { ...v };
    dropWrong(b, { file: isStr, time: isNum, model: isStr, requestId: isStr }, `${where}[${j}]`, issue);
    out.push(b as BilledResponse);
  }
  return out;
}

const isPlain = (x: unknown) => typeof x === 'string' || typeof x === 'boolean' || isNum(x);

export function narrowMeta(v: unknown, issue: Issue): TranscriptMeta {
  if (!isObject(v)) return {};
  const m: JsonObject = { ...v };
  const record = (check: Check) => (x: unknown) => isObject(x) && Object.values(x).every(check);
  const checks = {
    fileName: isStr,
    title: isStr,
    sessionId: isStr,
    version: isStr,
    skipped: record(isNum),
    extra: record(isPlain),
    originalFormat: (x: unknown) => FORMATS.has(x as FormatId),
  };
  dropWrong(m, checks, 'meta', issue);
  return m as TranscriptMeta;
}

const isIssue = (v: unknown): v is ParseIssue =>
  isObject(v) &&
  isIndex(v.line) &&
  typeof v.message === 'string' &&
  v.message !== '' &&
  oneOf('error', 'warning', 'info')(v.severity) &&
  (v.column === undefined || (isIndex(v.column) && (v.column as number) >= 1)) &&
  (v.byteOffset === undefined || isIndex(v.byteOffset)) &&
  (v.file === undefined || isStr(v.file));

export function narrowIssues(v: unknown, issue: Issue): ParseIssue[] {
  const list = arr(v) ?? [];
  const ok = list.filter(isIssue);
  if (ok.length < list.length) {
    issue(`${list.length - ok.length} of the bundle's parse issues lack a line, severity or message; dropped`);
  }
  return ok.map((i) => ({ ...i }));
}
