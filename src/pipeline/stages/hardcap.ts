// Stage 6 — hardcap (SPEC §4.6), every request: if the estimate still exceeds contextWindow − outputReserve,
// drop the oldest messages (never the head — first user message, summaries — never the last
// `minRecentTurns` turns, never half a tool pair) until it fits; as a last resort head/tail-truncate the
// largest remaining blocks so the request always fits. `keepLastMessages` turns it into a sliding window
// (after the head).
import { runeCount } from '../../lib/runes.ts';
import type { Block, Message } from '../../model/transcript.ts';
import type { TokenMeter } from '../../tokens/meter.ts';
import { hardcapTokens } from '../config.ts';
import { headEnd, tailStart, validCuts } from '../cuts.ts';
import { applyCut, headTailCut, IMAGE_PLACEHOLDER, truncateHeadTail } from '../markers.ts';
import type { PipelineStage, StageContext } from '../stage.ts';
import type { Working } from '../working.ts';
import { emitRewrite } from './rewrite.ts';

/** `dropped`: tool_use ids whose results were dropped → the request that dropped them. */
export type HardcapState = { dropped: Map<string, number>; droppedMessages: number };

function drop(work: Working, state: HardcapState, ctx: StageContext, start: number, end: number, why: string): void {
  const removed = work.messages.slice(start, end);
  const tokensBefore = work.tokensBetween(start, end);
  const charsBefore = work.runesBetween(start, end);
  for (const m of removed)
    for (const b of m.blocks)
      if (b.type === 'tool_result' && !state.dropped.has(b.toolUseId)) state.dropped.set(b.toolUseId, ctx.request);
  state.droppedMessages += removed.length;
  work.splice(start, end - start);
  ctx.emit({
    action: 'drop',
    messageIndex: removed[0].index,
    lastMessageIndex: removed[removed.length - 1].index,
    position: start,
    blockIndex: 0,
    charsBefore,
    charsAfter: 0,
    tokensBefore,
    tokensAfter: 0,
    detail: `dropped ${removed.length} messages (${tokensBefore} tokens): ${why}`,
    // What the diff view shows: the messages as they were sent last, and nothing after.
    before: { type: 'other', kind: 'dropped-messages', raw: removed },
  });
}

function overBy(ctx: StageContext): number {
  return ctx.estimate() - hardcapTokens(ctx.config);
}

type Target = { pos: number; j: number; tokens: number };

/** Blocks the last resort may shorten, largest first: text blocks and tool results (never thinking,
 *  tool_use or top-level images, whose bytes the provider checks or which cannot be cut). */
function truncatable(work: Working, ctx: StageContext): Target[] {
  const out: Target[] = [];
  for (let pos = 0; pos < work.length; pos++) {
    const m: Message = work.at(pos);
    m.blocks.forEach((b, j) => {
      if (b.type === 'text' || b.type === 'tool_result') out.push({ pos, j, tokens: ctx.meter.block(b) });
    });
  }
  // Stable: ties keep message order, so the oldest of equal blocks is cut first.
  return out.sort((a, b) => b.tokens - a.tokens);
}

/** `b` cut to about `ratio` of its runes (head/tail, rune-safe); images inside results become placeholders. A
 *  text block's or string result's cut is counted from its lines' counts (meter.primeCut). */
function shrink(b: Block, ratio: number, meter: TokenMeter): Block | undefined {
  const capOf = (text: string) => Math.max(0, Math.floor(runeCount(text) * ratio) - 40);
  const cut = (text: string) => (text === '' ? text : truncateHeadTail(text, capOf(text)));
  const whole = (text: string, make: (s: string) => Block): Block => {
    const c = text === '' ? null : headTailCut(text, capOf(text));
    if (!c) return make(text);
    const next = make(applyCut(text, c));
    meter.primeCut(b, next, c);
    return next;
  };
  if (b.type === 'text') return whole(b.text, (text) => ({ ...b, text }));
  if (b.type !== 'tool_result') return undefined;
  const content = b.content;
  if (typeof content === 'string') return whole(content, (s) => ({ ...b, content: s }));
  return {
    ...b,
    content: content.map(
      (x): Block =>
        x.type === 'image'
          ? { type: 'text', text: IMAGE_PLACEHOLDER }
          : x.type === 'text'
            ? { ...x, text: cut(x.text) }
            : x,
    ),
  };
}

