// Shared by the content-rewriting stages: replace one block, measure it before and after, and emit the
// SPEC §4 event — but only when the bytes actually change. A rewrite that would ADD tokens (a stub or a
// spill preview longer than a tiny result) is not applied at all: no stage may grow the prompt.
import type { Block } from '../../model/transcript.ts';
import type { Edit } from '../placements.ts';
import type { Measured } from '../rewrite-memo.ts';
import type { PipelineEvent, StageContext } from '../stage.ts';
import type { Working } from '../working.ts';

type Extra = Pick<PipelineEvent, 'tier' | 'detail' | 'distance'>;

/** Replace block j of the message at pos and emit an event; returns false when nothing changed (same
 *  bytes, or the rewrite would have cost more tokens than the block it replaces). With `batch` the replacement
 *  is added to it instead, for the caller to place with the message's others (Working.replaceBlocks). */
export function emitRewrite(
  work: Working,
  ctx: StageContext,
  pos: number,
  j: number,
  next: Block,
  action: string,
  extra: Extra = {},
  measured?: Measured,
  batch?: Edit[],
): boolean {
  const m = work.at(pos);
  const prev = m.blocks[j];
  if (sameBlock(prev, next)) return false;
  const tokensBefore = measured ? measured.tokensBefore : ctx.meter.block(prev);
  const tokensAfter = measured ? measured.tokensAfter : ctx.meter.block(next);
  if (tokensAfter > tokensBefore) return false;
  const charsBefore = measured ? measured.charsBefore : ctx.memo.runes.block(prev);
  const charsAfter = measured ? measured.charsAfter : ctx.memo.runes.block(next);
  const counts = measured ?? { tokensBefore, tokensAfter, charsBefore, charsAfter };
  if (batch) batch.push({ j, block: next, measured: counts });
  else work.replaceBlock(pos, j, next, counts);
  // Built whole here (no spreads: thousands per re-run); keys in the order the reports print them.
  ctx.record({
    thread: ctx.thread,
    request: ctx.request,
    stage: ctx.stage,
    action,
    tier: extra.tier,
    detail: extra.detail,
    distance: extra.distance,
    messageIndex: m.index,
    position: pos,
    blockIndex: j,
    toolUseId: prev.type === 'tool_result' ? prev.toolUseId : undefined,
    charsBefore,
    charsAfter,
    tokensBefore,
    tokensAfter,
    before: prev,
    after: next,
  });
  return true;
}

/** Byte equality of two blocks, cheap for the common case of string tool results and text. */
function sameBlock(a: Block, b: Block): boolean {
  if (a === b) return true;
  if (a.type === 'tool_result' && b.type === 'tool_result') {
    if (a.toolUseId !== b.toolUseId || a.isError !== b.isError) return false;
    if (typeof a.content === 'string' || typeof b.content === 'string') return a.content === b.content;
  }
  if (a.type === 'text' && b.type === 'text') return a.text === b.text;
  return JSON.stringify(a) === JSON.stringify(b);
}
