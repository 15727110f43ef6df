// Index of a thread's tool calls: tool_use id → where it is, its name and input, and where its result is.
// Shared by the report, the pipeline (names and args for stubs) and the re-fetch analysis.
import type { Message, ToolUseBlock } from '../model/transcript.ts';

export type ToolCall = {
  id: string;
  name: string;
  input: unknown;
  useMessage: number;
  useBlock: number;
  resultMessage?: number;
  resultBlock?: number;
};

/** Map every tool_use id (assistant messages only) to its call, and attach the first matching result. */
export function indexToolCalls(messages: readonly Message[]): Map<string, ToolCall> {
  const calls = new Map<string, ToolCall>();
  for (const m of messages) {
    m.blocks.forEach((b, j) => {
      if (b.type === 'tool_use' && m.role === 'assistant' && !calls.has(b.id)) {
        calls.set(b.id, { id: b.id, name: b.name, input: (b as ToolUseBlock).input, useMessage: m.index, useBlock: j });
      } else if (b.type === 'tool_result') {
        const c = calls.get(b.toolUseId);
        if (c && c.resultMessage === undefined) {
          c.resultMessage = m.index;
          c.resultBlock = j;
        }
      }
    });
  }
  return calls;
}
