// Token meter: exact tokens per block and per message, memoised by object identity (WeakMap) on top
// of the tokenizer's content-hash cache. Unchanged messages are shared by reference between requests,
// so a re-run never re-counts or even re-hashes them (SPEC §2, §9 incremental re-runs).
import type { Block, Message, ToolDef } from '../model/transcript.ts';
import { BlockSizes } from './block-sizes.ts';
import { blockTokens, countedText, toolDefText, toolDefTokens } from './block-text.ts';
import { type CutAnchors, cutCounter } from './cut-count.ts';
import { cutUnits } from './line-units.ts';
import { mediaTokens } from './media-tokens.ts';
import type { Tokenizer } from './tokenizer.ts';

export class TokenMeter {
  /** Block → its tokens, in one table with its runes (block-sizes.ts; the pipeline's RuneCounts reads the same). */
  readonly sizes = new BlockSizes();
  /** Message of several blocks → its total (a number, not an object with its blocks' counts). */
  private readonly msgCache = new WeakMap<Message, number>();
  private readonly toolCache = new WeakMap<ToolDef, number>();
  /** Block → its text's line-unit counts (line-units.ts): the counting pool's for the log's long blocks
   *  (primeBlock), and made for every head/tail cut of such a block (primeCut), so a cut of a cut is counted the
   *  same way. Bound: the blocks alive, 4 bytes a line. */
  private readonly lineUnits = new WeakMap<Block, Uint32Array>();
  /** Block → where its last head/tail cut was split into exactly counted parts (cut-count.ts), so its next cut
   *  counts only the text between. Bound: the blocks alive that were cut, six numbers each. */
  private readonly cutAnchors = new WeakMap<Block, CutAnchors>();
  constructor(readonly tokenizer: Tokenizer) {}

  block(b: Block): number {
    let n = this.sizes.tokens(b);
    if (n === undefined) {
      n = blockTokens(this.tokenizer, b);
      this.sizes.setTokens(b, n);
    }
    return n;
  }

  /** Tokens of each block of `m`, in a new list (memoized per block, not per message). */
  blockTokens(m: Message): number[] {
    return m.blocks.map((b) => this.block(b));
  }

  message(m: Message): number {
    // A one-block message's total is its block's, memoized there: no entry per message.
    if (m.blocks.length === 1) return this.block(m.blocks[0]);
    let n = this.msgCache.get(m);
    if (n === undefined) {
      n = 0;
      for (const b of m.blocks) n += this.block(b);
      this.msgCache.set(m, n);
    }
    return n;
  }

  messages(list: readonly Message[], from = 0, to = list.length): number {
    let n = 0;
    for (let i = from; i < to; i++) n += this.message(list[i]);
    return n;
  }

  tool(t: ToolDef): number {
    let n = this.toolCache.get(t);
    if (n === undefined) {
      n = toolDefTokens(this.tokenizer, t);
      this.toolCache.set(t, n);
    }
    return n;
  }

  text(s: string): number {
    return this.tokenizer.count(s);
  }

  /** Record the exact count of a text block made from counted parts (a summary from its lines' counts), without
   *  hashing its text. */
  knownBlock(b: Block, textTokens: number): void {
    if (this.sizes.tokens(b) === undefined) this.sizes.setTokens(b, textTokens + mediaTokens(b));
  }

  /** Record an exact count computed elsewhere (a counting worker) for a block's text, with its line units'
   *  counts when the text is long. */
  primeBlock(b: Block, textTokens: number, units?: Uint32Array): void {
    this.sizes.setTokens(b, textTokens + mediaTokens(b));
    this.tokenizer.prime?.(countedText(b), textTokens);
    if (units) this.lineUnits.set(b, units);
  }

  /** Count `next`, whose text is `from`'s text cut by `cut` (head/tail truncation), from `from`'s line-unit counts:
   *  only the lines at the cut are tokenized. When `from` has no line units, from the anchors of `from`'s last cut
   *  (cut-count.ts): only the text between the two cuts' boundaries and the middle are tokenized. Either way nothing
   *  is hashed into the tokenizer's cache: the counts are kept here, on the block. Both must be text blocks or
   *  results with string content. */
  primeCut(from: Block, next: Block, cut: { head: number; tail: number }): void {
    if (this.sizes.tokens(next) !== undefined) return;
    const tok = this.tokenizer;
    const units = this.lineUnits.get(from);
    // A text without line units is cut-counted only by a tokenizer that can count without caching.
    if (!units && !tok.countFresh) return;
    const fresh = tok.countFresh ? tok.countFresh.bind(tok) : (s: string) => tok.count(s);
    const text = countedText(from);
    const cutText = countedText(next);
    const counter = cutCounter(text, cutText, cut.head, cut.tail, fresh, this.cutAnchors.get(from));
    let n = 0;
    if (units) {
      // The lines at the cut are new text too, kept in the cut's line units; the units at the head's end and in
      // the tail are counted from the anchors of `from`'s last cut, like a text without units.
      const made = cutUnits(text, units, cut.head, cut.tail, cutText, counter.part);
      if (!made) return;
      for (let k = 0; k < made.length; k++) n += made[k];
      this.lineUnits.set(next, made);
    } else n = counter.part(cutText, 0);
    this.cutAnchors.set(from, counter.anchors());
    this.sizes.setTokens(next, n + mediaTokens(next));
  }

  /** Record a block whose text's count the tokenizer already holds (`textTokens`): what `block` would count, without
   *  hashing the text a second time. */
  adoptBlock(b: Block, textTokens: number): void {
    this.sizes.setTokens(b, textTokens + mediaTokens(b));
  }

  adoptTool(t: ToolDef, tokens: number): void {
    this.toolCache.set(t, tokens);
  }

  primeTool(t: ToolDef, tokens: number): void {
    this.toolCache.set(t, tokens);
    this.tokenizer.prime?.(toolDefText(t), tokens);
  }

  hasBlock(b: Block): boolean {
    return this.sizes.tokens(b) !== undefined;
  }

  /** Exact tokens when every block is counted already, else an estimate (UTF-16 length / 4); never counts. */
  peek(m: Message): { tokens: number; exact: boolean } {
    const cached = this.msgCache.get(m);
    if (cached !== undefined) return { tokens: cached, exact: true };
    let n = 0;
    let exact = true;
    for (const b of m.blocks) {
      const c = this.sizes.tokens(b);
      if (c !== undefined) n += c;
      else {
        exact = false;
        n += Math.ceil(countedText(b).length / 4) + mediaTokens(b);
      }
    }
    return { tokens: n, exact };
  }
}
