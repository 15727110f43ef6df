// The working history a request's pipeline operates on: the previous request's output plus the
// messages appended since, with incrementally maintained indexes (tokens, runes and categories per message,
// their totals, and where the tool pairs sit: pair-index.ts). Owned by the replay driver and passed
// to stages by ownership: stages never mutate a Message or Block (they replace them), so the original
// transcript is untouched and unchanged messages stay shared — which is what keeps re-runs incremental.

import { spliceIn } from '../lib/arrays.ts';
import type { Block, Message } from '../model/transcript.ts';
import type { TokenMeter } from '../tokens/meter.ts';
import { type Category, CategoryTotals, type MessageCategories, singleCategory } from './categories.ts';
import type { PipelineMemo } from './memo.ts';
import { PairIndex } from './pair-index.ts';
import type { Edit } from './placements.ts';
import type { Measured } from './rewrite-memo.ts';
import { type BlockRefs, NO_REFS, type ToolIds } from './tool-ids.ts';

/** Token and rune counts of a rewrite's old and new block, when the caller keeps them (tiers do, per result). */

/** What the request plans know of the messages of one input array, by position (computed once for every re-run,
 *  in columns: one table per array, not arrays per request). Read only at the positions a plan covers. */
export type KnownMessages = {
  /** Plain arrays, not Float64Array: counts read from them stay small integers (see plan-columns.ts). */
  tokens: number[];
  cats: readonly MessageCategories[];
  /** singleCategory of each. */
  single: Int32Array;
  runes: number[];
  refs: readonly BlockRefs[];
};

export class Working {
  messages: Message[] = [];
  /** Exact (uncalibrated) tokens of each message. */
  private tokens: number[] = [];
  /** Categories of each message (kept per position: removing or rewriting one needs no cache lookup). */
  private cats: MessageCategories[] = [];
  /** The category of each message when it has only one (its tokens are all in it), else −1: adding or
   *  removing such a message reads two number lists instead of its categories object. */
  private single: number[] = [];
  /** Runes of each message (the sum of its blocks' blockRunes). */
  private runes: number[] = [];
  /** Tool id numbers of each message's blocks (see tool-ids.ts; rewrites keep a message's structure). */
  private refs: BlockRefs[] = [];
  /** Sum of `tokens`. */
  total = 0;
  /** Where the tool pairs sit (pair-index.ts). */
  private pairs: PairIndex;
  /** Tokens per category, for the stacked timeline. */
  private categories = new CategoryTotals();
  /** Lowest position changed since `startRequest` (Infinity when only appends happened). */
  firstChange = Number.POSITIVE_INFINITY;
  /** Length of the history as carried over from the previous request (the old prefix). */
  carried = 0;
  /** True after a structural change (messages removed or inserted) in this request. */
  structural = false;
  /** Incremented on every rebuild (reset or splice): positions cached by stages are stale when it changes. */
  epoch = 0;
  /** The epoch of the last reset, and for each splice since: the new epoch, how many tool-result messages
   *  preceded the cut and how many it removed (stages remap indexes into `resultMessages` with it). */
  private resetEpoch = 0;
  private resultSplices: { epoch: number; lo: number; removed: number }[] = [];
  /** The last splice that kept the indexes (not a rebuild): the epoch it made, where, how many it inserted. */
  private lastSplice = { epoch: -1, start: 0, inserted: 0 };

  /** The tool id numbering (the thread's, shared by every re-run, so plans can number blocks once). */
  readonly ids: ToolIds;

  private readonly meter: TokenMeter;

  /** `ids`: the thread's tool id table (memo.toolIds), shared by every re-run. */
  constructor(
    private readonly memo: PipelineMemo,
    ids: ToolIds,
  ) {
    this.meter = memo.meter;
    this.ids = ids;
    this.pairs = new PairIndex(this.ids);
  }

  /** Positions of user messages that hold at least one tool_result, ascending. */
  get resultMessages(): readonly number[] {
    return this.pairs.resultMessages;
  }

