// What the tiers stage keeps per tool-result block across re-runs (owned by the run's PipelineMemo): the
// result's tool, size, text and whether it was cleared, and the rewrites tiering made of it (the Tier-1 stub,
// the head/tail truncation per cap) with their token and rune counts. A threshold change tiers the same blocks
// again; with these a rewrite costs one lookup and its text is counted once. Kept in columns, one row a block
// (typed arrays and lists), not objects: at 20,000 requests there are ~34,000 rows, and a Facts object, a Map of
// caps and a rewrite and a count object per rewrite held ~0.5 KB a block beside the rewrites themselves.
import type { Block, ToolResultBlock } from '../model/transcript.ts';
import { resultText } from '../tokens/block-text.ts';
import type { TokenMeter } from '../tokens/meter.ts';
import { CLEARED_MARKER } from './markers.ts';
import type { Measured } from './rewrite-memo.ts';
import type { RuneCounts } from './rune-counts.ts';
import { grownTo } from './tool-ids.ts';

/** Truncations kept per block: a slider dragged across many caps keeps the latest two (its step and the one
 *  before; each cap holds a truncated copy of every tier-2 result, ~15 MB live per cap at 20,000 requests). */
const MAX_CAPS = 2;

/** Row 0 is a scratch row: the facts of a block whose tool is not in the history are made for one use, not kept. */
const SCRATCH = 0;

export class TierFacts {
  /** result block → its row. Assumes blocks are never mutated and a result's tool is the one its thread's first
   *  call of that id names. Bound: the result blocks tiered (blocks the rewrite memos keep live as long as the
   *  transcript; a row outlives its block, ~90 bytes). */
  private readonly rows = new WeakMap<Block, number>();
  private size = 1;
  private readonly tools: string[] = [''];
  private readonly texts: string[] = [''];
  /** Runes of the block; CLEARED: whether it is the cleared marker. */
  private runes = new Int32Array(64);
  private cleared = new Uint8Array(64);
  /** Tokens of the block (−1 until a rewrite of it is measured). */
  private tokens = new Int32Array(64).fill(-1);
  /** The Tier-1 stub, with its tokens and runes. */
  private readonly stubs: (Block | undefined)[] = [undefined];
  private stubTokens = new Int32Array(64);
  private stubRunes = new Int32Array(64);
  /** MAX_CAPS slots a row (row × MAX_CAPS + slot): the cap, its truncation, tokens and runes; `older`: the slot
   *  filled first (replaced next). */
  private caps = new Int32Array(64 * MAX_CAPS);
  private readonly cuts: (Block | undefined)[] = [undefined, undefined];
  private cutTokens = new Int32Array(64 * MAX_CAPS);
  private cutRunes = new Int32Array(64 * MAX_CAPS);
  private older = new Uint8Array(64);

  constructor(
    private readonly meter: TokenMeter,
    private readonly runeCounts: RuneCounts,
  ) {}

  /** The row of `b`'s facts; `toolName` names the tool of its id (undefined: not in this history, not kept: the
   *  scratch row, valid until the next such block). */
  row(b: ToolResultBlock, toolName: (id: string) => string | undefined): number {
    const known = this.rows.get(b);
    if (known !== undefined) return known;
    const tool = toolName(b.toolUseId);
    const row = tool === undefined ? SCRATCH : this.size++;
    if (row !== SCRATCH) {
      this.grow(this.size);
      this.rows.set(b, row);
    }
    this.tools[row] = tool ?? 'unknown';
    this.texts[row] = resultText(b);
    this.runes[row] = this.runeCounts.block(b);
    this.cleared[row] = typeof b.content === 'string' && b.content === CLEARED_MARKER ? 1 : 0;
    this.tokens[row] = -1;
    this.stubs[row] = undefined;
    this.older[row] = 0;
    for (let s = 0; s < MAX_CAPS; s++) this.cuts[row * MAX_CAPS + s] = undefined;
    return row;
  }

  tool(row: number): string {
    return this.tools[row];
  }

  text(row: number): string {
    return this.texts[row];
  }

  runesOf(row: number): number {
    return this.runes[row];
  }

  isCleared(row: number): boolean {
    return this.cleared[row] === 1;
  }

  /** The Tier-1 stub of `prev` (the block of `row`), made by `make` once. */
  tier1(row: number, prev: Block, make: () => Block): Block {
    let next = this.stubs[row];
    if (next === undefined) {
      next = make();
      this.stubs[row] = next;
      this.stubTokens[row] = this.meter.block(next);
      this.stubRunes[row] = this.runeCounts.block(next);
      this.tokensOf(row, prev);
    }
    return next;
  }

  /** The stub's counts beside its block's (after `tier1`). */
  tier1Measured(row: number): Measured {
    return this.measured(row, this.stubTokens[row], this.stubRunes[row]);
  }

  /** The truncation of `prev` (the block of `row`) at `cap`, made by `make` once per cap; its counts are
   *  `truncatedMeasured(row, cap)`'s. */
  truncated(row: number, prev: Block, cap: number, make: () => Block): Block {
    const at = this.slotOf(row, cap);
    if (at >= 0) return this.cuts[at] as Block;
    let slot = 0;
    while (slot < MAX_CAPS && this.cuts[row * MAX_CAPS + slot] !== undefined) slot++;
    if (slot === MAX_CAPS) {
      slot = this.older[row];
      this.older[row] = (slot + 1) % MAX_CAPS;
    }
    const i = row * MAX_CAPS + slot;
    const next = make();
    this.caps[i] = cap;
    this.cuts[i] = next;
    this.cutTokens[i] = this.meter.block(next);
    this.cutRunes[i] = this.runeCounts.block(next);
    this.tokensOf(row, prev);
    return next;
  }

  /** The truncation's counts beside its block's (after `truncated` at `cap`). */
  truncatedMeasured(row: number, cap: number): Measured {
    const i = this.slotOf(row, cap);
    return this.measured(row, this.cutTokens[i], this.cutRunes[i]);
  }

  private slotOf(row: number, cap: number): number {
    for (let s = 0; s < MAX_CAPS; s++) {
      const i = row * MAX_CAPS + s;
      if (this.cuts[i] !== undefined && this.caps[i] === cap) return i;
    }
    return -1;
  }

  private tokensOf(row: number, prev: Block): void {
    if (this.tokens[row] < 0) this.tokens[row] = this.meter.block(prev);
  }

  private measured(row: number, tokensAfter: number, charsAfter: number): Measured {
    return { tokensBefore: this.tokens[row], tokensAfter, charsBefore: this.runes[row], charsAfter };
  }

  private grow(size: number): void {
    if (this.runes.length >= size) return;
    this.runes = grownTo(this.runes, size, 0);
    this.cleared = grownTo(this.cleared, size, 0);
    this.tokens = grownTo(this.tokens, size, -1);
    this.stubTokens = grownTo(this.stubTokens, size, 0);
    this.stubRunes = grownTo(this.stubRunes, size, 0);
    this.older = grownTo(this.older, size, 0);
    this.caps = grownTo(this.caps, this.runes.length * MAX_CAPS, 0);
    this.cutTokens = grownTo(this.cutTokens, this.runes.length * MAX_CAPS, 0);
    this.cutRunes = grownTo(this.cutRunes, this.runes.length * MAX_CAPS, 0);
  }
}
