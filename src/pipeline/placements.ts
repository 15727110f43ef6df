// The messages block rewrites make, kept so the same rewrites of the same message give the same Message object on
// every re-run (its token count, categories and every identity-keyed memo carry over). Owned by the run's
// PipelineMemo. A stage that rewrites several blocks of one message (the tiers stage: parallel results share their
// message's distance) places them at once: one new message, not one per block with the intermediate ones kept.
import type { Block, Message } from '../model/transcript.ts';
import type { MessageCategories } from './categories.ts';
import type { Measured } from './rewrite-memo.ts';

/** One placement: the previous message, the new message (and its categories, kept with it). */
export type Placed = { prev: Message; next: Message; cats?: MessageCategories };

/** Block `j` of a message becomes `block`; `measured`: both blocks' counts. */
export type Edit = { j: number; block: Block; measured: Measured };

/** How many placements of one block are kept (many settings tried over one message). */
const MAX_PER_BLOCK = 8;

export class Placements {
  /** first new block → the messages made with it. Assumes messages are never mutated. Bound: MAX_PER_BLOCK each. */
  private readonly byBlock = new WeakMap<Block, Placed[]>();

  /** `prev` with the edits' blocks in place (`edits` by ascending `j`; the same object each time for the same
   *  message and edits). */
  with(prev: Message, edits: readonly Edit[]): Placed {
    const key = edits[0].block;
    const placed = this.byBlock.get(key);
    if (placed) for (const p of placed) if (p.prev === prev && holds(p.next, prev, edits)) return p;
    const blocks = prev.blocks.slice();
    for (const e of edits) blocks[e.j] = e.block;
    const p: Placed = { prev, next: { ...prev, blocks } };
    // A new list of its exact length, not pushed to: nearly every block keeps one placement, and a pushed-to array
    // reserves 17 slots (~130 bytes a list more: ~14 MB live at 20,000 requests).
    this.byBlock.set(key, placed ? placed.slice(1 - MAX_PER_BLOCK).concat(p) : [p]);
    return p;
  }
}

/** Whether `next` is `prev` with exactly the edits' blocks in place. */
function holds(next: Message, prev: Message, edits: readonly Edit[]): boolean {
  let e = 0;
  for (let j = 0; j < prev.blocks.length; j++) {
    const want = e < edits.length && edits[e].j === j ? edits[e++].block : prev.blocks[j];
    if (next.blocks[j] !== want) return false;
  }
  return true;
}