  /** Count of tool_use ids seen again after their first occurrence (duplicates need a full pairing check). */
  get duplicateUses(): number {
    return this.pairs.duplicateUses;
  }

  get length(): number {
    return this.messages.length;
  }

  at(i: number): Message {
    return this.messages[i];
  }

  tokensAt(i: number): number {
    return this.tokens[i];
  }

  /** Tokens of positions [from, to). */
  tokensBetween(from: number, to: number): number {
    let n = 0;
    for (let i = from; i < to; i++) n += this.tokens[i];
    return n;
  }

  /** Runes of positions [from, to). */
  runesBetween(from: number, to: number): number {
    let n = 0;
    for (let i = from; i < to; i++) n += this.runes[i];
    return n;
  }

  /** Tokens of positions [0, p): computed from whichever end is shorter. */
  tokensBefore(p: number): number {
    return p <= this.messages.length / 2
      ? this.tokensBetween(0, p)
      : this.total - this.tokensBetween(p, this.messages.length);
  }

  /** Start a request: everything present is the carried-over prefix. */
  startRequest(): void {
    this.firstChange = Number.POSITIVE_INFINITY;
    this.carried = this.messages.length;
    this.structural = false;
  }

  /** Replace the history wholesale (a reset: the recorded input no longer extends the previous one). */
  reset(messages: readonly Message[]): void {
    this.messages = [];
    this.tokens = [];
    this.cats = [];
    this.single = [];
    this.runes = [];
    this.refs = [];
    this.total = 0;
    this.pairs = new PairIndex(this.ids);
    this.categories = new CategoryTotals();
    this.epoch++;
    this.resetEpoch = this.epoch;
    this.resultSplices = [];
    this.append(messages);
    this.firstChange = 0;
    this.structural = true;
  }

  /** Append messages; `known` carries what the caller has of them already (a request plan computes it once
   *  for every re-run), `messages[i]`'s at position `at + i` of its table. */
  append(messages: readonly Message[], known?: KnownMessages, at = 0): void {
    for (let i = 0; i < messages.length; i++) {
      const m = messages[i];
      const pos = this.messages.length;
      const k = at + i;
      this.messages.push(m);
      const t = known ? known.tokens[k] : this.meter.message(m);
      this.tokens.push(t);
      this.total += t;
      this.runes.push(known ? known.runes[k] : this.memo.runes.message(m));
      const refs = known ? known.refs[k] : this.ids.refsOf(m);
      this.refs.push(refs);
      this.pairs.add(m, pos, refs);
      const c = known ? known.cats[k] : this.categoriesOf(m);
      this.cats.push(c);
      this.single.push(known ? known.single[k] : singleCategory(c));
      this.addCategories(pos, 1);
    }
  }

  /** Tool id numbers of the blocks of the message at `pos` (empty when it has no tool blocks). */
  refsAt(pos: number): BlockRefs {
    return this.refs[pos];
  }

  /** Position of the tool_use numbered `n` (first occurrence), −1 when it is not in the history. */
  callPositionOf(n: number): number {
    return this.pairs.callPositionOf(n);
  }

  /** Position of the (first) message holding the tool_result numbered `n`, −1 when there is none. */
  resultPositionOf(n: number): number {
    return this.pairs.resultPositionOf(n);
  }

  /** The furthest result position of the pairs whose call sits at `pos` (−1 when none): a cut c splits a
   *  pair when pos < c ≤ reach. */
  pairReachAt(pos: number): number {
    return this.pairs.reachAt(pos);
  }

  /** Position of the tool_use `id`, undefined when it is not in the history. */
  callPosition(id: string): number | undefined {
    const n = this.ids.get(id);
    const pos = n === undefined ? -1 : this.callPositionOf(n);
    return pos < 0 ? undefined : pos;
  }

  /** Position of the (first) message holding a tool_result for `id`, undefined when there is none. */
  resultPosition(id: string): number | undefined {
    const n = this.ids.get(id);
    const pos = n === undefined ? -1 : this.resultPositionOf(n);
    return pos < 0 ? undefined : pos;
  }

