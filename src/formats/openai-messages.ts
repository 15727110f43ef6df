// Shared normalization of OpenAI chat-shaped messages (openai-chat, swe-agent, inspect): roles, content
// parts, assistant `tool_calls` → tool_use blocks, and runs of consecutive `role:"tool"` messages → ONE user
// message of tool_result blocks (source.shape 'openai-tool': block k is the k-th original tool message of the
// run starting at source.path / source.line), so the provider's own pairing rules can still be checked.
// Also OpenAI usage (cached tokens are *included* in prompt_tokens) and tool definitions.
import { arr, isObject, quoted, str, tryParseJson } from '../lib/json.ts';
import type {
  Block,
  IssueSeverity,
  Message,
  MessageSource,
  Role,
  ToolDef,
  ToolResultBlock,
  ToolUseBlock,
} from '../model/transcript.ts';
import type { LineNumber } from '../model/units.ts';
import { type ReadUsage, usageReader } from './usage-count.ts';

/** Where the i-th raw message came from: its line (0 for whole documents) and/or JSON path. */
type OpenAiLocation = { line: LineNumber; path?: string };

export type OpenAiMessageOptions = {
  locate: (i: number) => OpenAiLocation;
  /** Record a problem with raw message i (the caller turns it into a ParseIssue with line or path). */
  issue: (severity: IssueSeverity, message: string, i: number) => void;
  /** Decoder for `tool_calls` / `tool_call_ids` given as a non-JSON string (SWE-agent's Python-repr quirk). */
  decodeString?: (text: string) => { ok: true; value: unknown } | { ok: false; message: string };
};

/** Normalize one OpenAI content part (also Inspect's `reasoning`/`image` parts and Responses text parts). */
function openaiPart(part: unknown): Block {
  if (typeof part === 'string') return { type: 'text', text: part };
  if (!isObject(part)) return { type: 'other', kind: typeof part, raw: part };
  switch (part.type) {
    case 'text':
    case 'input_text':
    case 'output_text':
      return { type: 'text', text: str(part.text) ?? '' };
    case 'refusal':
      return { type: 'text', text: str(part.refusal) ?? '' };
    case 'reasoning': {
      const text = str(part.reasoning) ?? '';
      if (part.redacted === true) return { type: 'redacted_thinking', data: text };
      const b: Block = { type: 'thinking', thinking: text };
      const sig = str(part.signature);
      if (sig !== undefined) b.signature = sig;
      return b;
    }
    case 'image_url':
    case 'image': {
      const source = part.type === 'image_url' ? part.image_url : part;
      const url = isObject(source) ? (str(source.url) ?? str(source.image)) : str(source);
      const b: Block = { type: 'image', source };
      const mt = url !== undefined ? /^data:([^;,]+)[;,]/.exec(url)?.[1] : undefined;
      if (mt) b.mediaType = mt;
      return b;
    }
    default:
      return { type: 'other', kind: str(part.type) ?? 'unknown', raw: part };
  }
}

/** Normalize message `content`: a string, an array of parts, or null (no blocks). Empty strings give no block. */
function openaiContent(content: unknown): Block[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  const list = arr(content);
  return list ? list.map(openaiPart) : [];
}

/** Tool-call `arguments`: a JSON string (OpenAI) or an object (Inspect); undecodable strings stay strings. */
function toolInput(args: unknown, warn: (m: string) => void, what: string): unknown {
  if (args === undefined || args === null) return {};
  if (typeof args !== 'string') return args;
  if (args.trim() === '') return {};
  const r = tryParseJson(args);
  if (r.ok) return r.value;
  warn(`${what}: arguments are not valid JSON (${r.message}); kept as a string`);
  return args;
}

/** Normalize one entry of `tool_calls` ({id, function:{name, arguments}} or Inspect's {id, function, arguments}). */
function openaiToolCall(tc: unknown, warn: (m: string) => void): ToolUseBlock {
  if (!isObject(tc)) {
    warn(`a tool call is ${tc === null ? 'null' : typeof tc}, not an object; kept as an unnamed call`);
    return { type: 'tool_use', id: '', name: '', input: tc };
  }
  const fn = tc.function;
  const name = (isObject(fn) ? str(fn.name) : str(fn)) ?? str(tc.name) ?? '';
  const id = str(tc.id) ?? '';
  const what = `tool call ${id || '(no id)'} (${name || 'no name'})`;
  if (id === '') warn(`${what} has no id`);
  const parseError = str(tc.parse_error);
  if (parseError) warn(`${what}: the harness could not parse its arguments: ${parseError}`);
  const input = toolInput(isObject(fn) ? fn.arguments : tc.arguments, warn, what);
  return { type: 'tool_use', id, name, input };
}

function decoded(v: unknown, opts: OpenAiMessageOptions, i: number, field: string): unknown {
  if (typeof v !== 'string') return v;
  const json = tryParseJson(v);
  if (json.ok) return json.value;
  const alt = opts.decodeString?.(v);
  if (alt?.ok) return alt.value;
  const why = alt ? `did not decode (${alt.message})` : 'is not valid JSON';
  opts.issue('warning', `${field} is a string that ${why}; ignored`, i);
  return undefined;
}

const ROLE_MAP: Record<string, Role> = { system: 'system', developer: 'system', user: 'user', assistant: 'assistant' };

