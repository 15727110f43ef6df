// The working history a request's pipeline operates on: the previous request's output plus the
// messages appended since, with incrementally maintained indexes (token totals, tool_use/tool_result
// positions by interned tool id, tool-result message list, per-category tokens). Owned by the replay driver and passed
// to stages by ownership: stages never mutate a Message or Block (they replace them), so the original
// transcript is untouched and unchanged messages stay shared — which is what keeps re-runs incremental.
import type { Block, Message } from '../model/transcript.ts';
import type { TokenMeter } from '../tokens/meter.ts';
import { type Category, CategoryTotals, type MessageCategories, messageCategories } from './categories.ts';
import { type BlockRefs, grownTo, NO_REFS, ToolIds } from './tool-ids.ts';

/** new block → the messages made with it (previous message, block position, result): the same rewrite of the
 *  same message gives the same object on every re-run, so its token and category caches (keyed by identity)
 *  carry over. A block is nearly always placed in one message, so the list is short. */
type Placed = { prev: Message; j: number; next: Message; meter?: TokenMeter; cats?: MessageCategories };
const rewritten = new WeakMap<Block, Placed[]>();

function withBlock(prev: Message, j: number, block: Block): Placed {
  let placed = rewritten.get(block);
  if (placed) {
    for (const p of placed) if (p.prev === prev && p.j === j) return p;
  } else {
    placed = [];
    rewritten.set(block, placed);
  }
  const blocks = prev.blocks.slice();
  blocks[j] = block;
  const p: Placed = { prev, j, next: { ...prev, blocks } };
  if (placed.length >= 8) placed.shift(); // bounded: many settings tried over one message
  placed.push(p);
  return p;
}

export class Working {
  messages: Message[] = [];
  /** Exact (uncalibrated) tokens of each message. */
  private tokens: number[] = [];
  /** Categories of each message (kept per position: removing or rewriting one needs no cache lookup). */
  private cats: MessageCategories[] = [];
  /** Tool id numbers of each message's blocks (see tool-ids.ts; rewrites keep a message's structure). */
  private refs: BlockRefs[] = [];
  /** Sum of `tokens`. */
  total = 0;
  /** By tool id number: position of the assistant message holding the tool_use, −1 when absent. */
  private useAt = new Int32Array(0);
  /** By tool id number: position of the (first) message holding its tool_result, −1 when absent. */
  private resultAt = new Int32Array(0);
  /** Positions of user messages that hold at least one tool_result, ascending. */
  resultMessages: number[] = [];
  /** Tokens per category, for the stacked timeline. */
  private categories = new CategoryTotals();
  /** Lowest position changed since `startRequest` (Infinity when only appends happened). */
  firstChange = Number.POSITIVE_INFINITY;
  /** Length of the history as carried over from the previous request (the old prefix). */
  carried = 0;
  /** True after a structural change (messages removed or inserted) in this request. */
  structural = false;
  /** Count of tool_use ids seen again after their first occurrence (duplicates need a full pairing check). */
  duplicateUses = 0;
  /** Count of tool_result ids seen again (a splice that removes the first must find the next: rebuilt). */
  private duplicateResults = 0;
  /** Incremented on every rebuild (reset or splice): positions cached by stages are stale when it changes. */
  epoch = 0;
  /** The epoch of the last reset, and for each splice since: the new epoch, how many tool-result messages
   *  preceded the cut and how many it removed (stages remap indexes into `resultMessages` with it). */
  private resetEpoch = 0;
  private resultSplices: { epoch: number; lo: number; removed: number }[] = [];

  /** The tool id numbering (the thread's, shared by every re-run, so plans can number blocks once). */
  readonly ids: ToolIds;

  constructor(
    private readonly meter: TokenMeter,
    ids?: ToolIds,
  ) {
    this.ids = ids ?? new ToolIds();
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
    this.refs = [];
    this.total = 0;
    this.useAt = new Int32Array(this.ids.size).fill(-1);
    this.resultAt = new Int32Array(this.ids.size).fill(-1);
    this.duplicateUses = 0;
    this.duplicateResults = 0;
    this.resultMessages = [];
    this.categories = new CategoryTotals();
    this.epoch++;
    this.resetEpoch = this.epoch;
    this.resultSplices = [];
    this.append(messages);
    this.firstChange = 0;
    this.structural = true;
  }

