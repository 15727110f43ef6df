// The messages a block rewrite makes, kept so the same rewrite of the same message gives the same Message
// object on every re-run (its token count, categories and every identity-keyed memo carry over). Owned by the
// run's PipelineMemo; a new block is nearly always placed in one message, so each list is short.
import type { Block, Message } from '../model/transcript.ts';
import type { MessageCategories } from './categories.ts';

/** One placement: the previous message, the block position, the new message (and its categories, kept with it). */
export type Placed = { prev: Message; j: number; next: Message; cats?: MessageCategories };

/** How many placements of one block are kept (many settings tried over one message). */
const MAX_PER_BLOCK = 8;

export class Placements {
  /** new block → the messages made with it. Assumes messages are never mutated. Bound: MAX_PER_BLOCK each. */
  private readonly byBlock = new WeakMap<Block, Placed[]>();

  /** `prev` with block `j` replaced by `block` (the same object each time for the same three). */
  with(prev: Message, j: number, block: Block): Placed {
    let placed = this.byBlock.get(block);
    if (placed) {
      for (const p of placed) if (p.prev === prev && p.j === j) return p;
    } else {
      placed = [];
      this.byBlock.set(block, placed);
    }
    const blocks = prev.blocks.slice();
    blocks[j] = block;
    const p: Placed = { prev, j, next: { ...prev, blocks } };
    if (placed.length >= MAX_PER_BLOCK) placed.shift();
    placed.push(p);
    return p;
  }
}
