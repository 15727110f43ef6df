// Codex rollout helpers: turn one Responses-API item (a `response_item` payload, a bare legacy item or
// an entry of `compacted.replacement_history`) into normalized blocks plus the side of the conversation
// it belongs to, and group consecutive items into messages the way the model saw them: one model
// call's output items form one assistant message, a batch of tool outputs forms one user message.

import { pushAll } from '../lib/arrays.ts';
import { arr, isObject, type JsonObject, num, quoted, str, tryParseJson } from '../lib/json.ts';
import type { Block, Message, MessageSource, Role } from '../model/transcript.ts';
import type { EpochMs, LineNumber } from '../model/units.ts';
import { type ReadUsage, usageReader } from './usage-count.ts';

/** Where an item goes: the model's output, a tool-output batch, its own user/system message, or nowhere. */
export type ItemSide = 'assistant' | 'tools' | 'user' | 'system' | 'skip';

export type NormalizedItem = { side: ItemSide; blocks: Block[]; warnings: string[]; meta?: boolean };

/** Item types written as the model's own output (everything else ending in `_call` is treated the same). */
const ASSISTANT_OTHER = new Set(['web_search_call', 'tool_search_call', 'image_generation_call']);
/** Items kept for the harness only (undo checkpoints): never sent to the model. */
const NOT_MODEL_VISIBLE = new Set(['ghost_snapshot']);
/** Prefixes of user-role texts the harness injects (not typed by the person). */
const INJECTED = ['<environment_context>', '<user_instructions>', '# AGENTS.md instructions', '<turn_aborted>'];

/** Normalize one Responses content part (input_text, output_text, input_image, refusal …). */
function contentPart(part: unknown): Block {
  if (typeof part === 'string') return { type: 'text', text: part };
  if (!isObject(part)) return { type: 'other', kind: typeof part, raw: part };
  switch (part.type) {
    case 'input_text':
    case 'output_text':
    case 'text':
      return { type: 'text', text: str(part.text) ?? '' };
    case 'refusal':
      return { type: 'text', text: str(part.refusal) ?? '' };
    case 'input_image': {
      const b: Block = { type: 'image', source: part };
      const mt = /^data:([^;,]+)[;,]/.exec(str(part.image_url) ?? '');
      if (mt) b.mediaType = mt[1];
      return b;
    }
    default:
      return { type: 'other', kind: str(part.type) ?? 'unknown', raw: part };
  }
}

function contentBlocks(content: unknown): Block[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return (arr(content) ?? []).map(contentPart);
}

/** Does a tool's text output report a failure? Codex shell outputs carry the exit code in the text. */
function outputSaysError(text: string): boolean {
  const head = text.slice(0, 400);
  if (head.startsWith('{')) {
    const r = tryParseJson(text);
    if (r.ok && isObject(r.value)) {
      if (r.value.success === false) return true;
      const code = isObject(r.value.metadata) ? num(r.value.metadata.exit_code) : undefined;
      return code !== undefined && code !== 0;
    }
  }
  const m = /^Exit code: (-?\d+)/m.exec(head) ?? /Process exited with code (-?\d+)/.exec(head);
  if (m) return Number(m[1]) !== 0;
  return /^(failed to parse function arguments|unsupported call|execution error|aborted by user)/i.test(head);
}

/** Normalize a tool output: a string, `{content, success}`, one content item, or a content-item array. */
function toolOutput(output: unknown): { content: string | Block[]; isError: boolean; warning?: string } {
  if (typeof output === 'string') return { content: output, isError: outputSaysError(output) };
  if (Array.isArray(output)) return { content: output.map(contentPart), isError: false };
  if (isObject(output)) {
    if ('content' in output) {
      const c = output.content;
      const content = typeof c === 'string' ? c : contentBlocks(c);
      const failed = output.success === false || (typeof c === 'string' && outputSaysError(c));
      return { content, isError: failed };
    }
    if (typeof output.type === 'string') return { content: [contentPart(output)], isError: false };
    return { content: [{ type: 'other', kind: 'output', raw: output }], isError: output.success === false };
  }
  return { content: '', isError: false, warning: `tool output is ${output === null ? 'null' : typeof output}` };
}

