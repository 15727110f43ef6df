// Server-sent events as request logs store them (`event: x\ndata: {...}\n\n`), and the rebuild of one
// Anthropic Messages response from its stream: content blocks from start/delta/stop events, usage from
// message_start merged with message_delta (whose output_tokens is the final cumulative count).
// Used by claude-trace (`body_raw`, `events`); the splitter is generic for other streaming logs.
import { arr, isObject, type JsonObject, num, str, tryParseJson } from '../lib/json.ts';

/** One SSE event: its name (empty when the stream gave none) and its data lines joined by "\n". */
export type SseEvent = { event: string; data: string };

/** Split SSE text into events (blank-line separated; `:` comment lines and unknown fields are ignored). */
export function parseSse(text: string): SseEvent[] {
  const out: SseEvent[] = [];
  let event = '';
  let data: string[] = [];
  const flush = () => {
    if (data.length > 0 || event !== '') out.push({ event, data: data.join('\n') });
    event = '';
    data = [];
  };
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line === '') {
      flush();
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  flush();
  return out;
}

/** True when a text looks like an SSE stream rather than a JSON body. */
export function looksLikeSse(text: string): boolean {
  const t = text.trimStart();
  return t.startsWith('event:') || t.startsWith('data:') || t.startsWith(':');
}

/** A rebuilt Anthropic response. `content` holds raw API blocks (normalize with anthropicContent). */
export type AnthropicStreamResult = {
  id?: string;
  model?: string;
  stopReason?: string;
  content: unknown[];
  /** message_start usage merged with message_delta usage (numbers from later events win). */
  usage?: JsonObject;
  /** Set when the stream carried an `error` event: "type: message". */
  error?: string;
  /** False when message_stop never came (cut-off stream). */
  complete: boolean;
  /** Problems met on the way (unparseable data, tool input that is not JSON). */
  problems: string[];
};

type BlockState = { block: JsonObject; json?: string };

/**
 * Rebuild one Anthropic Messages response from its stream events. `data` may be JSON text or an already
 * parsed object (claude-trace's `events` array); the event name falls back to `data.type`.
 */
export function assembleAnthropicStream(events: Iterable<{ event?: string; data: unknown }>): AnthropicStreamResult {
  const result: AnthropicStreamResult = { content: [], complete: false, problems: [] };
  const blocks = new Map<number, BlockState>();
  let usage: JsonObject | undefined;
  const mergeUsage = (u: unknown) => {
    if (!isObject(u)) return;
    usage ??= {};
    for (const [k, v] of Object.entries(u)) if (v !== null && v !== undefined) usage[k] = v;
  };
  for (const ev of events) {
    let data = ev.data;
    if (typeof data === 'string') {
      if (data.trim() === '') continue;
      const r = tryParseJson(data);
      if (!r.ok) {
        result.problems.push(`event "${ev.event ?? ''}" has data that is not JSON: ${r.message}`);
        continue;
      }
      data = r.value;
    }
    if (!isObject(data)) continue;
    const type = str(data.type) ?? ev.event ?? '';
    const index = num(data.index) ?? 0;
    switch (type) {
      case 'message_start': {
        const m = isObject(data.message) ? data.message : {};
        result.id = str(m.id);
        result.model = str(m.model);
        mergeUsage(m.usage);
        for (const [i, b] of (arr(m.content) ?? []).entries()) if (isObject(b)) blocks.set(i, { block: { ...b } });
        break;
      }
      case 'content_block_start':
        blocks.set(index, {
          block: isObject(data.content_block) ? { ...data.content_block } : { type: 'text', text: '' },
        });
        break;
      case 'content_block_delta':
        applyDelta(blocks, index, data.delta);
        break;
      case 'content_block_stop':
        finishBlock(blocks.get(index), result.problems);
        break;
      case 'message_delta': {
        const d = isObject(data.delta) ? data.delta : {};
        result.stopReason = str(d.stop_reason) ?? result.stopReason;
        mergeUsage(data.usage);
        break;
      }
      case 'message_stop':
        result.complete = true;
        break;
      case 'error': {
        const e = isObject(data.error) ? data.error : data;
        result.error = `${str(e.type) ?? 'error'}: ${str(e.message) ?? 'no message'}`;
        break;
      }
      default:
        break; // ping and future event types
    }
  }
  for (const state of blocks.values()) if (state.json !== undefined) finishBlock(state, result.problems);
  result.content = [...blocks.entries()].sort((a, b) => a[0] - b[0]).map(([, s]) => s.block);
  if (usage) result.usage = usage;
  return result;
}

function applyDelta(blocks: Map<number, BlockState>, index: number, delta: unknown): void {
  if (!isObject(delta)) return;
  let state = blocks.get(index);
  if (!state) {
    state = { block: { type: delta.type === 'thinking_delta' ? 'thinking' : 'text' } };
    blocks.set(index, state);
  }
  const b = state.block;
  const append = (field: string, piece: unknown) => {
    if (typeof piece === 'string') b[field] = (str(b[field]) ?? '') + piece;
  };
  switch (delta.type) {
    case 'text_delta':
      append('text', delta.text);
      break;
    case 'input_json_delta':
      state.json = (state.json ?? '') + (str(delta.partial_json) ?? '');
      break;
    case 'thinking_delta':
      append('thinking', delta.thinking);
      break;
    case 'signature_delta':
      append('signature', delta.signature);
      break;
    case 'citations_delta':
      b.citations = [...(arr(b.citations) ?? []), delta.citation];
      break;
    default:
      break;
  }
}

/** Parse the accumulated tool input JSON (an empty string keeps the start block's input). */
function finishBlock(state: BlockState | undefined, problems: string[]): void {
  if (!state || state.json === undefined) return;
  const json = state.json;
  state.json = undefined;
  if (json.trim() === '') return;
  const r = tryParseJson(json);
  if (r.ok) state.block.input = r.value;
  else {
    problems.push(`tool input of ${str(state.block.name) ?? 'a tool call'} is not complete JSON: ${r.message}`);
    state.block.input = { partial_json: json };
  }
}
