// What the pipeline did to each tool result of a thread, read once out of the stages' final states at the end of
// a replay (SPEC §4): the one record the report, the re-fetch classifier, the worker and the tests read. The
// stages' interned tool-id numbers, typed arrays and bit flags stay here, inside pipeline/.

import type { ResultSite } from './result-sites.ts';
import type { PipelineEvent } from './stage.ts';
import type { StageStates } from './stages/index.ts';
import { SPILLED } from './stages/spill.ts';
import { inTier3, tierRecord } from './stages/tiers.ts';

/** Rewrites that lose a result's content (a truncation or spill keeps part of it, or a way back). */
export const LOSSY: ReadonlySet<string> = new Set(['tier1', 'tier2-summary', 'clear', 'elide']);

export type ResultFate = {
  toolUseId: string;
  /** Thread message index of the result (its first occurrence). */
  messageIndex: number;
  /** The tier it got at its first touch (1 or 2), 3 when it sat in the Tier-3 window while tiering ran. */
  tier: 1 | 2 | 3 | null;
  firstTouchRequest: number | null;
  distanceAtFirstTouch: number | null;
  /** Its tool is on the floor list (never below Tier 2). */
  floor: boolean;
  spilled: boolean;
  /** Tier 2 by a summary (not a truncation). */
  summarized: boolean;
  /** Cleared by microcompact. */
  cleared: boolean;
  /** The request whose summary folded its message in, if one did. */
  foldedAt: number | null;
  /** The request whose hard cap dropped it, if one did. */
  droppedAt: number | null;
  /** Its size in runes after its last rewrite; null when never rewritten (it keeps its own size). */
  finalChars: number | null;
  /** The first request that lost its content, and how (a lossy rewrite, a fold into a summary, a drop). */
  lostBy: { request: number; how: string } | null;
};

/** What the replay tracked per tool id number beside the stage states. */
export type RewriteTrail = {
  /** By tool id number: runes after the last rewrite, −1 when never rewritten. */
  lastChars: Int32Array;
  /** By tool id number: the first LOSSY rewrite. */
  losses: readonly (PipelineEvent | undefined)[];
};

/** The fate of every result site, by tool_use id (thread order). */
export function resultFates(
  sites: readonly ResultSite[],
  states: StageStates,
  trail: RewriteTrail,
): ReadonlyMap<string, ResultFate> {
  const { tiers, spill, microcompact, summarize, hardcap } = states;
  const out = new Map<string, ResultFate>();
  for (const s of sites) {
    const rec = tierRecord(tiers, s.n);
    const foldedAt = summarize.folded[s.messageIndex] ?? null;
    const droppedAt = hardcap.dropped.get(s.toolUseId) ?? null;
    const last = s.n < trail.lastChars.length ? trail.lastChars[s.n] : -1;
    const e = trail.losses[s.n];
    let lostBy: ResultFate['lostBy'] = e ? { request: e.request, how: `${e.stage} ${e.action}` } : null;
    if (foldedAt !== null && (!lostBy || lostBy.request > foldedAt))
      lostBy = { request: foldedAt, how: 'summarize (folded into a summary)' };
    if (droppedAt !== null && (!lostBy || lostBy.request > droppedAt))
      lostBy = { request: droppedAt, how: 'hardcap drop' };
    out.set(s.toolUseId, {
      toolUseId: s.toolUseId,
      messageIndex: s.messageIndex,
      tier: rec ? rec.tier : inTier3(tiers, s.n) ? 3 : null,
      firstTouchRequest: rec ? rec.request : null,
      distanceAtFirstTouch: rec ? rec.distance : null,
      floor: rec?.floor ?? false,
      spilled: s.n < spill.seen.length && spill.seen[s.n] === SPILLED,
      summarized: rec?.summarized ?? false,
      cleared: microcompact.cleared.has(s.toolUseId),
      foldedAt,
      droppedAt,
      finalChars: last >= 0 ? last : null,
      lostBy,
    });
  }
  return out;
}
