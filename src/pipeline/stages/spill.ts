// Stage 2 — spill (SPEC §4.2), when a batch of results first appears: a result over `spillThreshold`
// runes (or its tool's declared cap) becomes `[Output saved to disk: …]` + a rune-exact preview; then,
// per batch (one user message of results), while the batch exceeds `batchAggregateTarget`, the largest
// result ≥ `minAggregateSpill` spills too (self-capped tools never). Every result is marked Seen on first
// sight, so a result that was not spilled then stays byte-identical forever (the replay re-applies spills).
import { firstIndex } from '../../lib/search.ts';
import { toolCap } from '../aliases.ts';
import { spillReplacement } from '../markers.ts';
import type { PipelineStage, StageContext } from '../stage.ts';
import { grownTo } from '../tool-ids.ts';
import type { Working } from '../working.ts';
import { emitRewrite } from './rewrite.ts';

/** `seen`: by tool id number (Working.ids), SEEN once the result was looked at for spilling, SPILLED once
 *  it was spilled. */
export type SpillState = { seen: Uint8Array };
const SEEN = 1;
export const SPILLED = 2;

type Candidate = { pos: number; j: number; n: number; id: string; runes: number; tool: string };

/** Spill one result; returns its size in runes afterwards (unchanged when the rewrite was not applied). */
function spillOne(work: Working, state: SpillState, ctx: StageContext, c: Candidate, action: string): number {
  const m = work.at(c.pos);
  const b = m.blocks[c.j];
  if (b.type !== 'tool_result' || typeof b.content !== 'string') return c.runes;
  const content = b.content;
  const next = ctx.memo.rewrites.block(b, `spill|${ctx.config.spillPreview}`, () => ({
    ...b,
    content: spillReplacement(c.id, content, ctx.config.spillPreview),
  }));
  const applied = emitRewrite(work, ctx, c.pos, c.j, next, action, {
    detail: `${c.tool}: ${c.runes} chars → ${Math.min(ctx.config.spillPreview, c.runes)}-char preview`,
  });
  if (!applied) return c.runes;
  state.seen[c.n] = SPILLED;
  return ctx.memo.runes.block(next);
}

/** The lowest per-result threshold any tool has under this config (caps only lower it). */
function lowestThreshold(cfg: StageContext['config']): number {
  let t = cfg.spillThreshold;
  for (const cap of Object.values(cfg.toolCaps)) if (cap > 0 && cap < t) t = cap;
  return t;
}

function processBatch(work: Working, pos: number, state: SpillState, ctx: StageContext, lowest: number): void {
  const cfg = ctx.config;
  const m = work.at(pos);
  const refs = work.refsAt(pos);
  const seen = state.seen;
  // First a look without allocating: most batches have no result over any threshold and stay under the
  // aggregate target, and then all there is to do is to mark their results Seen.
  let results = 0;
  let total = 0;
  let largestFresh = 0;
  const blocks = m.blocks;
  for (let j = 0; j < blocks.length; j++) {
    const b = blocks[j];
    if (b.type !== 'tool_result') continue;
    results++;
    if (b.toolUseId === '' || typeof b.content !== 'string') continue; // structured results never spill
    const runes = ctx.memo.runes.block(b);
    total += runes;
    if (seen[refs[j]] === 0 && runes > largestFresh) largestFresh = runes;
  }
  if (largestFresh <= lowest && (results < 2 || total <= cfg.batchAggregateTarget)) {
    for (let j = 0; j < blocks.length; j++) {
      const b = blocks[j];
      if (b.type === 'tool_result' && b.toolUseId !== '' && typeof b.content === 'string') seen[refs[j]] = SEEN;
    }
    return;
  }
  const fresh: Candidate[] = [];
  total = 0;
  m.blocks.forEach((b, j) => {
    if (b.type !== 'tool_result' || b.toolUseId === '') return;
    if (typeof b.content !== 'string') return; // structured (image) results are never spilled or counted
    const runes = ctx.memo.runes.block(b);
    total += runes;
    if (seen[refs[j]] !== 0) return;
    seen[refs[j]] = SEEN;
    fresh.push({ pos, j, n: refs[j], id: b.toolUseId, runes, tool: work.toolName(b.toolUseId) ?? 'unknown' });
  });
  const remaining: Candidate[] = [];
  for (const c of fresh) {
    if (ctx.memo.tools.matches(cfg.selfCappedTools, c.tool)) continue;
    const cap = toolCap(cfg.toolCaps, c.tool);
    const threshold = cap !== undefined && cap > 0 ? Math.min(cap, cfg.spillThreshold) : cfg.spillThreshold;
    if (c.runes > threshold) {
      const after = spillOne(work, state, ctx, c, 'spill');
      total += after - c.runes;
    } else remaining.push(c);
  }
  // A "batch" of one result is left to the per-result threshold (Kocoro AggregateCap_NoOpForSmallBatch).
  if (results < 2 || total <= cfg.batchAggregateTarget) return;
  // Largest first; a stable sort keeps message order for ties.
  const candidates = remaining.filter((c) => c.runes >= cfg.minAggregateSpill).sort((a, b) => b.runes - a.runes);
  for (const c of candidates) {
    if (total <= cfg.batchAggregateTarget) break;
    const after = spillOne(work, state, ctx, c, 'spill-batch');
    total += after - c.runes;
  }
}

export const spillStage: PipelineStage<SpillState> = {
  id: 'spill',
  title: 'Spill',
  description:
    'Oversized tool results are saved to disk with a preview when they first appear; a batch over the aggregate target spills its largest results.',
  initial: () => ({ seen: new Uint8Array(0) }),
  run(work, state, ctx) {
    const list = work.resultMessages;
    const from = firstAtOrAfter(list, ctx.freshFrom);
    if (from === list.length) return state;
    state.seen = grownTo(state.seen, work.ids.size, 0);
    const lowest = lowestThreshold(ctx.config);
    for (let i = from; i < list.length; i++) processBatch(work, list[i], state, ctx, lowest);
    return state;
  },
};

/** Index of the first entry ≥ from in an ascending list. */
function firstAtOrAfter(list: readonly number[], from: number): number {
  return firstIndex(list.length, (i) => list[i] >= from);
}
