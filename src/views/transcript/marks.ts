// The glyphs of the transcript's marks column and their words (tooltips, legend, detail pane): one
// definition so the legend always explains what the rows show. Tier words live here too.
import type { ToolResultRow } from '../../protocol/index.ts';

export type MarkId = 'spilled' | 'cleared' | 'summarised' | 'dropped' | 'error' | 'compaction' | 'pairing';

export const MARKS: Record<MarkId, { glyph: string; label: string }> = {
  spilled: { glyph: '⤓', label: 'spilled to a file, a preview kept' },
  cleared: { glyph: '⌫', label: 'cleared (microcompact)' },
  summarised: { glyph: 'Σ', label: 'summarised away into a summary message' },
  dropped: { glyph: '✂', label: 'dropped by the hard cap' },
  error: { glyph: '✕', label: 'tool result is an error' },
  compaction: { glyph: '≋', label: 'the agent’s own compaction summary' },
  pairing: { glyph: '⚠', label: 'pairing problem the provider would reject or flag' },
};

export const TIER_WORDS: Record<1 | 2 | 3, string> = { 1: 'stub', 2: 'compressed', 3: 'kept' };

/** "tier 2 at request 41, distance 27, floor tool" — the badge tooltip. */
export function tierText(r: ToolResultRow): string {
  if (r.tier === null) return 'not tiered (tiering never ran while it was in the window)';
  if (r.tier === 3) return 'tier 3: kept verbatim (inside the tier-3 window whenever tiering ran)';
  const head = `tier ${r.tier} (${TIER_WORDS[r.tier]})`;
  const parts: string[] = [];
  if (r.firstTouchRequest !== null) parts.push(`at request ${r.firstTouchRequest}`);
  if (r.distanceAtFirstTouch !== null) parts.push(`distance ${r.distanceAtFirstTouch}`);
  if (r.floor) parts.push('floor tool');
  return parts.length > 0 ? `${head} ${parts.join(', ')}` : head;
}

/** The marks that apply to a tool result, in column order. */
export function resultMarks(r: ToolResultRow): MarkId[] {
  const out: MarkId[] = [];
  if (r.spilled) out.push('spilled');
  if (r.cleared) out.push('cleared');
  if (r.inSummary) out.push('summarised');
  if (r.dropped) out.push('dropped');
  return out;
}
