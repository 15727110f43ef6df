// Everything the pipeline keeps from one run to the next, in one object: the engine makes one per loaded
// transcript and encoding (dropped on the next load) and passes it to the replay, which hands it to the working
// history and the stages (StageContext.memo). Each field is a named memo with its key, what it assumes and its
// bound written where it is defined; nothing in pipeline/ keeps state at module level.
import type { Block } from '../model/transcript.ts';
import type { TokenMeter } from '../tokens/meter.ts';
import { ToolMatcher } from './aliases.ts';
import { type ArtifactIndex, Contributions } from './artifacts.ts';
import { CategoryTable } from './categories.ts';
import { Placements } from './placements.ts';
import { ResultSites } from './result-sites.ts';
import { RewriteMemo } from './rewrite-memo.ts';
import { RuneCounts } from './rune-counts.ts';
import { SummaryDrafts } from './summary-drafts.ts';
import { TierFacts } from './tier-facts.ts';
import { ToolIdTables } from './tool-ids.ts';

export class PipelineMemo {
  /** Block → its size in runes, the one definition every stage uses (rune-counts.ts). */
  readonly runes: RuneCounts;
  /** Thread → its tool ids numbered (tool-ids.ts). */
  readonly toolIds = new ToolIdTables();
  /** Thread → its tool results' ids, numbers and messages (result-sites.ts). */
  readonly sites = new ResultSites(this.toolIds);
  /** Category names ↔ numbers; message → its categories and tokens (categories.ts). */
  readonly categories: CategoryTable;
  /** (scope, block, rewrite key) → the rewritten block (rewrite-memo.ts). */
  readonly rewrites = new RewriteMemo();
  /** (message, its new blocks by position) → the rewritten message (placements.ts). */
  readonly placements = new Placements();
  /** Result block → its tool, size, text and tier rewrites with their counts (tier-facts.ts). */
  readonly tierFacts: TierFacts;
  /** Message → what it adds to a summary's artifact index (artifacts.ts). */
  readonly contributions = new Contributions();
  /** Summary drafts' token counts (summary-drafts.ts). */
  readonly drafts = new SummaryDrafts();
  /** A pipeline summary's block → the merged index its sections render (stages/summarize.ts): the compaction
   *  audit finds the summary's item lines in it without making the text. Bound: the summaries alive. */
  readonly summarySections = new WeakMap<Block, ArtifactIndex>();
  /** Block → the hard cap's last-resort cut of it at ratio 0 (all it can cut; stages/hardcap.ts), or null when it
   *  has no such cut. A prompt whose estimate stays far over the cap cuts every block of the history this way on
   *  every request; the cut depends on the block alone. Bound: the blocks alive. */
  readonly cutToNothing = new WeakMap<Block, Block | null>();
  /** (pattern list, tool name) → whether it matches (aliases.ts). */
  readonly tools = new ToolMatcher();

  /** `meter`: the tokens every count of this run is in (one memo per transcript and encoding). */
  constructor(readonly meter: TokenMeter) {
    this.runes = new RuneCounts(meter.sizes);
    this.categories = new CategoryTable(meter);
    this.tierFacts = new TierFacts(meter, this.runes);
  }
}