  /** Append messages; `known` carries their tokens and categories when the caller has them already (a
   *  request plan computes them once for every re-run). */
  append(
    messages: readonly Message[],
    known?: { tokens: readonly number[]; cats: readonly MessageCategories[]; refs: readonly BlockRefs[] },
  ): void {
    for (let i = 0; i < messages.length; i++) {
      const m = messages[i];
      const pos = this.messages.length;
      this.messages.push(m);
      const t = known ? known.tokens[i] : this.meter.message(m);
      this.tokens.push(t);
      this.total += t;
      const refs = known ? known.refs[i] : this.ids.refsOf(m);
      this.refs.push(refs);
      if (refs.length > 0) this.index(m, pos, refs);
      const c = known ? known.cats[i] : this.categoriesOf(m);
      this.cats.push(c);
      this.addCategories(c, 1);
    }
  }

  private index(m: Message, pos: number, refs: BlockRefs): void {
    if (this.useAt.length < this.ids.size) {
      this.useAt = grownTo(this.useAt, this.ids.size, -1);
      this.resultAt = grownTo(this.resultAt, this.ids.size, -1);
    }
    let hasResult = false;
    const blocks = m.blocks;
    for (let j = 0; j < blocks.length; j++) {
      const type = blocks[j].type;
      if (type === 'tool_use' && m.role === 'assistant') {
        if (this.useAt[refs[j]] < 0) this.useAt[refs[j]] = pos;
        else this.duplicateUses++;
      } else if (type === 'tool_result') {
        hasResult = true;
        if (this.resultAt[refs[j]] < 0) this.resultAt[refs[j]] = pos;
        else this.duplicateResults++;
      }
    }
    if (hasResult && m.role === 'user') this.resultMessages.push(pos);
  }

  /** Tool id numbers of the blocks of the message at `pos` (empty when it has no tool blocks). */
  refsAt(pos: number): BlockRefs {
    return this.refs[pos];
  }

  /** Position of the tool_use numbered `n` (first occurrence), −1 when it is not in the history. */
  callPositionOf(n: number): number {
    return n < this.useAt.length ? this.useAt[n] : -1;
  }