function toolResult(m: Record<string, unknown>, opts: OpenAiMessageOptions, i: number): ToolResultBlock {
  let id = str(m.tool_call_id);
  if (id === undefined) {
    const ids = arr(decoded(m.tool_call_ids, opts, i, 'tool_call_ids'));
    id = ids ? str(ids[0]) : undefined;
    if (ids && ids.length > 1)
      opts.issue('warning', `tool message answers ${ids.length} calls; paired with the first`, i);
  }
  if (id === undefined) opts.issue('warning', 'tool message has no tool_call_id', i);
  const c = m.content;
  const content: string | Block[] = typeof c === 'string' ? c : Array.isArray(c) ? c.map(openaiPart) : '';
  // Error markers: Inspect's `error: {type, message}`; a plain `is_error: true` from other harnesses.
  const isError = (m.error !== undefined && m.error !== null && m.error !== false) || m.is_error === true;
  return { type: 'tool_result', toolUseId: id ?? '', content, isError };
}

function sourceOf(loc: OpenAiLocation, m: Record<string, unknown>, shape: MessageSource['shape']): MessageSource {
  const s: MessageSource = { line: loc.line, shape };
  if (loc.path !== undefined) s.path = loc.path;
  const id = str(m.id);
  if (id !== undefined) s.uuid = id;
  return s;
}

/**
 * Normalize a list of OpenAI chat messages into Messages (index = position in the result). Consecutive `tool`
 * messages merge into one user message; bad items become issues and are skipped; nothing throws.
 */
export function openaiMessages(raw: readonly unknown[], opts: OpenAiMessageOptions): Message[] {
  const out: Message[] = [];
  let toolRun: Message | undefined; // the open merged tool-result message, while tool messages keep coming
  raw.forEach((m, i) => {
    if (!isObject(m)) {
      opts.issue('error', `message is ${m === null ? 'null' : typeof m}, not an object; skipped`, i);
      toolRun = undefined;
      return;
    }
    const loc = opts.locate(i);
    const roleName = str(m.role);
    if (roleName === 'tool') {
      const block = toolResult(m, opts, i);
      if (toolRun) {
        toolRun.blocks.push(block);
        if (loc.line !== toolRun.source.line && !toolRun.source.lines?.includes(loc.line)) {
          toolRun.source.lines = [...(toolRun.source.lines ?? []), loc.line];
        }
        return;
      }
      toolRun = { index: out.length, role: 'user', blocks: [block], source: sourceOf(loc, m, 'openai-tool') };
      out.push(toolRun);
      return;
    }
    toolRun = undefined;
    let role = roleName !== undefined && Object.hasOwn(ROLE_MAP, roleName) ? ROLE_MAP[roleName] : undefined;
    if (role === undefined) {
      opts.issue('warning', `unknown role ${quoted(m.role ?? null)}; kept as a user message`, i);
      role = 'user';
    }
    const blocks = openaiContent(m.content);
    const refusal = str(m.refusal);
    if (refusal) blocks.push({ type: 'text', text: refusal });
    const calls =
      m.tool_calls === undefined || m.tool_calls === null ? undefined : decoded(m.tool_calls, opts, i, 'tool_calls');
    if (calls !== undefined) {
      const list = arr(calls);
      if (!list) opts.issue('warning', 'tool_calls is not a list; ignored', i);
      for (const tc of list ?? []) blocks.push(openaiToolCall(tc, (msg) => opts.issue('warning', msg, i)));
    }
    const msg: Message = { index: out.length, role, blocks, source: sourceOf(loc, m, 'openai-message') };
    const model = str(m.model);
    if (model !== undefined) msg.model = model;
    out.push(msg);
  });
  return out;
}

/** OpenAI usage → ObservedUsage: `input` = prompt − cached (prompt_tokens includes cached_tokens). */
export function openaiUsage(usage: unknown): ReadUsage | undefined {
  if (!isObject(usage)) return undefined;
  const r = usageReader();
  const prompt = r.count(usage.prompt_tokens, 'prompt_tokens') ?? r.count(usage.input_tokens, 'input_tokens');
  if (prompt === undefined) return undefined;
  const details = isObject(usage.prompt_tokens_details) ? usage.prompt_tokens_details : usage.input_tokens_details;
  const cached = Math.min(
    prompt,
    (isObject(details) ? r.count(details.cached_tokens, 'cached_tokens') : undefined) ?? 0,
  );
  return r.mark({
    input: prompt - cached,
    cacheRead: cached,
    cacheWrite: 0,
    output: r.count(usage.completion_tokens, 'completion_tokens') ?? r.count(usage.output_tokens, 'output_tokens') ?? 0,
  });
}

/** Tool definitions: `{type:"function", function:{name, description, parameters}}` or flat `{name, …}`. */
export function openaiTools(tools: unknown): ToolDef[] | undefined {
  const list = arr(tools);
  if (!list) return undefined;
  return list.filter(isObject).map((t) => {
    const f = isObject(t.function) ? t.function : t;
    const def: ToolDef = { name: str(f.name) ?? str(t.type) ?? 'unknown' };
    const d = str(f.description);
    if (d !== undefined) def.description = d;
    if (f.parameters !== undefined) def.inputSchema = f.parameters;
    return def;
  });
}

/** Structural equality of plain JSON-like values (key order ignored). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  }
  if (!isObject(a) || !isObject(b)) return false;
  const ka = Object.keys(a).filter((k) => a[k] !== undefined);
  const kb = Object.keys(b).filter((k) => b[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => deepEqual(a[k], b[k]));
}
