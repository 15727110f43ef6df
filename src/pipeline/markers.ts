// The exact marker and stub texts of SPEC §4, in one place (tests, the UI legend and the stages all
// use these). Every cut is rune-safe: sizes are counted in code points and surrogate pairs never split.
import { headRunes, runeCount, tailRunesStart } from '../lib/runes.ts';

export const MICRO_COMPACT_PREFIX = '[micro-compact] ';
export const CLEARED_MARKER = '[Old tool result content cleared]';
export const ELIDED_PREFIX = '[elided browser observation:';
export const IMAGE_PLACEHOLDER = '[previous screenshot removed to save context]';
const SPILL_PREFIX = '[Output saved to disk:';

/** `[elided browser observation: <tool>, was <N> chars]` */
export function elidedObservation(tool: string, runes: number): string {
  return `${ELIDED_PREFIX} ${tool}, was ${runes} chars]`;
}

/** Deterministic spill pointer for a tool result (like Claude Code's tool-results/<id>.txt). */
function spillPointer(toolUseId: string): string {
  const safe = toolUseId.replace(/[^a-zA-Z0-9_.-]+/g, '_').slice(0, 120) || 'unknown';
  return `tool-results/${safe}.txt`;
}

/** `[Output saved to disk: <pointer> (<N> chars)]` + blank line + `Preview (first <P> chars):` + preview. */
export function spillReplacement(toolUseId: string, content: string, previewRunes: number): string {
  const n = runeCount(content);
  const p = Math.min(previewRunes, n);
  return `${SPILL_PREFIX} ${spillPointer(toolUseId)} (${n} chars)]\n\nPreview (first ${p} chars):\n${headRunes(content, p)}`;
}

/** A head/tail truncation of a text: `content.slice(0, head) + marker + content.slice(tail)` (UTF-16 offsets). */
export type HeadTailCut = { head: number; marker: string; tail: number };

/** Where head/tail truncation cuts `content` at `capRunes`: ¾ head, ¼ tail (in runes, never splitting a surrogate
 *  pair), marker `[... truncated <D> chars ...]` (D = total − cap); null when it fits. `total`: the content's runes
 *  when the caller holds them (then only the kept head and tail are read). */
export function headTailCut(content: string, capRunes: number, total = runeCount(content)): HeadTailCut | null {
  if (total <= capRunes) return null;
  const head = headRunes(content, Math.floor((capRunes * 3) / 4)).length;
  const tail = tailRunesStart(content, Math.floor(capRunes / 4));
  return { head, marker: `\n\n[... truncated ${total - capRunes} chars ...]\n\n`, tail };
}

/** Head/tail truncation (headTailCut) applied. */
export function truncateHeadTail(content: string, capRunes: number): string {
  const c = headTailCut(content, capRunes);
  return c ? applyCut(content, c) : content;
}

export function applyCut(content: string, c: HeadTailCut): string {
  return content.slice(0, c.head) + c.marker + content.slice(c.tail);
}

/** Tool arguments for a Tier-1 stub: compact JSON, cut to `max` runes plus `...`. */
export function stubArgs(input: unknown, max = 100): string {
  let s: string;
  try {
    s = typeof input === 'string' ? input : (JSON.stringify(input) ?? '');
  } catch {
    s = String(input);
  }
  return runeCount(s) > max ? `${headRunes(s, max)}...` : s;
}

/** `[<tool> called with <args ≤100 runes>] → [result: <N> chars, snipped]` */
export function tier1Stub(tool: string, input: unknown, runes: number): string {
  return `[${tool} called with ${stubArgs(input)}] → [result: ${runes} chars, snipped]`;
}

/** `[micro-compact] <summary>` clipped to `cap` runes in total. */
export function microCompact(summary: string, cap: number): string {
  const text = `${MICRO_COMPACT_PREFIX}${summary.trim()}`;
  return runeCount(text) > cap ? headRunes(text, cap) : text;
}