  /** Position of the (first) message holding the tool_result numbered `n`, −1 when there is none. */
  resultPositionOf(n: number): number {
    return n < this.resultAt.length ? this.resultAt[n] : -1;
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

  toolInput(id: string): unknown {
    return this.callBlock(id)?.input;
  }

  private readonly nameOf = (id: string) => this.toolName(id);

  private categoriesOf(m: Message): MessageCategories {
    return messageCategories(this.meter, m, this.nameOf);
  }

  private addCategories(c: MessageCategories, sign: 1 | -1): void {
    this.categories.addMessage(c, sign);
  }

  /** Calls `f` for every category with a non-zero token count, in order of first appearance. */
  forEachCategory(f: (name: Category, tokens: number) => void): void {
    this.categories.forEach(f);
  }

  /**
   * Replace the message at `pos` by one with the same block structure (types and ids): content-only
   * rewrites cannot change pairing. Throws if the structure differs (a stage bug).
   */
  replaceContent(pos: number, next: Message): void {
    const prev = this.messages[pos];
    if (prev.blocks.length !== next.blocks.length || prev.role !== next.role) {
      throw new Error(`content rewrite changed the structure of message ${pos}`);
    }
    prev.blocks.forEach((b, j) => {
      const nb = next.blocks[j];
      const same =
        b.type === nb.type &&
        (b.type !== 'tool_result' || (nb.type === 'tool_result' && nb.toolUseId === b.toolUseId)) &&
        (b.type !== 'tool_use' || (nb.type === 'tool_use' && nb.id === b.id));
      if (!same) throw new Error(`content rewrite changed block ${j} of message ${pos}`);
    });
    this.addCategories(this.cats[pos], -1);
    this.messages[pos] = next;
    const t = this.meter.message(next);
    this.total += t - this.tokens[pos];
    this.tokens[pos] = t;
    this.cats[pos] = this.categoriesOf(next);
    this.addCategories(this.cats[pos], 1);
    if (pos < this.firstChange) this.firstChange = pos;
  }

  /** Replace block `j` of message `pos` (content-only). Returns the new message. `tokensBefore`/`After` are
   *  the old and new block's counts when the caller measured them already. */
  replaceBlock(pos: number, j: number, block: Block, tokensBefore?: number, tokensAfter?: number): Message {
    const prev = this.messages[pos];
    const old = prev.blocks[j];
    const sameShape =
      old.type === block.type &&
      (old.type !== 'tool_result' || (block.type === 'tool_result' && block.toolUseId === old.toolUseId)) &&
      (old.type !== 'tool_use' || (block.type === 'tool_use' && block.id === old.id));
    if (!sameShape) throw new Error(`content rewrite changed block ${j} of message ${pos}`);
    const placed = withBlock(prev, j, block);
    const next = placed.next;
    // Only block j changed: adjust its category and the totals by its token delta (O(1), no re-measuring).
    const delta =
      tokensBefore !== undefined && tokensAfter !== undefined
        ? tokensAfter - tokensBefore
        : this.meter.block(block) - this.meter.block(old);
    this.categories.add(this.cats[pos].blockIds[j], delta);
    this.messages[pos] = next;
    // The new message's categories ride along with it (one lookup fewer per rewrite on re-runs).
    if (placed.meter !== this.meter || !placed.cats) {
      placed.cats = this.categoriesOf(next);
      placed.meter = this.meter;
    }
    this.cats[pos] = placed.cats;
    this.tokens[pos] += delta;
    this.total += delta;
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
    const removed = this.messages.slice(start, end);
    const itemsHaveTools = items.some((m) => m.blocks.some((b) => b.type === 'tool_use' || b.type === 'tool_result'));
    if (itemsHaveTools || this.duplicateUses > 0 || this.duplicateResults > 0) {
      // Rare: inserted tool blocks or repeated ids need the first-occurrence indexes rebuilt from scratch.
      const next = [...this.messages.slice(0, start), ...items, ...this.messages.slice(end)];
      const firstChange = Math.min(this.firstChange, start);
      const carried = this.carried;
      this.reset(next);
      this.firstChange = firstChange;
      this.carried = carried;
      return removed;
    }
    const shift = items.length - deleteCount;
    for (let i = start; i < end; i++) {
      this.addCategories(this.cats[i], -1);
      this.total -= this.tokens[i];
    }
    // An id whose (first) position lies in [start, end) was in a removed message: it leaves the index; ids
    // after the cut move with their messages. In an order that never meets an entry it moved already.
    for (let i = start; i < end; i++) this.moveRefs(i, -1);
    const n = this.messages.length;
    if (shift < 0) for (let i = end; i < n; i++) this.moveRefs(i, i + shift);
    else if (shift > 0) for (let i = n - 1; i >= end; i--) this.moveRefs(i, i + shift);
    const itemTokens = items.map((m) => this.meter.message(m));
    this.messages = [...this.messages.slice(0, start), ...items, ...this.messages.slice(end)];
    // The other per-position lists are private: spliced in place (the message list itself is shared with
    // callers that keep the previous output).
    this.tokens.splice(start, deleteCount, ...itemTokens);
    const itemCats = items.map((m) => this.categoriesOf(m));
    this.cats.splice(start, deleteCount, ...itemCats);
    this.refs.splice(start, deleteCount, ...items.map(() => NO_REFS));
    for (const t of itemTokens) this.total += t;
    let lo = 0;
    let removedResults = 0;
    const kept: number[] = [];
    for (const p of this.resultMessages) {
      if (p < start) {
        lo++;
        kept.push(p);
      } else if (p < end) removedResults++;
      else kept.push(p + shift);
    }
    this.resultMessages = kept;
    for (const c of itemCats) this.addCategories(c, 1);
    this.epoch++;
    this.resultSplices.push({ epoch: this.epoch, lo, removed: removedResults });
    this.firstChange = Math.min(this.firstChange, start);
    this.structural = true;
    return removed;
  }

  /** The index entries of the message at `pos` that point at it now point at `to` (−1: removed). */
  private moveRefs(pos: number, to: number): void {
    const refs = this.refs[pos];
    if (refs.length === 0) return;
    for (let j = 0; j < refs.length; j++) {
      const r = refs[j];
      if (r < 0) continue;
      if (this.useAt[r] === pos) this.useAt[r] = to;
      if (this.resultAt[r] === pos) this.resultAt[r] = to;
    }
  }

  /** Index `i` into `resultMessages` as of `epoch`, mapped to now (an entry the splices removed maps to the
   *  first entry after it); undefined when a reset came in between (positions no longer correspond). */
  remapResultIndex(i: number, epoch: number): number | undefined {
    if (epoch < this.resetEpoch) return undefined;
    for (const s of this.resultSplices) {
      if (s.epoch <= epoch) continue;
      if (i > s.lo) i = Math.max(s.lo, i - s.removed);
    }
    return i;
  }

  /** A copy of the current messages (for views and tests). */
  snapshot(): Message[] {
    return this.messages.slice();
  }
}
