// Structural counts of a transcript (SPEC §8 `counts`): threads, messages, requests (assistant responses
// already deduplicated by the parsers), tool uses and tool results over the active branch of every thread.
import type { Block, Transcript } from '../model/transcript.ts';

export type Counts = { threads: number; messages: number; requests: number; toolUses: number; toolResults: number };

function countBlocks(blocks: readonly Block[], type: Block['type']): number {
  let n = 0;
  for (const b of blocks) if (b.type === type) n++;
  return n;
}

export function transcriptCounts(t: Transcript): Counts {
  const c: Counts = { threads: t.threads.length, messages: 0, requests: 0, toolUses: 0, toolResults: 0 };
  for (const th of t.threads) {
    c.messages += th.messages.length;
    c.requests += th.requests.length;
    for (const m of th.messages) {
      c.toolUses += countBlocks(m.blocks, 'tool_use');
      c.toolResults += countBlocks(m.blocks, 'tool_result');
    }
  }
  return c;
}
