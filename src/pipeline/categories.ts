// Token categories of the stacked timeline (system, user, assistant, thinking, result:<tool>): a message's
// categories with their tokens, cached per meter and message object, and the running totals of a working
// history. Names are interned to small integers, so per-request bookkeeping adds numbers into typed arrays
// instead of hashing strings.
import { getOrInsert, newWeakMap } from '../lib/maps.ts';
import type { Block, Message } from '../model/transcript.ts';
import type { TokenMeter } from '../tokens/meter.ts';

export type Category = string; // 'system' | 'user' | 'assistant' | 'thinking' | `result:<tool>`

/** Category names interned to small integers (shared by every working history). */
const categoryIds = new Map<Category, number>();
const categoryNames: Category[] = [];
function categoryId(name: Category): number {
  let id = categoryIds.get(name);
  if (id === undefined) {
    id = categoryNames.length;
    categoryNames.push(name);
    categoryIds.set(name, id);
  }
  return id;
}

/** The name of an interned category id. */
export function categoryName(id: number): Category {
  return categoryNames[id];
}

/** A message's categories (ids) with their summed tokens, and each block's category. */
export type MessageCategories = { ids: number[]; tokens: number[]; blockIds: number[] };
/** Per meter (encoding). A message's categories depend only on it and its thread's tool names: safe to
 *  keep per object. */
const categoryCaches = new WeakMap<TokenMeter, WeakMap<Message, MessageCategories>>();

/** Result categories by tool name: `result:<tool>` is made and interned once per name. */
const resultIds = new Map<string, number>();

function categoryOf(m: Message, b: Block, toolName: (id: string) => string | undefined): number {
  if (m.role === 'system') return categoryId('system');
  if (b.type === 'thinking' || b.type === 'redacted_thinking') return categoryId('thinking');
  if (b.type === 'tool_result') {
    const tool = toolName(b.toolUseId) ?? 'unknown';
    let id = resultIds.get(tool);
    if (id === undefined) {
      id = categoryId(`result:${tool}`);
      resultIds.set(tool, id);
    }
    return id;
  }
  return categoryId(m.role);
}

/** The categories of `m` (cached per meter and message; `toolName` names the tool of a result's id).
 *  Blocks of one category are summed, so adding the message touches each category once. */
export function messageCategories(
  meter: TokenMeter,
  m: Message,
  toolName: (id: string) => string | undefined,
): MessageCategories {
  const cache = getOrInsert(categoryCaches, meter, newWeakMap<Message, MessageCategories>);
  let cached = cache.get(m);
  if (!cached) {
    const per = meter.measure(m).blocks;
    const ids: number[] = [];
    const tokens: number[] = [];
    const blockIds: number[] = [];
    m.blocks.forEach((b, j) => {
      const c = categoryOf(m, b, toolName);
      blockIds.push(c);
      const at = ids.indexOf(c);
      if (at >= 0) tokens[at] += per[j];
      else {
        ids.push(c);
        tokens.push(per[j]);
      }
    });
    cached = { ids, tokens, blockIds };
    cache.set(m, cached);
  }
  return cached;
}

/** The only category of a message whose blocks are all in one, else −1. */
export function singleCategory(c: MessageCategories): number {
  return c.ids.length === 1 ? c.ids[0] : -1;
}

/** Tokens per category id, with the ids in the order they first appeared. */
export class CategoryTotals {
  private tokens = new Float64Array(32);
  private present = new Uint8Array(32);
  private order: number[] = [];

  add(id: number, tokens: number): void {
    if (id >= this.tokens.length) {
      const size = Math.max(id + 1, this.tokens.length * 2);
      const grown = new Float64Array(size);
      grown.set(this.tokens);
      this.tokens = grown;
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
  forEach(f: (name: Category, tokens: number) => void): void {
    for (const id of this.order) if (this.tokens[id] !== 0) f(categoryNames[id], this.tokens[id]);
  }
}
