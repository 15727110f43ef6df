// What the tiers stage keeps per tool-result block across re-runs: its tool, size, text and whether it was
// cleared, its memoized rewrites (Tier-1 stub, Tier-2 truncation) and their token and rune counts per meter.
// A threshold change tiers the same blocks again; with these a rewrite costs one lookup.
import { runeCount } from '../../lib/runes.ts';
import type { Block, ToolResultBlock } from '../../model/transcript.ts';
import { blockRunes, resultText } from '../../tokens/block-text.ts';
import type { TokenMeter } from '../../tokens/meter.ts';
import { CLEARED_MARKER } from '../markers.ts';
import type { Working } from '../working.ts';
import type { Measured } from './rewrite.ts';

/** Memo keys of the rewrites (see memoBlock), made once per tool name and cap instead of per result. */
const tier1Keys = new Map<string, string>();
export function tier1Key(tool: string): string {
  let k = tier1Keys.get(tool);
  if (k === undefined) {
    k = `tier1|${tool}`;
    tier1Keys.set(tool, k);
  }
  return k;
}

/** What tiering needs of a result block besides its distance, found once per block (a re-run tiers the
 *  same blocks again: one lookup instead of a tool-name search, rune counts and pattern matches). */
type Facts = {
  tool: string;
  runes: number;
  cleared: boolean;
  text: string;
  /** The memoized rewrites (see memoBlock), kept here too: a re-run reaches them without another lookup;
   *  with their counts for the meter that measured them last. */
  tier1?: Block;
  tier1Measured?: Kept;
  truncated?: Block;
  truncatedCap?: number;
  truncatedMeasured?: Kept;
};
type Kept = Measured & { meter: TokenMeter; next: Block };
const factsOf = new WeakMap<Block, Facts>();

/** The counts of rewriting `prev` into `next` under this meter, kept in `kept` across re-runs. */
export function measure(kept: Kept | undefined, meter: TokenMeter, prev: Block, next: Block): Kept {
  if (kept && kept.meter === meter && kept.next === next) return kept;
  return {
    meter,
    next,
    tokensBefore: meter.block(prev),
    tokensAfter: meter.block(next),
    charsBefore: blockRunes(prev),
    charsAfter: blockRunes(next),
  };
}

export function resultFacts(work: Working, b: ToolResultBlock): Facts {
  let f = factsOf.get(b);
  if (f === undefined) {
    const tool = work.toolName(b.toolUseId);
    // Rune count of the result: string content, or the sum of its text parts (images count 0).
    const runes =
      typeof b.content === 'string'
        ? blockRunes(b)
        : b.content.reduce((n, x) => n + (x.type === 'text' ? runeCount(x.text) : 0), 0);
    f = {
      tool: tool ?? 'unknown',
      runes,
      cleared: typeof b.content === 'string' && b.content === CLEARED_MARKER,
      text: resultText(b),
    };
    // A result whose call is not in this history is 'unknown' here only: not kept.
    if (tool !== undefined) factsOf.set(b, f);
  }
  return f;
}