function callId(p: JsonObject, warnings: string[]): string {
  const id = str(p.call_id) ?? str(p.id);
  if (id !== undefined) return id;
  warnings.push(`${str(p.type)} has no call_id`);
  return '';
}

function reasoningBlock(p: JsonObject): Block {
  const texts = (items: unknown) =>
    (arr(items) ?? []).map((s) => (isObject(s) ? str(s.text) : undefined)).filter((t) => t !== undefined);
  let text = texts(p.summary).join('\n\n');
  if (text === '') text = texts(p.content).join('\n\n');
  const enc = str(p.encrypted_content);
  // Only the encrypted form reached the model's context again: show it as redacted thinking.
  if (text === '' && enc !== undefined) return { type: 'redacted_thinking', data: enc };
  return enc === undefined
    ? { type: 'thinking', thinking: text }
    : { type: 'thinking', thinking: text, signature: enc };
}

function messageItem(p: JsonObject, warnings: string[]): NormalizedItem {
  const role = str(p.role);
  const blocks = contentBlocks(p.content);
  if (role === 'assistant') return { side: 'assistant', blocks, warnings };
  if (role === 'developer' || role === 'system') return { side: 'system', blocks, warnings };
  if (role !== 'user') warnings.push(`message role ${quoted(p.role)} is not user/assistant/developer/system`);
  const first = blocks[0];
  const injected = first?.type === 'text' && INJECTED.some((x) => first.text.trimStart().startsWith(x));
  return injected ? { side: 'user', blocks, warnings, meta: true } : { side: 'user', blocks, warnings };
}

/** Normalize one Responses item into blocks and the side it belongs to. */
export function normalizeItem(p: JsonObject): NormalizedItem {
  const warnings: string[] = [];
  const type = str(p.type) ?? '';
  switch (type) {
    case 'message':
      return messageItem(p, warnings);
    case 'agent_message': // a message from another agent (multi-agent mode): input to this model
      return { side: 'user', blocks: contentBlocks(p.content), warnings };
    case 'compaction': // the encrypted summary of a remote compaction (in replacement_history)
      return { side: 'user', blocks: [{ type: 'other', kind: 'compaction', raw: p }], warnings };
    case 'reasoning':
      return { side: 'assistant', blocks: [reasoningBlock(p)], warnings };
    case 'function_call': {
      const id = callId(p, warnings);
      const name = str(p.name) ?? '';
      let input: unknown = p.arguments;
      if (typeof p.arguments === 'string') {
        const r = tryParseJson(p.arguments);
        if (r.ok) input = r.value;
        else warnings.push(`function_call ${name} arguments are not valid JSON (${r.message}); kept as text`);
      } else {
        warnings.push(`function_call ${name} arguments are ${p.arguments === null ? 'null' : typeof p.arguments}`);
        input = p.arguments ?? {};
      }
      return { side: 'assistant', blocks: [{ type: 'tool_use', id, name, input }], warnings };
    }
    case 'custom_tool_call': {
      const id = callId(p, warnings);
      const input = str(p.input) ?? '';
      if (typeof p.input !== 'string') warnings.push('custom_tool_call input is not a string');
      return { side: 'assistant', blocks: [{ type: 'tool_use', id, name: str(p.name) ?? '', input }], warnings };
    }
    case 'local_shell_call': {
      const id = callId(p, warnings);
      return { side: 'assistant', blocks: [{ type: 'tool_use', id, name: 'local_shell', input: p.action }], warnings };
    }
    case 'function_call_output':
    case 'custom_tool_call_output': {
      const toolUseId = callId(p, warnings);
      const out = toolOutput(p.output);
      if (out.warning) warnings.push(`${type} ${out.warning}`);
      const block: Block = { type: 'tool_result', toolUseId, content: out.content, isError: out.isError };
      return { side: 'tools', blocks: [block], warnings };
    }
    default: {
      if (NOT_MODEL_VISIBLE.has(type)) return { side: 'skip', blocks: [], warnings };
      const side: ItemSide = ASSISTANT_OTHER.has(type) || type.endsWith('_call') ? 'assistant' : 'tools';
      return { side, blocks: [{ type: 'other', kind: type || 'unknown', raw: p }], warnings };
    }
  }
}

