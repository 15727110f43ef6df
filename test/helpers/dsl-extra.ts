// Extra DSL helpers for cases the line DSL (dsl.ts) cannot spell: server tool blocks, synthetic or
// boundary messages, and copies of a message list with one message changed (what a stage would output).
import type { Block, Message } from '../../src/model/transcript.ts';

/** A `server_tool_use` block (web search, code execution …). */
export function serverToolUse(id: string, name = 'web_search'): Block {
  return { type: 'server_tool_use', id, name, input: {} };
}

/** A server tool result as the parser keeps it: an `other` block holding the raw API block. */
export function serverToolResult(id: string, kind = 'web_search_tool_result'): Block {
  return { type: 'other', kind, raw: { type: kind, tool_use_id: id, content: [] } };
}

/** A copy of `messages` where message `index` is replaced by `patch` applied to a shallow copy of it
 *  (the other messages are shared by reference, as a pipeline stage shares unchanged parts). */
export function withMessage(messages: readonly Message[], index: number, patch: (m: Message) => Message): Message[] {
  return messages.map((m, i) => (i === index ? patch({ ...m, blocks: [...m.blocks] }) : m));
}

/** A copy with message `index` flagged as harness-synthesised (`synthetic: true`). */
export function markSynthetic(messages: readonly Message[], index: number): Message[] {
  return withMessage(messages, index, (m) => ({ ...m, synthetic: true }));
}

/** A copy with message `index` flagged as a compaction boundary marker. */
export function markBoundary(messages: readonly Message[], index: number): Message[] {
  return withMessage(messages, index, (m) => ({ ...m, compaction: 'boundary' }));
}
