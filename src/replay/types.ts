// The replay's vocabulary (SPEC §3): its options, what one request's replay and one thread's replay hold. Kept
// apart from replay.ts so the run cache (cache.ts) can name them without importing the driver.
import type { Message, Request, Thread } from '../model/transcript.ts';
import type { PairingViolation, Provider } from '../pairing/types.ts';
import type { PipelineConfig } from '../pipeline/config.ts';
import type { ResultFates } from '../pipeline/fates.ts';
import type { PipelineEvent } from '../pipeline/stage.ts';
import type { Summarizer } from '../pipeline/summarizer.ts';
import type { KnownMessages } from '../pipeline/working.ts';
import type { Calibration, CalibrationSample, EstimateBasis } from '../tokens/calibration.ts';
import type { InputDelta, InputView, ReplayMode } from './inputs.ts';
import type { ConfigReads } from './reuse.ts';

export type ReplayOptions = {
  config: PipelineConfig;
  mode: ReplayMode;
  provider: Provider;
  summarizer: Summarizer;
};

export type RequestReplay = {
  thread: string;
  index: number;
  time?: number;
  responseTime?: number;
  model?: string;
  /** Set when the recorded input did not extend the previous one. */
  reset?: Exclude<InputDelta, { kind: 'append' }>;
  /** Counted tokens (static prefix + messages) of the recorded input and of what would be sent. */
  inputTokens: number;
  outputTokens: number;
  /** Calibrated estimates of the same (calibration.ts: how the input's estimate was made). */
  estimateIn: number;
  estimateOut: number;
  estimateBasis: EstimateBasis;
  prefixTokens: number;
  toolsKey: string;
  systemKey: string;
  toolsTokens: number;
  /** Counted total after each stage, in STAGES order. */
  stageTokens: number[];
  events: PipelineEvent[];
  /** Pairing violations first seen at this request (input or a stage). */
  pairing: PairingViolation[];
  /** Output tokens by category: system, tools, user, assistant, thinking, result:<tool>. */
  categories: Record<string, number>;
  outputMessages: number;
  /** Messages carried over from the previous output (its length) before this request's rewrites. */
  carriedMessages: number;
  /** Messages and counted tokens this output shares byte-for-byte with the previous output of the thread. */
  commonMessages: number;
  commonTokens: number;
  summarizerError?: string;
};

export type ThreadReplay = {
  thread: string;
  calibration: Calibration;
  requests: RequestReplay[];
  /** What the pipeline did to each tool result, by tool_use id in thread order (pipeline/fates.ts). */
  fates: ResultFates;
  /** By thread message index: the request whose pipeline summary folded that message in (sparse; the
   *  compaction audit reads the span of each summary from it). */
  folded: readonly (number | undefined)[];
  /** Output of the last replayed request (only when `capture` was asked). */
  output?: Message[];
  /** The config keys this replay read, with their values (see reuse.ts). */
  reads: ConfigReads;
};

/** One request's plan as the replay reads it: made from its thread's PlanColumns when read (not kept). */
export type RequestPlan = {
  request: Request;
  view: InputView;
  delta: InputDelta;
  /** Where the messages this request appends (append), or its whole input (reset), start in `view.array`: they
   *  are [from, view.end). */
  from: number;
  /** Counted tokens, runes, token categories and tool id numbers of `view.array`'s messages, by position (shared by
   *  the plans over one array; appending costs no lookups). */
  known: KnownMessages;
  /** Counted tokens of the recorded input's messages. */
  rawInputTokens: number;
  toolsKey: string;
  systemKey: string;
  toolsTokens: number;
  /** Static prefix tokens as the calibration has them (counted, or inferred from usage). */
  staticTokens: number;
};

/**
 * A thread's replay in progress: its state after the requests it has replayed. `step` replays the next request,
 * `finish` reads out the replay so far (copies: later steps do not change it). `grown` moves the run onto a later
 * read of the thread whose earlier requests it already replayed (resume.ts decides when that is sound), so a
 * followed session's growth replays only its new requests.
 */
/** A thread's request plans by request index, with the recorded input's pairing checks (plan-columns.ts). */
export interface ThreadPlans {
  readonly length: number;
  at(k: number): RequestPlan;
  check(k: number, key: string): PairingViolation[] | undefined;
  keepCheck(k: number, key: string, found: PairingViolation[], none: PairingViolation[]): PairingViolation[];
  /** The first request whose recorded input repeats a tool id (pairing-window.ts firstRepeat). */
  firstRepeat(): number;
}

export type ThreadRun = {
  /** Replay request `k` of the thread from its plan. */
  step(plans: ThreadPlans, k: number): void;
  finish(): ThreadReplay;
  grown(thread: Thread, calibration: Calibration): void;
};

/** Running sums over a thread's messages (transcript.ts): tokens, tool blocks, hidden reasoning, thinking text. */
export type MessageSums = { all: Float64Array; blocks: Float64Array; hid: Float64Array; think: Float64Array };

/** A thread's calibration samples with what they were made from (ReplayCache.calibrationInputs). */
export type ThreadSamples = {
  thread: Thread;
  framing: number;
  perTurn: boolean;
  /** No earlier reasoning counts in a request (Gemini CLI). */
  noReasoning?: boolean;
  /** By message: the hidden reasoning of the response there. */
  hidden: Float64Array;
  sums: MessageSums;
  samples: CalibrationSample[];
};
