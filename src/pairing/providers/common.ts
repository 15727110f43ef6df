// Helpers shared by the per-provider pairing checks: the checker contract, block predicates (server tool
// results, empty error results, synthetic repairs) and id lists as providers print them. Kept free of
// provider rules so each provider file reads as that provider's rule list.
import type { Block, Message, ToolResultBlock } from '../../model/transcript.ts';
import type { PairingViolation } from '../types.ts';
import type { WireUnit } from './wire.ts';

/** A violation before the request context (thread, request, stage, provider) is stamped on it. */
export type Draft = Omit<PairingViolation, 'thread' | 'request' | 'stage' | 'provider'>;

/** A provider's rule check over a laid-out request; reports through `report`, never throws. */
export type ProviderCheck = (
  messages: readonly Message[],
  units: readonly WireUnit[],
  report: (v: Draft) => void,
) => void;

/** Ids joined as the providers print them (`a, b`). */
export function idList(ids: readonly string[]): string {
  return ids.join(', ');
}

/** The id a server tool result (`web_search_tool_result`, `advisor_tool_result`, …) answers, if `b` is one. */
export function serverResult(b: Block): { id: string; kind: string } | undefined {
  if (b.type !== 'other' || !b.kind.endsWith('_tool_result')) return undefined;
  const raw = b.raw;
  if (typeof raw !== 'object' || raw === null) return undefined;
  const id = (raw as { tool_use_id?: unknown }).tool_use_id;
  return typeof id === 'string' ? { id, kind: b.kind } : undefined;
}

/** True when a result carries nothing: empty string, no blocks, or only empty text blocks. */
export function isEmptyContent(content: ToolResultBlock['content']): boolean {
  if (typeof content === 'string') return content.trim() === '';
  for (const b of content) if (b.type !== 'text' || b.text.trim() !== '') return false;
  return true;
}

// Texts harnesses write when they invent a result (peers-and-bugs §2a #2–#5, Claude Code interrupts).
const SYNTHETIC_RE =
  /missing tool result|no result provided|synthetic (?:error )?result|tool result (?:is )?missing|\[Request interrupted by user for tool use\]/i;
const SYNTHETIC_MAX = 400; // synthetic notes are short; never scan a large real output

/** True when a tool_result was synthesised by the harness rather than produced by the tool. */
export function isSyntheticResult(m: Message, b: ToolResultBlock): boolean {
  if (m.synthetic) return true;
  const c = b.content;
  const first = typeof c === 'string' ? c : c[0]?.type === 'text' ? c[0].text : '';
  return first.length > 0 && first.length <= SYNTHETIC_MAX && SYNTHETIC_RE.test(first);
}

/** Tool_use ids and block indices inside one wire unit. */
export function usesIn(m: Message, u: WireUnit): { ids: string[]; blocks: number[] } {
  const ids: string[] = [];
  const blocks: number[] = [];
  for (let j = u.from; j < u.to; j++) {
    const b = m.blocks[j];
    if (b.type === 'tool_use') {
      ids.push(b.id);
      blocks.push(j);
    }
  }
  return { ids, blocks };
}

/** Tierscope's own text (no provider error is documented) for a tool call id used by two calls. */
export function duplicateCallText(where: string, id: string): string {
  return `${where}: tool call id ${id} is used by more than one call in this request, so its results cannot be matched reliably (flagged by Tierscope; the provider's own response is not documented).`;
}

/** A message's calls whose id an earlier call of the request already used, reported as warnings (Bedrock and
 *  OpenAI chat: one shared rule); every id is remembered in `seen`. */
export function reportReusedCalls(
  use: { ids: readonly string[]; blocks: readonly number[] },
  seen: Set<string>,
  messageIndex: number,
  wireIndex: number,
  report: (v: Draft) => void,
): void {
  use.ids.forEach((id, i) => {
    if (seen.has(id))
      report({
        rule: 'duplicate-id',
        severity: 'warning',
        messageIndex,
        blockIndex: use.blocks[i],
        wireIndex,
        toolUseId: id,
        error: duplicateCallText(`messages.${wireIndex}`, id),
      });
    seen.add(id);
  });
}

/** Tierscope's own text for a second result answering the same call. */
export function duplicateResultText(where: string, id: string): string {
  return `${where}: a second result answers tool call ${id} (flagged by Tierscope; the provider's own response is not documented).`;
}
