// Stage 4 — microcompact (SPEC §4.4), only when enabled and still over the trigger: bodies of tool
// results older than the newest `keepRecent` (excluding `excludeTools`) become
// `[Old tool result content cleared]`. With `clearAtLeast` > 0 it clears nothing unless that frees at
// least that many tokens (Anthropic context-editing semantics: make each cache invalidation worth it).

import { CLEARED_MARKER } from '../markers.ts';
import type { PipelineStage, StageContext } from '../stage.ts';
import type { Working } from '../working.ts';
import { emitRewrite } from './rewrite.ts';

export type MicrocompactState = { cleared: Set<string> };

type Target = { pos: number; j: number; id: string; freed: number };

function candidates(work: Working, state: MicrocompactState, ctx: StageContext): Target[] {
  const cfg = ctx.config.microcompact;
  const all: Target[] = [];
  for (const pos of work.resultMessages) {
    work.at(pos).blocks.forEach((b, j) => {
      if (b.type !== 'tool_result') return;
      if (ctx.memo.tools.matches(cfg.excludeTools, work.toolName(b.toolUseId) ?? 'unknown')) return;
      all.push({ pos, j, id: b.toolUseId, freed: 0 });
    });
  }
  const old = all.slice(0, Math.max(0, all.length - cfg.keepRecent)).filter((t) => !state.cleared.has(t.id));
  const markerTokens = ctx.meter.text(CLEARED_MARKER);
  for (const t of old) t.freed = ctx.meter.block(work.at(t.pos).blocks[t.j]) - markerTokens;
  // A body no bigger than the marker is left alone: clearing it would free nothing.
  return old.filter((t) => t.freed > 0);
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
