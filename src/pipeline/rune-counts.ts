// The one definition of a block's size in characters (Unicode code points, as SPEC §4 counts them): a
// tool_result's string content, or the sum of its text parts (images add nothing), else the text the block
// sends (tokens/block-text.ts). Every stage, the working history and the replay
// plan read it here, so the same block has the same size wherever it is measured.
import { runeCount } from '../lib/runes.ts';
import type { Block, Message } from '../model/transcript.ts';
import { BlockSizes } from '../tokens/block-sizes.ts';
import { blockText } from '../tokens/block-text.ts';

export class RuneCounts {
  /** Block → its runes, kept in the token meter's table of block sizes (one entry a block for both). Assumes blocks
   *  are never mutated (the pipeline copies on write). Bound: the blocks alive, dropped with the meter. */
  constructor(private readonly byBlock: BlockSizes = new BlockSizes()) {}

  block(b: Block): number {
    let n = this.byBlock.runes(b);
    if (n === undefined) {
      if (b.type !== 'tool_result') n = runeCount(blockText(b));
      else if (typeof b.content === 'string') n = runeCount(b.content);
      else n = b.content.reduce((k, x) => k + (x.type === 'text' ? runeCount(x.text) : 0), 0);
      this.byBlock.setRunes(b, n);
    }
    return n;
  }

  /** The sum of the message's blocks. */
  message(m: Message): number {
    let n = 0;
    for (const b of m.blocks) n += this.block(b);
    return n;
  }

  /** Record the runes of a block just made from text the caller counted (a pipeline summary's hundreds of KB
   *  are then not counted again when the next summary folds it). */
  known(b: Block, runes: number): void {
    this.byBlock.setRunes(b, runes);
  }
}
