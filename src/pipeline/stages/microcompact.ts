// Stage 4 — microcompact (SPEC §4.4), only when enabled and still over the trigger: bodies of tool
// results older than the newest `keepRecent` (excluding `excludeTools`) become
// `[Old tool result content cleared]`. With `clearAtLeast` > 0 it clears nothing unless that frees at
// least that many tokens (Anthropic context-editing semantics: make each cache invalidation worth it).

import type { Block } from '../../model/transcript.ts';
import { CLEARED_MARKER } from '../markers.ts';
import type { PipelineStage, StageContext } from '../stage.ts';
import type { Working } from '../working.ts';
import { emitRewrite } from './rewrite.ts';

/** `cleared`: the ids cleared. `next`: an index into the working set's `resultMessages` before which every tool
 *  result is cleared or too small to clear, as of `epoch` (remapped across splices like the tiers stage's index; a
 *  reset starts it over). A result too small stays so: no rewrite may add tokens (stages/rewrite.ts). */
export type MicrocompactState = { cleared: Set<string>; next: number; epoch: number };

type Target = { pos: number; j: number; id: string; freed: number };

/** Where the old results end: the list index and block of the newest result older than the newest `keepRecent`
 *  eligible ones (found from the end: O(keepRecent)), or undefined when none is that old. */
function oldEnd(
  work: Working,
  keepRecent: number,
  eligible: (b: Block) => boolean,
): { li: number; j: number } | undefined {
  const list = work.resultMessages;
  let recent = 0;
  for (let li = list.length - 1; li >= 0; li--) {
    const blocks = work.at(list[li]).blocks;
    for (let j = blocks.length - 1; j >= 0; j--) {
      if (!eligible(blocks[j])) continue;
      if (recent === keepRecent) return { li, j };
      recent++;
    }
  }
  return undefined;
}

function candidates(work: Working, state: MicrocompactState, ctx: StageContext): Target[] {
  const cfg = ctx.config.microcompact;
  const exclude = cfg.excludeTools;
  // A result's tool name (a pair-index lookup) is read only when some tool is excluded.
  const eligible = (b: Block): b is Extract<Block, { type: 'tool_result' }> =>
    b.type === 'tool_result' &&
    (exclude.length === 0 || !ctx.memo.tools.matches(exclude, work.toolName(b.toolUseId) ?? 'unknown'));
  const out: Target[] = [];
  const end = oldEnd(work, cfg.keepRecent, eligible);
  if (end === undefined) return out;
  if (state.epoch !== work.epoch) {
    const next = work.remapResultIndex(state.next, state.epoch);
    state.epoch = work.epoch;
    state.next = next ?? 0;
  }
  // Results before the cursor are all old while it sits at or before the newest old result's message.
  if (state.next > end.li) state.next = 0;
  const list = work.resultMessages;
  const markerTokens = ctx.meter.text(CLEARED_MARKER);
  // A body no bigger than the marker is left alone: clearing it would free nothing.
  const freedBy = (b: Block) => ctx.meter.block(b) - markerTokens;
  // Every request over the trigger walks the old results from the cursor. A message whose results are all
  // cleared or too small moves the cursor past it (an excluded tool's result keeps it: its call can leave).
  let settled = true;
  for (let li = state.next; li <= end.li; li++) {
    const pos = list[li];
    const blocks = work.at(pos).blocks;
    const last = li === end.li ? end.j : blocks.length - 1;
    let done = li < end.li;
    for (let j = 0; j <= last; j++) {
      const b = blocks[j];
      if (b.type !== 'tool_result' || state.cleared.has(b.toolUseId)) continue;
      if (!eligible(b)) {
        done = false;
        continue;
      }
      const freed = freedBy(b);
      if (freed > 0) {
        out.push({ pos, j, id: b.toolUseId, freed });
        done = false;
      }
    }
    settled &&= done;
    if (settled) state.next = li + 1;
  }
  return out;
}

export const microcompactStage: PipelineStage<MicrocompactState> = {
  id: 'microcompact',
  title: 'Microcompact',
  description:
    'Over the trigger, the bodies of all but the newest N tool results are cleared to a one-line marker (optionally only when enough tokens are freed).',
  initial: () => ({ cleared: new Set(), next: 0, epoch: -1 }),
  run(work, state, ctx) {
    // The gate first: a thread that never reaches the trigger does not read microcompact's settings, so moving
    // them does not re-run it (replay/reuse.ts).
    if (ctx.shut('trigger')) return state;
    const cfg = ctx.config.microcompact;
    if (!cfg.enabled) return state;
    const targets = candidates(work, state, ctx);
    const freed = targets.reduce((n, t) => n + t.freed, 0);
    if (targets.length === 0 || (cfg.clearAtLeast > 0 && ctx.estimate() > 0 && freed < cfg.clearAtLeast)) return state;
    for (const t of targets) {
      const b = work.at(t.pos).blocks[t.j];
      if (b.type !== 'tool_result') continue;
      const next = ctx.memo.rewrites.block(b, 'clear', () => ({ ...b, content: CLEARED_MARKER }));
      if (emitRewrite(work, ctx, t.pos, t.j, next, 'clear')) state.cleared.add(t.id);
    }
    return state;
  },
};
