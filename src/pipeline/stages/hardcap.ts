// Stage 6 — hardcap (SPEC §4.6), every request: if the estimate still exceeds contextWindow − outputReserve,
// drop the oldest messages (never the head — first user message, summaries — never the last
// `minRecentTurns` turns, never half a tool pair) until it fits; as a last resort head/tail-truncate the
// largest remaining blocks so the request always fits. `keepLastMessages` turns it into a sliding window.
import { runeCount } from '../../lib/runes.ts';
import type { Block, Message } from '../../model/transcript.ts';
import { blockText } from '../../tokens/block-text.ts';
import { hardcapTokens } from '../config.ts';
import { headEnd, tailStart, validCuts } from '../cuts.ts';
import { truncateHeadTail } from '../markers.ts';
import type { PipelineStage, StageContext } from '../stage.ts';
import type { Working } from '../working.ts';
import { emitRewrite } from './rewrite.ts';

export type HardcapState = { dropped: Set<string>; droppedMessages: number };

function drop(work: Working, state: HardcapState, ctx: StageContext, start: number, end: number, why: string): void {
  const removed = work.messages.slice(start, end);
  const tokensBefore = work.tokensBetween(start, end);
  const charsBefore = removed.reduce((n, m) => n + m.blocks.reduce((k, b) => k + runeCount(blockText(b)), 0), 0);
  for (const m of removed) for (const b of m.blocks) if (b.type === 'tool_result') state.dropped.add(b.toolUseId);
  state.droppedMessages += removed.length;
  work.splice(start, end - start);
  ctx.emit({
    action: 'drop',
    messageIndex: removed[0].index,
    position: start,
    blockIndex: 0,
    charsBefore,
    charsAfter: 0,
    tokensBefore,
    tokensAfter: 0,
    detail: `dropped ${removed.length} messages (${tokensBefore} tokens): ${why}`,
  });
}

function overBy(work: Working, ctx: StageContext): number {
  return ctx.factor * (ctx.prefixTokens + work.total) - hardcapTokens(ctx.config);
}

/** Largest truncatable block (text or string tool result). */
function largestBlock(work: Working, ctx: StageContext): { pos: number; j: number; tokens: number } | undefined {
  let best: { pos: number; j: number; tokens: number } | undefined;
  for (let pos = 0; pos < work.length; pos++) {
    const m: Message = work.at(pos);
    m.blocks.forEach((b, j) => {
      const ok = b.type === 'text' || (b.type === 'tool_result' && typeof b.content === 'string');
      if (!ok) return;
      const t = ctx.meter.block(b);
      if (!best || t > best.tokens) best = { pos, j, tokens: t };
    });
  }
  return best;
}

function truncateToFit(work: Working, state: HardcapState, ctx: StageContext): void {
  for (let round = 0; round < 50 && overBy(work, ctx) > 0; round++) {
    const target = largestBlock(work, ctx);
    if (!target) return;
    const b = work.at(target.pos).blocks[target.j];
    const text =
      b.type === 'text' ? b.text : b.type === 'tool_result' && typeof b.content === 'string' ? b.content : '';
    const runes = runeCount(text);
    if (runes <= 200) return;
    const blockTokens = Math.max(1, ctx.meter.block(b));
    const excessCounted = overBy(work, ctx) / ctx.factor;
    const keep = Math.max(200, Math.floor(runes * Math.max(0, 1 - excessCounted / blockTokens) * 0.9));
    const cut = truncateHeadTail(text, Math.min(keep, runes - 1));
    const next: Block = b.type === 'text' ? { ...b, text: cut } : ({ ...b, content: cut } as Block);
    if (
      !emitRewrite(work, ctx, target.pos, target.j, next, 'truncate', { detail: 'last resort: the request must fit' })
    )
      return;
    if (b.type === 'tool_result') state.dropped.delete(b.toolUseId);
  }
}

export const hardcapStage: PipelineStage<HardcapState> = {
  id: 'hardcap',
  title: 'Hard cap',
  description:
    'If the prompt still exceeds the window minus the output reserve, the oldest turns are dropped (pairs kept whole, head and recent turns protected) until it fits.',
  initial: () => ({ dropped: new Set(), droppedMessages: 0 }),
  run(work, state, ctx) {
    const cfg = ctx.config.hardcap;
    if (!cfg.enabled) return state;
    if (cfg.keepLastMessages !== null && work.length > cfg.keepLastMessages) {
      let h = 0;
      while (h < work.length && work.at(h).role === 'system') h++;
      const cuts = validCuts(work, Math.max(h + 1, work.length - cfg.keepLastMessages), work.length);
      if (cuts.length > 0 && cuts[0] > h)
        drop(work, state, ctx, h, cuts[0], `sliding window keeps the last ${cfg.keepLastMessages} messages`);
    }
    if (overBy(work, ctx) <= 0) return state;
    const h = headEnd(work);
    const maxCut = tailStart(work, cfg.minRecentTurns);
    if (maxCut > h) {
      const cuts = validCuts(work, h + 1, maxCut);
      let removed = 0;
      let at = h;
      let chosen: number | undefined;
      const excess = overBy(work, ctx) / ctx.factor;
      for (const c of cuts) {
        removed += work.tokensBetween(at, c);
        at = c;
        chosen = c;
        if (removed >= excess) break;
      }
      if (chosen !== undefined) drop(work, state, ctx, h, chosen, 'over the hard cap');
    }
    if (overBy(work, ctx) > 0) truncateToFit(work, state, ctx);
    return state;
  },
};
