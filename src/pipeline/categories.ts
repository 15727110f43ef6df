// Token categories of the stacked timeline (system, user, assistant, thinking, result:<tool>): a message's
// categories with their tokens (kept per message object in the run's CategoryTable), and the running totals
// of a working history. Names are interned to small integers, so per-request bookkeeping adds numbers into
// typed arrays instead of hashing strings.
import type { Block, Message } from '../model/transcript.ts';
import type { TokenMeter } from '../tokens/meter.ts';

export type Category = string; // 'system' | 'user' | 'assistant' | 'thinking' | `result:<tool>`

/** A message's categories (ids) with their summed tokens, and each block's category. */
export type MessageCategories = { ids: number[]; tokens: number[]; blockIds: number[] };

/**
 * Category names interned to small integers, and each message's categories with the meter's tokens. One
 * table per loaded transcript and meter (PipelineMemo): a message's categories depend only on it and on its
 * thread's tool names, and messages are never mutated (stages replace them), so they are kept per object.
 */
export class CategoryTable {
  private readonly ids = new Map<Category, number>();
  private readonly names: Category[] = [];
  /** `result:<tool>` made and interned once per tool name. */
  private readonly results = new Map<string, number>();
  /** Messages of several blocks → their categories (one-block messages use `oneBlocks`, no entry each). */
  private readonly byMessage = new WeakMap<Message, MessageCategories>();
  /** By category id: its one-element id list (see `only`). */
  private readonly singles: number[][] = [];
  /** By category id, then token count: the categories of one-block messages (see `oneBlock`; bound: the distinct
   *  counts of one-block messages, a few thousand where a log has a million of them). */
  private readonly oneBlocks: Map<number, MessageCategories>[] = [];

  constructor(private readonly meter: TokenMeter) {}

  id(name: Category): number {
    let id = this.ids.get(name);
    if (id === undefined) {
      id = this.names.length;
      this.names.push(name);
      this.ids.set(name, id);
    }
    return id;
  }

  /** The categories of a one-block message: one object for every such message with that category and count. */
  private oneBlock(id: number, tokens: number): MessageCategories {
    let byTokens = this.oneBlocks[id];
    if (byTokens === undefined) {
      byTokens = new Map();
      this.oneBlocks[id] = byTokens;
    }
    let c = byTokens.get(tokens);
    if (c === undefined) {
      const ids = this.only(id);
      c = { ids, tokens: [tokens], blockIds: ids };
      byTokens.set(tokens, c);
    }
    return c;
  }

  /** The one-element list of category `id` (shared by every one-block message in it). */
  private only(id: number): number[] {
    let list = this.singles[id];
    if (list === undefined) {
      list = [id];
      this.singles[id] = list;
    }
    return list;
  }

  /** The name of an interned category id. */
  name(id: number): Category {
    return this.names[id];
  }

  private categoryOf(m: Message, b: Block, toolName: (id: string) => string | undefined): number {
    if (m.role === 'system') return this.id('system');
    if (b.type === 'thinking' || b.type === 'redacted_thinking') return this.id('thinking');
    if (b.type === 'tool_result') {
      const tool = toolName(b.toolUseId) ?? 'unknown';
      let id = this.results.get(tool);
      if (id === undefined) {
        id = this.id(`result:${tool}`);
        this.results.set(tool, id);
      }
      return id;
    }
    return this.id(m.role);
  }

  /** The categories of `m` (`toolName` names the tool of a result's id). Blocks of one category are summed,
   *  so adding the message touches each category once. */
  of(m: Message, toolName: (id: string) => string | undefined): MessageCategories {
    // A one-block message's categories are found again in the shared table: no memo entry per message.
    if (m.blocks.length === 1)
      return this.oneBlock(this.categoryOf(m, m.blocks[0], toolName), this.meter.block(m.blocks[0]));
    let cached = this.byMessage.get(m);
    if (!cached) {
      cached = this.make(m, toolName);
      this.byMessage.set(m, cached);
    }
    return cached;
  }

  /** A message of several blocks (kept per message object), made small: arrays of their exact length (a
   *  pushed-to array reserves 17 slots); `blockIds` is `ids` itself when each block has a category of its own, and
   *  then `tokens` is the per-block list. None of these objects and lists is ever written to (one-block messages
   *  share theirs: `oneBlock`). */
  private make(m: Message, toolName: (id: string) => string | undefined): MessageCategories {
    const blocks = m.blocks;
    const per = this.meter.blockTokens(m);
    const blockIds = new Array<number>(blocks.length);
    let distinct = 0;
    for (let j = 0; j < blocks.length; j++) {
      const c = this.categoryOf(m, blocks[j], toolName);
      blockIds[j] = c;
      if (blockIds.indexOf(c) === j) distinct++;
    }
    if (distinct === blocks.length) return { ids: blockIds, tokens: per, blockIds };
    const ids = new Array<number>(distinct);
    const tokens = new Array<number>(distinct);
    let n = 0;
    for (let j = 0; j < blocks.length; j++) {
      const at = ids.indexOf(blockIds[j]);
      if (at >= 0) tokens[at] += per[j];
      else {
        ids[n] = blockIds[j];
        tokens[n++] = per[j];
      }
    }
    return { ids, tokens, blockIds };
  }
}

/** The only category of a message whose blocks are all in one, else −1. */
export function singleCategory(c: MessageCategories): number {
  return c.ids.length === 1 ? c.ids[0] : -1;
}

/** Tokens per category id, with the ids in the order they first appeared. A plain array, not a Float64Array: a
 *  total read from a Float64Array is a double, and each request's categories record (replay.ts) then boxed every
 *  value (~16 bytes each, ten a request, replaced on every run). */
export class CategoryTotals {
  private tokens: number[] = new Array(32).fill(0);
  private present = new Uint8Array(32);
  private order: number[] = [];

  add(id: number, tokens: number): void {
    if (id >= this.tokens.length) {
      const size = Math.max(id + 1, this.tokens.length * 2);
      for (let i = this.tokens.length; i < size; i++) this.tokens.push(0);
      const present = new Uint8Array(size);
      present.set(this.present);
      this.present = present;
    }
    if (this.present[id] === 0) {
      this.present[id] = 1;
      this.order.push(id);
    }
    this.tokens[id] += tokens;
  }

  addMessage(c: MessageCategories, sign: 1 | -1): void {
    const { ids, tokens } = c;
    for (let i = 0; i < ids.length; i++) this.add(ids[i], sign * tokens[i]);
  }

  /** Calls `f` for every category with a non-zero token count, in order of first appearance. */
  forEach(table: CategoryTable, f: (name: Category, tokens: number) => void): void {
    for (const id of this.order) if (this.tokens[id] !== 0) f(table.name(id), this.tokens[id]);
  }
}
