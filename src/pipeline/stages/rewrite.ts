// Shared by the content-rewriting stages: replace one block, measure it before and after, and emit the
// SPEC §4 event — but only when the bytes actually change. A rewrite that would ADD tokens (a stub or a
// spill preview longer than a tiny result) is not applied at all: no stage may grow the prompt.
import { getOrInsert, newMap, newWeakMap } from '../../lib/maps.ts';
import type { Block } from '../../model/transcript.ts';
import { blockRunes } from '../../tokens/block-text.ts';
import type { PipelineEvent, StageContext } from '../stage.ts';
import type { Working } from '../working.ts';

type Extra = Pick<PipelineEvent, 'tier' | 'detail' | 'distance'>;

/** Token and rune counts of a rewrite's old and new block, when the caller keeps them (tiers do, per result). */
export type Measured = { tokensBefore: number; tokensAfter: number; charsBefore: number; charsAfter: number };

const memo = new WeakMap<object, WeakMap<Block, Map<string, Block>>>();
const GLOBAL = {};
const globalMemo = new WeakMap<Block, Map<string, Block>>();
memo.set(GLOBAL, globalMemo);

/**
 * The same deterministic rewrite of the same block yields the same Block object on every re-run, so its
 * token count, rune count and every identity-keyed cache survive threshold changes (SPEC §9: re-runs
 * never recount unchanged text). `scope` separates rewrites whose result depends on an object (a
 * summarizer instance); `key` names the rewrite and all its parameters.
 */
export function memoBlock(prev: Block, key: string, make: () => Block, scope: object = GLOBAL): Block {
  const byBlock = scope === GLOBAL ? globalMemo : getOrInsert(memo, scope, newWeakMap<Block, Map<string, Block>>);
  return getOrInsert(getOrInsert(byBlock, prev, newMap<string, Block>), key, make);
}

/** The memoized rewrite of `prev` under `key`, if one was made. */
export function memoPeek(prev: Block, key: string, scope: object = GLOBAL): Block | undefined {
  return memo.get(scope)?.get(prev)?.get(key);
}

/** Replace block j of the message at pos and emit an event; returns false when nothing changed (same
 *  bytes, or the rewrite would have cost more tokens than the block it replaces). */
export function emitRewrite(
  work: Working,
  ctx: StageContext,
  pos: number,
  j: number,
  next: Block,
  action: string,
  extra: Extra = {},
  measured?: Measured,
): boolean {
  const m = work.at(pos);
  const prev = m.blocks[j];
  if (sameBlock(prev, next)) return false;
  const tokensBefore = measured ? measured.tokensBefore : ctx.meter.block(prev);
  const tokensAfter = measured ? measured.tokensAfter : ctx.meter.block(next);
  if (tokensAfter > tokensBefore) return false;
  const charsBefore = measured ? measured.charsBefore : blockRunes(prev);
  const charsAfter = measured ? measured.charsAfter : blockRunes(next);
  work.replaceBlock(pos, j, next, measured ?? { tokensBefore, tokensAfter, charsBefore, charsAfter });
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
