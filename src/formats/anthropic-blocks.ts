// Shared normalization of Anthropic Messages content (used by claude-code, claude-trace and
// anthropic-request): content blocks, system prompts, tool definitions and usage objects.
// Unknown block types are kept as `other` blocks so nothing is lost.
import { arr, isObject, str } from '../lib/json.ts';
import type { Block, ObservedUsage, ToolDef } from '../model/transcript.ts';
import { type ReadUsage, usageReader } from './usage-count.ts';

/** Normalize one Anthropic content block. */
function anthropicBlock(raw: unknown): Block {
  if (!isObject(raw)) return { type: 'other', kind: typeof raw, raw };
  switch (raw.type) {
    case 'text':
      return { type: 'text', text: str(raw.text) ?? '' };
    case 'thinking': {
      const b: Block = { type: 'thinking', thinking: str(raw.thinking) ?? '' };
      const sig = str(raw.signature);
      if (sig !== undefined) b.signature = sig;
      return b;
    }
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: str(raw.data) ?? '' };
    case 'image': {
      const source = isObject(raw.source) ? raw.source : undefined;
      const b: Block = { type: 'image', source };
      const mt = source ? str(source.media_type) : undefined;
      if (mt) b.mediaType = mt;
      return b;
    }
    case 'tool_use':
      return { type: 'tool_use', id: str(raw.id) ?? '', name: str(raw.name) ?? '', input: raw.input ?? {} };
    case 'server_tool_use':
      return { type: 'server_tool_use', id: str(raw.id) ?? '', name: str(raw.name) ?? '', input: raw.input ?? {} };
    case 'tool_result': {
      const c = raw.content;
      const content: string | Block[] = typeof c === 'string' ? c : Array.isArray(c) ? c.map(anthropicBlock) : '';
      return { type: 'tool_result', toolUseId: str(raw.tool_use_id) ?? '', content, isError: raw.is_error === true };
    }
    default:
      return { type: 'other', kind: str(raw.type) ?? 'unknown', raw };
  }
}

/** Normalize Anthropic `content` (a string or an array of blocks). */
export function anthropicContent(content: unknown): Block[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  const list = arr(content);
  return list ? list.map(anthropicBlock) : [];
}

/** Normalize a `system` field (string or array of text blocks). */
export function anthropicSystem(system: unknown): Block[] | undefined {
  if (system === undefined || system === null) return undefined;
  return anthropicContent(system);
}

/** Normalize a `tools` array (client tools and server tools). */
export function anthropicTools(tools: unknown): ToolDef[] | undefined {
  const list = arr(tools);
  if (!list) return undefined;
  return list.filter(isObject).map((t) => {
    const def: ToolDef = { name: str(t.name) ?? str(t.type) ?? 'unknown' };
    const d = str(t.description);
    if (d !== undefined) def.description = d;
    if (t.input_schema !== undefined) def.inputSchema = t.input_schema;
    else if (t.type !== undefined && t.name !== undefined) def.inputSchema = { type: t.type };
    return def;
  });
}

/** Normalize an Anthropic `usage` object; undefined when it carries no input figures. */
export function anthropicUsage(usage: unknown): ReadUsage | undefined {
  if (!isObject(usage)) return undefined;
  const r = usageReader();
  const input = r.count(usage.input_tokens, 'input_tokens');
  if (input === undefined) return undefined;
  const u: ObservedUsage = {
    input,
    cacheRead: r.count(usage.cache_read_input_tokens, 'cache_read_input_tokens') ?? 0,
    cacheWrite: r.count(usage.cache_creation_input_tokens, 'cache_creation_input_tokens') ?? 0,
    output: r.count(usage.output_tokens, 'output_tokens') ?? 0,
  };
  const cc = isObject(usage.cache_creation) ? usage.cache_creation : undefined;
  const oneHour = cc ? r.count(cc.ephemeral_1h_input_tokens, 'ephemeral_1h_input_tokens') : undefined;
  if (oneHour !== undefined) u.cacheWrite1h = oneHour;
  return r.mark(u);
}