/** `shrink(b, 0)`, kept per block (PipelineMemo.cutToNothing): far over the cap, each request cuts the whole history
 *  so, mostly blocks it cut before. */
function cutToNothing(b: Block, ctx: StageContext): Block | undefined {
  const memo = ctx.memo.cutToNothing;
  let next = memo.get(b);
  if (next === undefined) {
    next = shrink(b, 0, ctx.meter) ?? null;
    memo.set(b, next);
  }
  return next ?? undefined;
}

/** Last resort (the recent turns alone are too big): shorten the largest blocks until the request fits.
 *  Each step must save tokens, so the loop ends; it stops when no block can shrink any further. The targets are
 *  listed and sorted once; a shortened block moves to its new place (ties keep message order), so each round
 *  costs a scan, not a sort; a block that could not be shortened is not tried again. */
function truncateToFit(work: Working, state: HardcapState, ctx: StageContext): void {
  const targets = truncatable(work, ctx);
  for (let round = 0; round < 500 && overBy(ctx) > 0; round++) {
    let progressed = false;
    for (let k = 0; k < targets.length; k++) {
      const t = targets[k];
      const b = work.at(t.pos).blocks[t.j];
      const excess = overBy(ctx) / ctx.factor;
      const ratio = Math.max(0, 1 - excess / Math.max(1, t.tokens)) * 0.9;
      const next = ratio === 0 ? cutToNothing(b, ctx) : shrink(b, ratio, ctx.meter);
      // A block that cannot save tokens now cannot later either (the excess only falls, so later cuts keep
      // more): it leaves the list instead of being cut and counted again every round.
      if (
        !next ||
        ctx.meter.block(next) >= t.tokens ||
        !emitRewrite(work, ctx, t.pos, t.j, next, 'truncate', { detail: 'last resort: the request must fit' })
      ) {
        targets.splice(k--, 1);
        continue;
      }
      if (b.type === 'tool_result') state.dropped.delete(b.toolUseId);
      t.tokens = ctx.meter.block(work.at(t.pos).blocks[t.j]);
      let at = k;
      while (at + 1 < targets.length && before(targets[at + 1], t)) {
        targets[at] = targets[at + 1];
        at++;
      }
      targets[at] = t;
      progressed = true;
      break;
    }
    if (!progressed) return;
  }
}

/** The order of `truncatable`: larger first, then message order. */
function before(a: Target, b: Target): boolean {
  return a.tokens > b.tokens || (a.tokens === b.tokens && (a.pos < b.pos || (a.pos === b.pos && a.j < b.j)));
}

export const hardcapStage: PipelineStage<HardcapState> = {
  id: 'hardcap',
  title: 'Hard cap',
  description:
    'If the prompt still exceeds the window minus the output reserve, the oldest turns are dropped (pairs kept whole, head and recent turns protected) until it fits.',
  initial: () => ({ dropped: new Map(), droppedMessages: 0 }),
  run(work, state, ctx) {
    const cfg = ctx.config.hardcap;
    if (!cfg.enabled) return state;
    if (cfg.keepLastMessages !== null && work.length > cfg.keepLastMessages) {
      // The head (system, first user message, summaries) stays, as for every hardcap drop: a window opening
      // on a bare assistant call turn is rejected by Gemini. N counts the head, so the request holds ≤ N.
      const h = headEnd(work);
      const from = Math.max(h + 1, work.length - Math.max(1, cfg.keepLastMessages - h));
      const cuts = validCuts(work, from, tailStart(work, 0));
      if (cuts.length > 0)
        drop(work, state, ctx, h, cuts[0], `sliding window keeps the last ${cfg.keepLastMessages} messages`);
    }
    if (ctx.shut('hardcap')) return state;
    const h = headEnd(work);
    const maxCut = tailStart(work, cfg.minRecentTurns);
    if (maxCut > h) {
      const cuts = validCuts(work, h + 1, maxCut);
      let removed = 0;
      let at = h;
      let chosen: number | undefined;
      const excess = overBy(ctx) / ctx.factor;
      for (const c of cuts) {
        removed += work.tokensBetween(at, c);
        at = c;
        chosen = c;
        if (removed >= excess) break;
      }
      if (chosen !== undefined) drop(work, state, ctx, h, chosen, 'over the hard cap');
    }
    if (overBy(ctx) > 0) truncateToFit(work, state, ctx);
    return state;
  },
};
