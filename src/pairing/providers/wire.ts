// Wire layouts: how each provider's request would lay out a normalized message list, so a violation can
// name the real `messages.N` (Gemini `contents[N]`, Responses `input[N]`) index. The only place that
// knows the mapping: Anthropic, Bedrock and Gemini hoist system messages out of the list; OpenAI chat
// turns every tool_result into its own `tool` message (text around it becomes separate messages);
// Responses makes every call, output and reasoning block its own input item.
import { firstIndex } from '../../lib/search.ts';
import type { Message } from '../../model/transcript.ts';
import type { Provider } from '../types.ts';

type WireRole =
  | 'system'
  | 'user'
  | 'assistant'
  | 'model' // Gemini's assistant role
  | 'tool' // OpenAI chat tool message (one tool_result)
  | 'function_call' // Responses items, one block each
  | 'function_call_output'
  | 'reasoning'
  | 'item'; // Responses: any other non-message item (server tool calls, provider-specific items)

/** One message (or input item) of the would-be request: blocks [from, to) of normalized message `msg`. */
export type WireUnit = { role: WireRole; msg: number; from: number; to: number };

/** Lay out `messages` as `provider` would receive them; the array index of a unit is its wire index. */
export function layoutWire(messages: readonly Message[], provider: Provider): WireUnit[] {
  switch (provider) {
    case 'anthropic':
    case 'bedrock':
      return wholeMessages(messages, 'assistant');
    case 'gemini':
      return wholeMessages(messages, 'model');
    case 'openai-chat':
      return chatLayout(messages);
    case 'openai-responses':
      return responsesLayout(messages);
  }
}

/** How the provider's own errors name a position: `messages.N`, Gemini `contents.N`, Responses `input.N`. */
export function wireLabel(provider: Provider): string {
  return provider === 'gemini' ? 'contents' : provider === 'openai-responses' ? 'input' : 'messages';
}

/** Wire index of block `block` of message `msg` (or of the message's first unit); for a message that is
 *  not on the wire (a hoisted system message) the index where it would have been, i.e. the next unit. */
export function wireIndexOf(units: readonly WireUnit[], msg: number, block?: number): number {
  return firstIndex(units.length, (i) => {
    const u = units[i];
    return !(u.msg < msg || (u.msg === msg && block !== undefined && u.to <= block && u.to > u.from));
  });
}

/** One unit per message; system messages go to a top-level field (`system`, `systemInstruction`). */
function wholeMessages(messages: readonly Message[], assistantRole: 'assistant' | 'model'): WireUnit[] {
  const units: WireUnit[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (m.role === 'system') continue;
    units.push({ role: m.role === 'assistant' ? assistantRole : 'user', msg: i, from: 0, to: m.blocks.length });
  }
  return units;
}

/** OpenAI chat: system stays; each tool_result is its own `tool` message; the blocks between results form
 *  one message of the original role (assistant tool_use blocks ride in that message's `tool_calls`). */
function chatLayout(messages: readonly Message[]): WireUnit[] {
  const units: WireUnit[] = [];
  for (let i = 0; i < messages.length; i++) {
    const { role, blocks } = messages[i];
    let run = -1;
    for (let j = 0; j < blocks.length; j++) {
      if (blocks[j].type !== 'tool_result') {
        if (run < 0) run = j;
        continue;
      }
      if (run >= 0) units.push({ role, msg: i, from: run, to: j });
      run = -1;
      units.push({ role: 'tool', msg: i, from: j, to: j + 1 });
    }
    if (run >= 0) units.push({ role, msg: i, from: run, to: blocks.length });
    else if (blocks.length === 0) units.push({ role, msg: i, from: 0, to: 0 });
  }
  return units;
}

/** Responses: consecutive text/image blocks form one message item; every other block is its own item. */
function responsesLayout(messages: readonly Message[]): WireUnit[] {
  const units: WireUnit[] = [];
  for (let i = 0; i < messages.length; i++) {
    const { role, blocks } = messages[i];
    let run = -1;
    for (let j = 0; j < blocks.length; j++) {
      const t = blocks[j].type;
      if (t === 'text' || t === 'image') {
        if (run < 0) run = j;
        continue;
      }
      if (run >= 0) units.push({ role, msg: i, from: run, to: j });
      run = -1;
      const itemRole: WireRole =
        t === 'tool_use'
          ? 'function_call'
          : t === 'tool_result'
            ? 'function_call_output'
            : t === 'thinking' || t === 'redacted_thinking'
              ? 'reasoning'
              : 'item';
      units.push({ role: itemRole, msg: i, from: j, to: j + 1 });
    }
    if (run >= 0) units.push({ role, msg: i, from: run, to: blocks.length });
    else if (blocks.length === 0) units.push({ role, msg: i, from: 0, to: 0 });
  }
  return units;
}
