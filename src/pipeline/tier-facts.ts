// What the tiers stage keeps per tool-result block across re-runs (owned by the run's PipelineMemo): the
// result's tool, size, text and whether it was cleared, and the rewrites tiering made of it (the Tier-1 stub,
// the head/tail truncation per cap) with their token and rune counts. A threshold change tiers the same blocks
// again; with these a rewrite costs one lookup and its text is counted once.
import type { Block, ToolResultBlock } from '../model/transcript.ts';
import { resultText } from '../tokens/block-text.ts';
import type { TokenMeter } from '../tokens/meter.ts';
import { CLEARED_MARKER } from './markers.ts';
import type { Measured } from './rewrite-memo.ts';
import type { RuneCounts } from './rune-counts.ts';

/** A rewrite of a result block and its counts. */
export type Rewrite = { next: Block; measured: Measured };

export type Facts = {
  tool: string;
  runes: number;
  cleared: boolean;
  text: string;
  tier1?: Rewrite;
  /** Head/tail truncations by cap (a drag of the tier2Cap slider makes one per value it passes). */
  truncated?: Map<number, Rewrite>;
};

/** Truncations kept per block: a slider dragged across many caps keeps the latest two (its step and the one
 *  before; each cap holds a truncated copy of every tier-2 result, ~15 MB live per cap at 20,000 requests). */
const MAX_CAPS = 2;

export class TierFacts {
  /** result block → its facts. Assumes blocks are never mutated and a result's tool is the one its thread's
   *  first call of that id names. Bound: the result blocks alive. */
  private readonly byBlock = new WeakMap<Block, Facts>();

  constructor(
    private readonly meter: TokenMeter,
    private readonly runes: RuneCounts,
  ) {}

  /** The facts of `b`; `toolName` names the tool of its id (undefined: not in this history, not kept). */
  of(b: ToolResultBlock, toolName: (id: string) => string | undefined): Facts {
    let f = this.byBlock.get(b);
    if (f === undefined) {
      const tool = toolName(b.toolUseId);
      f = {
        tool: tool ?? 'unknown',
        runes: this.runes.block(b),
        cleared: typeof b.content === 'string' && b.content === CLEARED_MARKER,
        text: resultText(b),
      };
      if (tool !== undefined) this.byBlock.set(b, f);
    }
    return f;
  }

  /** A rewrite of `prev` into `next` with its counts. */
  rewrite(prev: Block, next: Block): Rewrite {
    const m = this.meter;
    return {
      next,
      measured: {
        tokensBefore: m.block(prev),
        tokensAfter: m.block(next),
        charsBefore: this.runes.block(prev),
        charsAfter: this.runes.block(next),
      },
    };
  }

  /** The truncation of `prev` at `cap`, made by `make` once per cap. */
  truncated(f: Facts, prev: Block, cap: number, make: () => Block): Rewrite {
    f.truncated ??= new Map();
    let r = f.truncated.get(cap);
    if (!r) {
      r = this.rewrite(prev, make());
      if (f.truncated.size >= MAX_CAPS) f.truncated.delete(f.truncated.keys().next().value as number);
      f.truncated.set(cap, r);
    }
    return r;
  }
}
