// Stage 3 — tiers (SPEC §4.3), only while the estimate is at or over the trigger. Tool-result messages
// are counted from the tail; parallel results share their message's distance. At first touch:
// distance < tier3Window → Tier 3 (untouched, re-examined later); < tier1Distance → Tier 2 (a
// `[micro-compact] ` summary within the per-pass attempt budget, else head/tail truncation);
// otherwise Tier 1 (a metadata stub) unless a floor tool keeps it at Tier 2. A touched result is frozen.
import type { Block, ToolResultBlock } from '../../model/transcript.ts';
import { toolMatches } from '../aliases.ts';
import { triggerTokens } from '../config.ts';
import { IMAGE_PLACEHOLDER, MICRO_COMPACT_PREFIX, microCompact, tier1Stub, truncateHeadTail } from '../markers.ts';
import type { PipelineStage, StageContext } from '../stage.ts';
import type { Working } from '../working.ts';
import { emitRewrite, memoBlock, memoPeek } from './rewrite.ts';
import { measure, resultFacts, tier1Key } from './tier-facts.ts';

export type TierRecord = { tier: 1 | 2; request: number; distance: number; floor: boolean; summarized: boolean };

export type TiersState = {
  /** Results touched at first touch (frozen), by tool_use id. */
  frozen: Map<string, TierRecord>;
  /** Results that sat inside the Tier-3 window while tiering ran. */
  tier3: Set<string>;
  /** Index into the tool-result message list of the first message that may hold untouched results. */
  next: number;
  /** Index into the list up to which window results were already added to `tier3` (this epoch). */
  windowSeen: number;
  epoch: number;
};

function mechanical(b: ToolResultBlock, cap: number): ToolResultBlock {
  if (typeof b.content === 'string') return { ...b, content: truncateHeadTail(b.content, cap) };
  const content = b.content.map(
    (x): Block =>
      x.type === 'image'
        ? { type: 'text', text: IMAGE_PLACEHOLDER }
        : x.type === 'text'
          ? { type: 'text', text: truncateHeadTail(x.text, cap) }
          : x,
  );
  return { ...b, content };
}

/** Per pass: the config as tiering reads it, and the summary attempts used. */
type Pass = {
  attempts: number;
  truncateKey: string;
  floorScope: 'block' | 'message';
  floorTools: readonly string[];
  guiTools: readonly string[];
  tier1Distance: number;
  tier2Cap: number;
  tier2SummarizeMin: number;
  summaryAttemptsPerPass: number;
};

function tierMessage(
  work: Working,
  pos: number,
  distance: number,
  state: TiersState,
  ctx: StageContext,
  pass: Pass,
): void {
  const { floorScope, floorTools, tier1Distance } = pass;
  const count = work.at(pos).blocks.length;
  let messageFloor = false;
  if (floorScope === 'message')
    for (const b of work.at(pos).blocks)
      if (b.type === 'tool_result' && toolMatches(floorTools, work.toolName(b.toolUseId) ?? 'unknown')) {
        messageFloor = true;
        break;
      }
  for (let j = 0; j < count; j++) {
    // Read each time: a rewrite of an earlier block replaced the message.
    const b = work.at(pos).blocks[j];
    if (b.type !== 'tool_result' || state.frozen.has(b.toolUseId)) continue;
    const id = b.toolUseId;
    const f = resultFacts(work, b);
    const { tool, runes, cleared, text } = f;
    const floor = floorScope === 'message' ? messageFloor : toolMatches(floorTools, tool);
    const record: TierRecord = { tier: 2, request: ctx.request, distance, floor, summarized: false };
    state.frozen.set(id, record);
    state.tier3.delete(id);
    if (cleared) continue;
    if (distance >= tier1Distance && !floor) {
      record.tier = 1;
      f.tier1 ??= memoBlock(b, tier1Key(tool), () => ({ ...b, content: tier1Stub(tool, work.toolInput(id), runes) }));
      const next = f.tier1;
      f.tier1Measured = measure(f.tier1Measured, ctx.meter, b, next);
      emitRewrite(work, ctx, pos, j, next, 'tier1', { tier: 1, distance }, f.tier1Measured);
      continue;
    }
    const skipSummary =
      toolMatches(floorTools, tool) || toolMatches(pass.guiTools, tool) || text.startsWith(MICRO_COMPACT_PREFIX);
    if (runes > pass.tier2SummarizeMin && !skipSummary && pass.attempts < pass.summaryAttemptsPerPass) {
      pass.attempts++;
      // A successful summary of the same block by the same summarizer instance is reused on re-runs.
      const key = `tier2-summary|${pass.tier2Cap}|${tool}|${ctx.summarizer.id === 'http' ? ctx.task() : ''}`;
      let next: Block | undefined = memoPeek(b, key, ctx.summarizer);
      if (!next) {
        const out = ctx.summarizer.summarizeResult({ tool, text, task: ctx.task() });
        if (out.ok && out.text.trim() !== '') {
          const content = microCompact(out.text, pass.tier2Cap);
          next = memoBlock(b, key, () => ({ ...b, content }), ctx.summarizer);
        }
      }
      if (next) {
        if (emitRewrite(work, ctx, pos, j, next, 'tier2-summary', { tier: 2, distance })) {
          record.summarized = true;
          continue;
        }
      }
    }
    if (f.truncatedCap !== pass.tier2Cap || !f.truncated) {
      f.truncated = memoBlock(b, pass.truncateKey, () => mechanical(b, pass.tier2Cap));
      f.truncatedCap = pass.tier2Cap;
    }
    const truncated = f.truncated;
    f.truncatedMeasured = measure(f.truncatedMeasured, ctx.meter, b, truncated);
    emitRewrite(work, ctx, pos, j, truncated, 'tier2-truncate', { tier: 2, distance }, f.truncatedMeasured);
  }
}

