// Stage 1 — observations (SPEC §4.1), every request: GUI tool calls (screenshot, computer, browser_*…)
// older than the newest `observationWindow` calls get their string results replaced by
// `[elided browser observation: <tool>, was <N> chars]` and their images by a placeholder. The window
// counts calls, not messages. Idempotent: an elided result is never rewritten again.
import { runeCount } from '../../lib/runes.ts';
import type { Block } from '../../model/transcript.ts';
import { ELIDED_PREFIX, elidedObservation, IMAGE_PLACEHOLDER } from '../markers.ts';
import type { PipelineStage, StageContext } from '../stage.ts';
import type { Working } from '../working.ts';
import { emitRewrite } from './rewrite.ts';

export type ObservationsState = {
  /** GUI tool_use ids in call order, with their tool names. */
  calls: { id: string; tool: string }[];
  /** Calls [0, decided) are outside the window and were handled. */
  decided: number;
  /** Calls outside the window whose result had not arrived yet (handled when it does). */
  waiting: { id: string; tool: string }[];
};

function collectCalls(work: Working, from: number, ctx: StageContext, into: ObservationsState['calls']): void {
  for (let i = from; i < work.length; i++) {
    const m = work.at(i);
    if (m.role !== 'assistant') continue;
    for (const b of m.blocks) {
      if (b.type === 'tool_use' && ctx.memo.tools.matches(ctx.config.guiTools, b.name))
        into.push({ id: b.id, tool: b.name });
    }
  }
}

function elide(b: Extract<Block, { type: 'tool_result' }>, tool: string): Block | undefined {
  if (typeof b.content === 'string') {
    if (b.content.startsWith(ELIDED_PREFIX)) return undefined;
    return { ...b, content: elidedObservation(tool, runeCount(b.content)) };
  }
  if (!b.content.some((x) => x.type === 'image')) return undefined;
  return {
    ...b,
    content: b.content.map((x): Block => (x.type === 'image' ? { type: 'text', text: IMAGE_PLACEHOLDER } : x)),
  };
}

function decide(work: Working, state: ObservationsState, ctx: StageContext): void {
  const limit = state.calls.length - ctx.config.observationWindow;
  const todo = [...state.waiting, ...state.calls.slice(state.decided, Math.max(state.decided, limit))];
  state.waiting = [];
  for (const call of todo) {
    const { id, tool } = call;
    const pos = work.resultPosition(id);
    if (pos === undefined) {
      // Still called but not answered yet: handle it when the result arrives. A call no longer in the
      // history (summarised, dropped) is forgotten.
      if (work.callPosition(id) !== undefined) state.waiting.push(call);
      continue;
    }
    const m = work.at(pos);
    const j = m.blocks.findIndex((b) => b.type === 'tool_result' && b.toolUseId === id);
    const b = m.blocks[j];
    if (b.type !== 'tool_result') continue;
    const next = elide(b, tool);
    if (next) {
      const kept = ctx.memo.rewrites.block(b, `elide|${tool}`, () => next);
      emitRewrite(work, ctx, pos, j, kept, typeof b.content === 'string' ? 'elide' : 'image-strip');
    }
  }
  state.decided = Math.max(state.decided, limit);
}

export const observationsStage: PipelineStage<ObservationsState> = {
  id: 'observations',
  title: 'Observation window',
  description:
    'GUI observations (screenshots, browser snapshots) older than the newest N calls become one-line stubs; their images become placeholders.',
  initial: () => ({ calls: [], decided: 0, waiting: [] }),
  // After a reset `run` sees the whole history as fresh (freshFrom = 0) and collects every call itself;
  // collecting here too counted each call twice and shrank the window to half.
  onReset: () => ({ calls: [], decided: 0, waiting: [] }),
  run(work, state, ctx) {
    collectCalls(work, ctx.freshFrom, ctx, state.calls);
    if (state.calls.length > ctx.config.observationWindow || state.waiting.length > 0) decide(work, state, ctx);
    return state;
  },
};
