// Stage 4 — microcompact (SPEC §4.4), only when enabled and still over the trigger: bodies of tool
// results older than the newest `keepRecent` (excluding `excludeTools`) become
// `[Old tool result content cleared]`. With `clearAtLeast` > 0 it clears nothing unless that frees at
// least that many tokens (Anthropic context-editing semantics: make each cache invalidation worth it).

import type { Block } from '../../model/transcript.ts';
import { CLEARED_MARKER } from '../markers.ts';
import type { PipelineStage, StageContext } from '../stage.ts';
import type { Working } from '../working.ts';
import { emitRewrite } from './rewrite.ts';

export type MicrocompactState = { cleared: Set<string> };

type Target = { pos: number; j: number; id: string; freed: number };

function candidates(work: Working, state: MicrocompactState, ctx: StageContext): Target[] {
  const cfg = ctx.config.microcompact;
  const exclude = cfg.excludeTools;
  // Every request over the trigger walks the history's results: a result's tool name (a pair-index lookup) is
  // read only when some tool is excluded, and a target is made only for an old result not cleared yet.
  const eligible = (b: Block): b is Extract<Block, { type: 'tool_result' }> =>
    b.type === 'tool_result' &&
    (exclude.length === 0 || !ctx.memo.tools.matches(exclude, work.toolName(b.toolUseId) ?? 'unknown'));
  let count = 0;
  for (const pos of work.resultMessages) for (const b of work.at(pos).blocks) if (eligible(b)) count++;
  const oldCount = Math.max(0, count - cfg.keepRecent);
  const out: Target[] = [];
  if (oldCount === 0) return out;
  const markerTokens = ctx.meter.text(CLEARED_MARKER);
  let seen = 0;
  for (const pos of work.resultMessages) {
    const blocks = work.at(pos).blocks;
    for (let j = 0; j < blocks.length && seen < oldCount; j++) {
      const b = blocks[j];
      if (!eligible(b)) continue;
      seen++;
      if (state.cleared.has(b.toolUseId)) continue;
      // A body no bigger than the marker is left alone: clearing it would free nothing.
      const freed = ctx.meter.block(b) - markerTokens;
      if (freed > 0) out.push({ pos, j, id: b.toolUseId, freed });
    }
    if (seen >= oldCount) break;
  }
  return out;
}

export const microcompactStage: PipelineStage<MicrocompactState> = {
  id: 'microcompact',
  title: 'Microcompact',
  description:
    'Over the trigger, the bodies of all but the newest N tool results are cleared to a one-line marker (optionally only when enough tokens are freed).',
  initial: () => ({ cleared: new Set() }),
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