function hasUntouched(work: Working, pos: number, state: TiersState): boolean {
  return work.at(pos).blocks.some((b) => b.type === 'tool_result' && !state.frozen.has(b.toolUseId));
}

export const tiersStage: PipelineStage<TiersState> = {
  id: 'tiers',
  title: 'Tiers',
  description:
    'Over the trigger, old tool results are classified once by distance from the tail: Tier 3 kept, Tier 2 summarised or head/tail-truncated, Tier 1 reduced to a metadata stub (floor tools stay at Tier 2).',
  initial: () => ({ frozen: new Map(), tier3: new Set(), next: 0, windowSeen: 0, epoch: -1 }),
  run(work, state, ctx) {
    const cfg = ctx.config;
    if (!cfg.tiersEnabled) return state;
    const list = work.resultMessages;
    // The estimate first: a thread that never reaches the trigger never reads tier3Window, so moving that
    // slider does not re-run it (src/replay/reuse.ts).
    if (ctx.estimate() < triggerTokens(cfg) || list.length < cfg.tier3Window) return state;
    if (state.epoch !== work.epoch) {
      // Positions moved. After splices (summaries, drops cut whole messages) the index into the list moves
      // with them; after a reset, find the first message with an untouched result again.
      const next = work.remapResultIndex(state.next, state.epoch);
      state.windowSeen = 0;
      state.epoch = work.epoch;
      if (next !== undefined) state.next = next;
      else {
        state.next = 0;
        while (state.next < list.length && !hasUntouched(work, list[state.next], state)) state.next++;
      }
    }
    const end = list.length - cfg.tier3Window;
    if (state.next < end) {
      const pass: Pass = {
        attempts: 0,
        truncateKey: `tier2-truncate|${cfg.tier2Cap}`,
        floorScope: cfg.floorScope,
        floorTools: cfg.floorTools,
        guiTools: cfg.guiTools,
        tier1Distance: cfg.tier1Distance,
        tier2Cap: cfg.tier2Cap,
        tier2SummarizeMin: cfg.tier2SummarizeMin,
        summaryAttemptsPerPass: cfg.summaryAttemptsPerPass,
      };
      for (let i = state.next; i < end; i++) tierMessage(work, list[i], list.length - 1 - i, state, ctx, pass);
    }
    state.next = Math.max(state.next, end);
    // Results in the window join tier3 once: those added on an earlier pass are in it already (only
    // tiering removes them), so only messages that entered the list since are looked at.
    for (let i = Math.max(0, end, state.windowSeen); i < list.length; i++) {
      for (const b of work.at(list[i]).blocks) {
        if (b.type === 'tool_result' && !state.frozen.has(b.toolUseId)) state.tier3.add(b.toolUseId);
      }
    }
    state.windowSeen = list.length;
    return state;
  },
};
