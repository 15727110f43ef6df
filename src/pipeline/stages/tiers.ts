// Stage 3 — tiers (SPEC §4.3), only while the estimate is at or over the trigger. Tool-result messages
// are counted from the tail; parallel results share their message's distance. At first touch:
// distance < tier3Window → Tier 3 (untouched, re-examined later); < tier1Distance → Tier 2 (a
// `[micro-compact] ` summary within the per-pass attempt budget, else head/tail truncation);
// otherwise Tier 1 (a metadata stub) unless a floor tool keeps it at Tier 2. A touched result is frozen.
import type { Block, ToolResultBlock } from '../../model/transcript.ts';
import type { TokenMeter } from '../../tokens/meter.ts';
import {
  applyCut,
  headTailCut,
  IMAGE_PLACEHOLDER,
  MICRO_COMPACT_PREFIX,
  microCompact,
  tier1Stub,
  truncateHeadTail,
} from '../markers.ts';
import type { Edit } from '../placements.ts';
import type { PipelineStage, StageContext } from '../stage.ts';
import { grownTo } from '../tool-ids.ts';
import type { Working } from '../working.ts';
import { emitRewrite } from './rewrite.ts';

export type TierRecord = { tier: 1 | 2; request: number; distance: number; floor: boolean; summarized: boolean };

/** By tool id number (Working.ids, the thread's), so a pass indexes arrays instead of hashing ids. */
export type TiersState = {
  /** The tier a result got at its first touch (1 or 2; it is frozen from then on), 0 while untouched. */
  tier: Uint8Array;
  /** The first touch's request and distance, and FLOOR | SUMMARIZED; TIER3: the result sat inside the
   *  Tier-3 window while tiering ran (cleared at its first touch). */
  request: Int32Array;
  distance: Int32Array;
  flags: Uint8Array;
  /** Index into the tool-result message list of the first message that may hold untouched results. */
  next: number;
  /** Index into the list up to which window results were already marked TIER3 (this epoch). */
  windowSeen: number;
  epoch: number;
};

const FLOOR = 1;
const SUMMARIZED = 2;
const TIER3 = 4;

/** What tiering did to the result numbered `n` (see TiersState); undefined while untouched. */
export function tierRecord(state: TiersState, n: number): TierRecord | undefined {
  const tier = n < state.tier.length ? state.tier[n] : 0;
  if (tier === 0) return undefined;
  const f = state.flags[n];
  return {
    tier: tier as 1 | 2,
    request: state.request[n],
    distance: state.distance[n],
    floor: (f & FLOOR) !== 0,
    summarized: (f & SUMMARIZED) !== 0,
  };
}

/** Whether the result numbered `n` sat untouched inside the Tier-3 window. */
export function inTier3(state: TiersState, n: number): boolean {
  return n < state.flags.length && (state.flags[n] & TIER3) !== 0;
}

function sized(state: TiersState, size: number): void {
  if (state.tier.length >= size) return;
  state.tier = grownTo(state.tier, size, 0);
  state.request = grownTo(state.request, size, 0);
  state.distance = grownTo(state.distance, size, 0);
  state.flags = grownTo(state.flags, size, 0);
}

/** `b` head/tail-truncated at `cap` (`runes`: its runes, from the tier facts); a string result's cut is counted
 *  from its lines' counts (meter.primeCut). */
