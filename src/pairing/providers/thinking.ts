// Thinking integrity (SPEC §5.1, peers-and-bugs §2a #18): the thinking / redacted_thinking blocks of the
// latest assistant message are signed and must reach the provider byte-for-byte as the stage received
// them. Compares a stage's output with its input; unchanged messages are shared by reference, so the
// usual case costs one comparison.
import type { Block, Message } from '../../model/transcript.ts';

/** Where the latest assistant message's thinking differs between a stage's input (`before`) and output
 *  (`after`): that message's index in `after` (0 if it has none) and the first differing block, which is
 *  undefined when a block was removed; undefined when nothing changed. */
export function latestThinkingChange(
  after: readonly Message[],
  before: readonly Message[],
): { message: number; block?: number } | undefined {
  const b = lastAssistant(before);
  if (b < 0) return undefined;
  const a = lastAssistant(after);
  if (a >= 0 && after[a] === before[b]) return undefined;
  const at = firstThinkingChange(a >= 0 ? after[a].blocks : [], before[b].blocks);
  if (at === undefined) return undefined;
  return at >= 0 ? { message: Math.max(a, 0), block: at } : { message: Math.max(a, 0) };
}

function lastAssistant(messages: readonly Message[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i].role === 'assistant') return i;
  return -1;
}

/** Index (in `after`) of the first thinking block that differs from `before`'s sequence; -1 when one is
 *  missing from `after` entirely; undefined when the sequences are identical. */
function firstThinkingChange(after: readonly Block[], before: readonly Block[]): number | undefined {
  const isThinking = (b: Block) => b.type === 'thinking' || b.type === 'redacted_thinking';
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < after.length && !isThinking(after[i])) i++;
    while (j < before.length && !isThinking(before[j])) j++;
    if (i === after.length) return j === before.length ? undefined : -1;
    if (j === before.length || !sameThinking(after[i], before[j])) return i;
    i++;
    j++;
  }
}

function sameThinking(x: Block, y: Block): boolean {
  if (x.type === 'thinking' && y.type === 'thinking') return x.thinking === y.thinking && x.signature === y.signature;
  if (x.type === 'redacted_thinking' && y.type === 'redacted_thinking') return x.data === y.data;
  return false;
}
