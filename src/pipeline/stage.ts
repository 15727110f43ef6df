// The PipelineStage contract (STYLE.md "A pipeline stage looks like this") and the shared types of a
// pipeline pass: events, the per-request context. A stage is deterministic (no clocks, randomness or
// globals) and never mutates a Message or Block; the Working history is passed by ownership and the
// stage returns it (possibly with messages replaced) together with its next state and its events.
import type { Block } from '../model/transcript.ts';
import type { MessageIndex, RequestIndex, Tokens } from '../model/units.ts';
import type { TokenMeter } from '../tokens/meter.ts';
import type { Gate, PipelineConfig } from './config.ts';
import type { PipelineMemo } from './memo.ts';
import type { Summarizer } from './summarizer.ts';
import type { Working } from './working.ts';

export type StageId = 'observations' | 'spill' | 'tiers' | 'microcompact' | 'summarize' | 'hardcap';

/** One rewrite (SPEC §4 "Events"); a rewrite that leaves bytes unchanged emits nothing. */
export type PipelineEvent = {
  thread: string;
  request: RequestIndex;
  stage: StageId;
  /** What happened: 'elide', 'image-strip', 'spill', 'spill-batch', 'tier1', 'tier2-summary', 'tier2-truncate', 'clear', 'summarize', 'drop', 'truncate'. */
  action: string;
  tier?: 1 | 2;
  /** Index of the rewritten message in the thread (Message.index; -1 for messages the pipeline created). */
  messageIndex: MessageIndex;
  /** Position of the rewritten message in this request's output. */
  position: number;
  blockIndex: number;
  toolUseId?: string;
  charsBefore: number;
  charsAfter: number;
  tokensBefore: Tokens;
  tokensAfter: Tokens;
  /** Human detail (summaries: messages summarised, recent kept, summary size). */
  detail?: string;
  /** Distance (tool-result messages after it) at the time of the rewrite, for tiers. */
  distance?: number;
  /** A hard-cap drop: the last message it removed (the first is messageIndex; they were adjacent in the request). */
  lastMessageIndex?: MessageIndex;
  /** The block before and after (for the diff view; stripped from JSON reports). */
  before?: Block;
  after?: Block;
};

/** Everything a stage may read besides the working history and its own state. */
export type StageContext = {
  thread: string;
  request: RequestIndex;
  config: PipelineConfig;
  meter: TokenMeter;
  /** What the run keeps from one run to the next (memo.ts); `memo.meter` is `meter`. */
  memo: PipelineMemo;
  summarizer: Summarizer;
  /** Calibrated estimate of the whole prompt (static prefix + working history), in tokens. */
  estimate: () => Tokens;
  /** Whether the estimate leaves `gate` shut (config.ts gateShut). Stages ask this instead of comparing the
   *  estimate with the config's lines themselves, so a replay a gate kept shut depends only on the line staying
   *  above the estimates it saw, not on the window's exact value (replay/reuse.ts). */
  shut: (gate: Gate) => boolean;
  /** What one counted token of the request's messages is worth in the estimate (the calibration's rate for the
   *  request, calibration.ts): a change of the messages by n counted tokens moves `estimate()` by factor × n. */
  factor: number;
  /** Counted tokens of the static prefix (system + tools, counted or inferred). */
  prefixTokens: Tokens;
  /** The request that produced a thread message (for tagging summary items). */
  requestOf: (messageIndex: number) => RequestIndex;
  /** Positions ≥ freshFrom were appended in this request and never seen by any stage. */
  freshFrom: number;
  /** Latest user text (task context for summaries). */
  task: () => string;
  emit: (e: Omit<PipelineEvent, 'thread' | 'request' | 'stage'>) => void;
  /** The stage running now (events name it). */
  stage: StageId;
  /** Record a complete event (the hot path of content rewrites: no copy). */
  record: (e: PipelineEvent) => void;
};

export interface PipelineStage<S> {
  id: StageId;
  title: string;
  /** Shown in the UI. */
  description: string;
  /** Fresh state for a new thread. */
  initial(): S;
  /** Called when the working history was reset (the recorded input no longer extends the previous one). */
  onReset?(work: Working, state: S, ctx: StageContext): S;
  run(work: Working, state: S, ctx: StageContext): S;
}