  private callBlock(id: string) {
    const pos = this.callPosition(id);
    if (pos === undefined) return undefined;
    for (const b of this.messages[pos].blocks) if (b.type === 'tool_use' && b.id === id) return b;
    return undefined;
  }

  /** Tool name of a tool_use id present in the history. */
  toolName(id: string): string | undefined {
    return this.callBlock(id)?.name;
  }

  /** toolName as a function value (made once per history, for memo lookups that take a namer). */
  readonly toolNameFn = (id: string): string | undefined => this.toolName(id);

  toolInput(id: string): unknown {
    return this.callBlock(id)?.input;
  }

  /** Result categories name the tool of the id's first call in the thread (with a thread's id table), so a
   *  message gets the same categories whichever history it is in. */
  private readonly nameOf = (id: string) => this.ids.name(id);

  private categoriesOf(m: Message): MessageCategories {
    return this.memo.categories.of(m, this.nameOf);
  }

  /** Add (or with −1 remove) the tokens of the message at `pos` to the category totals. */
  private addCategories(pos: number, sign: 1 | -1): void {
    const one = this.single[pos];
    if (one >= 0) this.categories.add(one, sign * this.tokens[pos]);
    else this.categories.addMessage(this.cats[pos], sign);
  }

  /** Calls `f` for every category with a non-zero token count, in order of first appearance. */
  forEachCategory(f: (name: Category, tokens: number) => void): void {
    this.categories.forEach(this.memo.categories, f);
  }

  /** Replace block `j` of message `pos` (content-only). Returns the new message. `measured`: the old and new
   *  block's token and rune counts when the caller has them already. */
  replaceBlock(pos: number, j: number, block: Block, measured?: Measured): Message {
    const old = this.messages[pos].blocks[j];
    const m = this.memo.runes;
    return this.replaceBlocks(pos, [
      {
        j,
        block,
        measured: measured ?? {
          tokensBefore: this.meter.block(old),
          tokensAfter: this.meter.block(block),
          charsBefore: m.block(old),
          charsAfter: m.block(block),
        },
      },
    ]);
  }

  /** Replace several blocks of message `pos` at once (content-only; `edits` by ascending block position): one new
   *  message. Returns it. */
  replaceBlocks(pos: number, edits: readonly Edit[]): Message {
    const prev = this.messages[pos];
    for (const { j, block } of edits) {
      const old = prev.blocks[j];
      const sameShape =
        old.type === block.type &&
        (old.type !== 'tool_result' || (block.type === 'tool_result' && block.toolUseId === old.toolUseId)) &&
        (old.type !== 'tool_use' || (block.type === 'tool_use' && block.id === old.id));
      if (!sameShape) throw new Error(`content rewrite changed block ${j} of message ${pos}`);
    }
    const placed = this.memo.placements.with(prev, edits);
    const next = placed.next;
    // Only the edited blocks changed: adjust their categories and the totals by their token deltas (no
    // re-measuring). A block keeps its category (same type and tool id).
    const one = this.single[pos];
    for (const { j, measured } of edits) {
      const delta = measured.tokensAfter - measured.tokensBefore;
      this.categories.add(one >= 0 ? one : this.cats[pos].blockIds[j], delta);
      this.runes[pos] += measured.charsAfter - measured.charsBefore;
      this.tokens[pos] += delta;
      this.total += delta;
    }
    this.messages[pos] = next;
    // The new message's categories ride along with it (one lookup fewer per rewrite on re-runs).
    placed.cats ??= this.categoriesOf(next);
    this.cats[pos] = placed.cats;
    if (pos < this.firstChange) this.firstChange = pos;
    return next;
  }