const ROLE_OF: Record<Exclude<ItemSide, 'skip'>, Role> = {
  assistant: 'assistant',
  tools: 'user',
  user: 'user',
  system: 'system',
};

export type ItemPlacement = { line: LineNumber; time?: EpochMs; uuid?: string; path?: string; model?: string };

/**
 * Groups consecutive items into messages. Assistant-side items merge until something else arrives
 * (one model call's output); tool outputs merge into one user message (one batch); user and system
 * messages stand alone. The open message is mutated in place as items arrive.
 */
export class ItemGrouper {
  private open: { msg: Message; side: ItemSide } | undefined;

  /** `onOpen` runs when a new message starts (the parser creates a request for an assistant message). */
  constructor(
    readonly messages: Message[],
    private readonly onOpen?: (msg: Message) => void,
  ) {}

  /** End the open group: the next item starts a new message. */
  close(): void {
    this.open = undefined;
  }

  /** Add a normalized item; returns the message it landed in (undefined for skipped items). */
  add(item: NormalizedItem, at: ItemPlacement): Message | undefined {
    if (item.side === 'skip') return undefined;
    const o = this.open;
    if (o && o.side === item.side && (item.side === 'assistant' || item.side === 'tools')) {
      pushAll(o.msg.blocks, item.blocks);
      if (o.msg.source.line !== at.line) {
        const lines = o.msg.source.lines ?? [o.msg.source.line];
        if (!lines.includes(at.line)) lines.push(at.line);
        o.msg.source.lines = lines;
      }
      return o.msg;
    }
    const source: MessageSource = { line: at.line, shape: 'responses-item' };
    if (at.uuid !== undefined) source.uuid = at.uuid;
    if (at.path !== undefined) source.path = at.path;
    const msg: Message = { index: this.messages.length, role: ROLE_OF[item.side], blocks: [...item.blocks], source };
    if (at.time !== undefined) msg.time = at.time;
    if (item.side === 'assistant' && at.model !== undefined) msg.model = at.model;
    if (item.meta) msg.meta = true;
    this.messages.push(msg);
    this.open = item.side === 'user' || item.side === 'system' ? undefined : { msg, side: item.side };
    this.onOpen?.(msg);
    return msg;
  }
}

/**
 * Convert a Codex TokenUsage (OpenAI semantics: `input_tokens` includes the cached and cache-written
 * tokens) into Anthropic-style observed usage, so that input + cacheRead + cacheWrite = input_tokens.
 */
export function codexUsage(u: unknown): ReadUsage | undefined {
  if (!isObject(u)) return undefined;
  const r = usageReader();
  const input = r.count(u.input_tokens, 'input_tokens');
  if (input === undefined) return undefined;
  const cacheRead = r.count(u.cached_input_tokens, 'cached_input_tokens') ?? 0;
  const cacheWrite = r.count(u.cache_write_input_tokens, 'cache_write_input_tokens') ?? 0;
  return r.mark({
    input: Math.max(0, input - cacheRead - cacheWrite),
    cacheRead,
    cacheWrite,
    output: r.count(u.output_tokens, 'output_tokens') ?? 0,
  });
}

/** `total − previous total` per field, for old token_count lines without `last_token_usage`. */
export function usageDelta(total: unknown, prev: unknown): JsonObject | undefined {
  if (!isObject(total)) return undefined;
  const p = isObject(prev) ? prev : {};
  const out: JsonObject = {};
  for (const k of [
    'input_tokens',
    'cached_input_tokens',
    'cache_write_input_tokens',
    'output_tokens',
    'reasoning_output_tokens',
  ]) {
    const a = num(total[k]);
    if (a !== undefined) out[k] = a - (num(p[k]) ?? 0);
  }
  return out;
}