function mechanical(b: ToolResultBlock, cap: number, runes: number, meter: TokenMeter): ToolResultBlock {
  if (typeof b.content === 'string') {
    const cut = headTailCut(b.content, cap, runes);
    if (!cut) return { ...b };
    const next = { ...b, content: applyCut(b.content, cut) };
    meter.primeCut(b, next, cut);
    return next;
  }
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
  const { tools, tierFacts } = ctx.memo;
  // The message's rewrites are placed together once its blocks are tiered (one new message, not one per block).
  const blocks = work.at(pos).blocks;
  const edits: Edit[] = [];
  const refs = work.refsAt(pos);
  let messageFloor = false;
  if (floorScope === 'message')
    for (const b of blocks)
      if (b.type === 'tool_result' && tools.matches(floorTools, work.toolName(b.toolUseId) ?? 'unknown')) {
        messageFloor = true;
        break;
      }
  for (let j = 0; j < blocks.length; j++) {
    const b = blocks[j];
    if (b.type !== 'tool_result') continue;
    const n = refs[j];
    if (state.tier[n] !== 0) continue;
    const id = b.toolUseId;
    const f = tierFacts.row(b, work.toolNameFn);
    const tool = tierFacts.tool(f);
    const runes = tierFacts.runesOf(f);
    const floor = floorScope === 'message' ? messageFloor : tools.matches(floorTools, tool);
    state.tier[n] = 2;
    state.request[n] = ctx.request;
    state.distance[n] = distance;
    state.flags[n] = floor ? FLOOR : 0;
    if (tierFacts.isCleared(f)) continue;
    if (distance >= tier1Distance && !floor) {
      state.tier[n] = 1;
      const stub = tierFacts.tier1(f, b, () => ({ ...b, content: tier1Stub(tool, work.toolInput(id), runes) }));
      emitRewrite(work, ctx, pos, j, stub, 'tier1', { tier: 1, distance }, tierFacts.tier1Measured(f), edits);
      continue;
    }
    const text = tierFacts.text(f);
    const skipSummary =
      tools.matches(floorTools, tool) || tools.matches(pass.guiTools, tool) || text.startsWith(MICRO_COMPACT_PREFIX);
    if (runes > pass.tier2SummarizeMin && !skipSummary && pass.attempts < pass.summaryAttemptsPerPass) {
      pass.attempts++;
      // A successful summary of the same block by the same summarizer instance is reused on re-runs.
      const key = `tier2-summary|${pass.tier2Cap}|${tool}|${ctx.summarizer.id === 'http' ? ctx.task() : ''}`;
      let next: Block | undefined = ctx.memo.rewrites.peek(b, key, ctx.summarizer);
      if (!next) {
        // The task only when the summarizer reads it (finding it scans the history back to the last prompt).
        const out = ctx.summarizer.summarizeResult({
          tool,
          text,
          get task() {
            return ctx.task();
          },
        });
        if (out.ok && out.text.trim() !== '') {
          const content = microCompact(out.text, pass.tier2Cap);
          next = ctx.memo.rewrites.block(b, key, () => ({ ...b, content }), ctx.summarizer);
        }
      }
      if (next) {
        if (emitRewrite(work, ctx, pos, j, next, 'tier2-summary', { tier: 2, distance }, undefined, edits)) {
          state.flags[n] |= SUMMARIZED;
          continue;
        }
      }
    }
    const cut = tierFacts.truncated(f, b, pass.tier2Cap, () => mechanical(b, pass.tier2Cap, runes, ctx.meter));
    const measured = tierFacts.truncatedMeasured(f, pass.tier2Cap);
    emitRewrite(work, ctx, pos, j, cut, 'tier2-truncate', { tier: 2, distance }, measured, edits);
  }
  if (edits.length > 0) work.replaceBlocks(pos, edits);
}

function hasUntouched(work: Working, pos: number, state: TiersState): boolean {
  const refs = work.refsAt(pos);
  return work.at(pos).blocks.some((b, j) => b.type === 'tool_result' && state.tier[refs[j]] === 0);
}

export const tiersStage: PipelineStage<TiersState> = {
  id: 'tiers',
  title: 'Tiers',
  description:
    'Over the trigger, old tool results are classified once by distance from the tail: Tier 3 kept, Tier 2 summarised or head/tail-truncated, Tier 1 reduced to a metadata stub (floor tools stay at Tier 2).',
  initial: () => ({
    tier: new Uint8Array(0),
    request: new Int32Array(0),
    distance: new Int32Array(0),
    flags: new Uint8Array(0),
    next: 0,
    windowSeen: 0,
    epoch: -1,
  }),
  run(work, state, ctx) {
    const cfg = ctx.config;
    if (!cfg.tiersEnabled) return state;
    const list = work.resultMessages;
    // The estimate first: a thread that never reaches the trigger never reads tier3Window, so moving that
    // slider does not re-run it (src/replay/reuse.ts).
    if (ctx.shut('trigger') || list.length < cfg.tier3Window) return state;
    sized(state, work.ids.size);
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
    // Results in the window are marked TIER3 once: those marked on an earlier pass still are (only
    // tiering removes them), so only messages that entered the list since are looked at.
    for (let i = Math.max(0, end, state.windowSeen); i < list.length; i++) {
      const blocks = work.at(list[i]).blocks;
      const refs = work.refsAt(list[i]);
      for (let j = 0; j < blocks.length; j++)
        if (blocks[j].type === 'tool_result' && state.tier[refs[j]] === 0) state.flags[refs[j]] |= TIER3;
    }
    state.windowSeen = list.length;
    return state;
  },
};