  /**
   * Structural change: remove `deleteCount` messages at `start` and insert `items`. Token totals and
   * categories are adjusted by what left and what came in; positions after the cut shift (no re-measuring
   * of the kept history). Returns the removed messages.
   */
  splice(start: number, deleteCount: number, items: readonly Message[] = []): Message[] {
    const end = start + deleteCount;
    const itemsHaveTools = items.some((m) => m.blocks.some((b) => b.type === 'tool_use' || b.type === 'tool_result'));
    if (itemsHaveTools) {
      // Rare: inserted tool blocks need every index rebuilt from scratch.
      const removed = this.messages.slice(start, end);
      const next = [...this.messages.slice(0, start), ...items, ...this.messages.slice(end)];
      const firstChange = Math.min(this.firstChange, start);
      const carried = this.carried;
      this.reset(next);
      this.firstChange = firstChange;
      this.carried = carried;
      return removed;
    }
    for (let i = start; i < end; i++) {
      this.addCategories(i, -1);
      this.total -= this.tokens[i];
    }
    const itemTokens = items.map((m) => this.meter.message(m));
    // One copy, spliced in place (the message list itself is shared with callers that keep the previous output).
    const next = this.messages.slice();
    const removed = spliceIn(next, start, deleteCount, items);
    this.messages = next;
    // The other per-position lists are private: spliced in place.
    spliceIn(this.tokens, start, deleteCount, itemTokens);
    const itemCats = items.map((m) => this.categoriesOf(m));
    spliceIn(this.cats, start, deleteCount, itemCats);
    spliceIn(this.single, start, deleteCount, itemCats.map(singleCategory));
    spliceIn(
      this.runes,
      start,
      deleteCount,
      items.map((m) => this.memo.runes.message(m)),
    );
    spliceIn(
      this.refs,
      start,
      deleteCount,
      items.map(() => NO_REFS),
    );
    for (const t of itemTokens) this.total += t;
    const { lo, removed: removedResults } = this.pairs.splice(
      start,
      end,
      items.length,
      (p) => this.messages[p],
      (p) => this.refs[p],
    );
    // Repeated ids (local servers reuse `call_0` every round): a removed first occurrence hands its place to a
    // later one, so the pair index is made afresh from the kept refs — one pass, nothing re-measured.
    if (this.pairs.duplicateUses > 0 || this.pairs.duplicateResults > 0) this.reindexPairs();
    for (let i = start; i < start + items.length; i++) this.addCategories(i, 1);
    this.epoch++;
    this.resultSplices.push({ epoch: this.epoch, lo, removed: removedResults });
    this.lastSplice = { epoch: this.epoch, start, inserted: items.length };
    this.firstChange = Math.min(this.firstChange, start);
    this.structural = true;
    return removed;
  }

  /** A fresh pair index over the current messages and their tool id numbers. */
  private reindexPairs(): void {
    const pairs = new PairIndex(this.ids);
    for (let p = 0; p < this.messages.length; p++) pairs.add(this.messages[p], p, this.refs[p]);
    this.pairs = pairs;
  }

  /** The splice that made `epoch` (where it cut and how many messages it inserted), when that was a splice
   *  and not a rebuild. */
  spliceAt(epoch: number): { start: number; inserted: number } | undefined {
    return this.lastSplice.epoch === epoch ? this.lastSplice : undefined;
  }

  /** Index `i` into `resultMessages` as of `epoch`, mapped to now (an entry the splices removed maps to the
   *  first entry after it); undefined when a reset came in between (positions no longer correspond). */
  remapResultIndex(i: number, epoch: number): number | undefined {
    if (epoch < this.resetEpoch) return undefined;
    // Only the splices after `epoch` (the list is in epoch order): found from the end, so a stage that remaps after
    // each splice reads one entry, not every splice since the reset (hundreds a run on a long thread).
    const list = this.resultSplices;
    let k = list.length;
    while (k > 0 && list[k - 1].epoch > epoch) k--;
    for (; k < list.length; k++) {
      const s = list[k];
      if (i > s.lo) i = Math.max(s.lo, i - s.removed);
    }
    return i;
  }

  /** A copy of the current messages (for views and tests). */
  snapshot(): Message[] {
    return this.messages.slice();
  }
}
