// EngineApi: the protocol between the UI and the engine (SPEC §6: all parsing, tokenizing, replay and
// analysis run off the main thread). Shared by worker/create-engine.ts (the implementation, also used
// in-thread by tests and as the no-worker fallback) and src/state/engine-client.ts. Every value crossing
// it is plain structured-cloneable data, sized for the view: the transcript itself never crosses.

import type { PairingViolation, Provider } from '../src/analyses/pairing.ts';
import type { Refetch } from '../src/analyses/refetch.ts';
import type { Report, RequestRow, ToolResultRow } from '../src/analyses/report.ts';
import type { LogDefaults } from '../src/analyses/settings-origin.ts';
import type { LoadLimits } from '../src/formats/index.ts';
import type { FormatId, ParseIssue, Role, ThreadKind } from '../src/model/transcript.ts';
import type { PipelineConfig } from '../src/pipeline/config.ts';
import type { PipelineEvent } from '../src/pipeline/stage.ts';
import type { HttpCall, SummaryOutcome } from '../src/pipeline/summarizer.ts';
import type { ReplayMode } from '../src/replay/inputs.ts';
import type { MinimizeProgress, Size } from '../src/share/minimize.ts';
import type { ShareView } from '../src/share/payload.ts';
import type { Witness } from '../src/share/predicate.ts';
import type { RedactionChange, RedactionPreview } from '../src/share/redact.ts';
import type { EncodingName } from '../src/tokens/tokenizer.ts';

export type LoadFile = { name: string; buffer: ArrayBuffer };

export type LoadProgress = {
  phase: 'reading' | 'parsing' | 'counting' | 'replaying';
  fraction: number;
  detail?: string;
};

export type ThreadInfo = {
  id: string;
  kind: ThreadKind;
  title?: string;
  messages: number;
  requests: number;
  parentToolUseId?: string;
};

export type LoadSummary = {
  ok: true;
  fileName: string;
  format: FormatId;
  originalFormat?: FormatId;
  version?: string;
  title?: string;
  bytes: number;
  threads: ThreadInfo[];
  counts: Report['counts'];
  parseIssues: ParseIssue[];
  skipped: Record<string, number>;
  /** Why each skipped kind is not part of the conversation (skip-reasons.ts), where known. */
  skippedWhy: Record<string, string>;
  loadMs: number;
  /** Settings and view carried by a `.tierscope.json` share file (SPEC §7), restored when it is opened. */
  share?: SharedSettings;
  /** The provider and context window the log implies (SPEC §1.1), each saying where it came from. */
  defaults: LogDefaults;
};

export type LoadFailure = { ok: false; error: string; issues: ParseIssue[] };

/** One transcript row (a message) for the virtualized list: small, static per load. */
export type Row = {
  index: number;
  role: Role;
  tokens: number;
  /** False while exact counts are still being computed (tokens is then an estimate). */
  exact: boolean;
  /** Tool names of tool_use blocks (assistant) or of the tools whose results it carries (user). */
  tools: string[];
  /** tool_use ids of the results it carries (user) or of its calls (assistant). */
  toolUseIds: string[];
  blockTypes: string[];
  preview: string;
  isError: boolean;
  compaction?: 'summary' | 'boundary';
  meta?: boolean;
  time?: number;
  line: number;
  /** Request index this message is the response of (assistant), if any. */
  request?: number;
};

export type RunSettings = {
  preset: string;
  config: PipelineConfig;
  mode: ReplayMode;
  provider: Provider;
  encoding: EncodingName;
};

/** One request of the timeline: what the stacked chart and break markers need. */
export type TimelinePoint = {
  thread: string;
  index: number;
  time?: number;
  model?: string;
  inputTokens: number;
  outputTokens: number;
  /** Calibrated estimates of the recorded input and of what the pipeline would send; how the first was made. */
  estimateIn: number;
  estimateOut: number;
  estimate: RequestRow['estimate'];
  categories: Record<string, number>;
  observed: { input: number; cacheRead: number; cacheWrite: number; output: number; prompt: number } | null;
  simulated: { cacheRead: number; cacheWrite: number; prompt: number };
  /** Dollars of the request: recorded (observed usage at list prices), simulated (estimate); null: unknown. */
  costUsd: RequestRow['costUsd'];
  observedBreak: RequestRow['observedBreak'];
  /** The simulated break; its `events` are ids into the run's `events` (the rewrites that caused it). */
  cacheBreak: RequestRow['cacheBreak'];
  /** Indices into the run's `events` of this request's rewrites. */
  eventIds: number[];
  /** Index of the message that is this request's response (for click-to-scroll). */
  responseMessage: number;
};

export type EventRow = Omit<PipelineEvent, 'before' | 'after'> & { id: number };

export type RunResult = {
  runId: number;
  stale?: false;
  ms: number;
  settings: RunSettings;
  totals: Report['totals'];
  calibration: Report['calibration'];
  lines: { window: number; trigger: number; landing: number; hardcap: number };
  toolResults: ToolResultRow[];
  timeline: TimelinePoint[];
  events: EventRow[];
  pairing: PairingViolation[];
  refetches: Refetch[];
  /** Set when the http summarizer still has calls to make (the UI may fetch and re-run). */
  pendingSummaries: number;
};

export type StaleRun = { runId: number; stale: true };

export type MessageDetail = {
  thread: string;
  index: number;
  /** The message as normalized (pretty JSON). */
  normalized: string;
  /** The source line(s) as written in the file, pretty-printed when JSON; null for whole-document formats. */
  raw: string | null;
  line: number;
  path?: string;
};

export type DiffResult = { before: string; after: string; title: string };

/** Background counting status after a load. */
export type CountStatus = { done: boolean; fraction: number; ms?: number; pooled?: boolean };

/** What a share link or share file restores besides the transcript (already checked per field). */
export type SharedSettings = { settings: RunSettings; view: ShareView; warnings: string[] };

/** What a share link is built from (SPEC §7): the settings and view shown, and the options chosen. */
export type ShareRequest = {
  settings: RunSettings;
  view: ShareView;
  /** The bundled sample the transcript was loaded from: an unredacted link then carries its id only. */
  sample?: string;
  /** Opt-in redaction: content becomes same-length filler; paths are kept unless `keepPaths` is false. */
  redact: { keepPaths: boolean } | null;
  /** Share the reproduction of this minimize run (its token) instead of the loaded transcript. */
  minimized?: number;
};

export type ShareLink = {
  /** The `s` value of the link (`1.<data>`); the page adds its own origin and path. */
  encoded: string;
  carries: 'sample' | 'transcript';
  view: ShareView;
  redaction: RedactionPreview | null;
  /** Secret-looking strings found (replaced when redacting, shared as they are otherwise), listed masked. */
  secrets: RedactionChange[];
  secretCount: number;
  notes: string[];
};

export type ShareReply = ({ ok: true } & ShareLink) | { ok: false; error: string };

export type MinimizeRequest = Omit<ShareRequest, 'sample' | 'minimized'> & {
  /** `pairing:<rule>[@stage][#id]`, `tier:<id>=<1|2|3|null>` or `break:[observed:|simulated:]<cause>`. */
  predicate: string;
  maxEvaluations?: number;
};

export type MinimizeReply =
  | ({
      ok: true;
      token: number;
      /** `minimal`, or stopped early (`budget`, `cancelled`) with the best reproduction so far. */
      status: 'minimal' | 'budget' | 'cancelled';
      evaluations: number;
      before: Size;
      after: Size;
      witness: Witness;
    } & ShareLink)
  | { ok: false; token: number; error: string; stale?: boolean };

export type OpenedShare =
  | ({ ok: true; kind: 'transcript'; summary: LoadSummary } & SharedSettings)
  | ({ ok: true; kind: 'sample'; sample: string } & SharedSettings)
  | { ok: false; error: string };

export interface EngineApi {
  load(
    files: LoadFile[],
    format: FormatId | undefined,
    onProgress?: (p: LoadProgress) => void,
    /** Load limits chosen for this tab (file size, line size, threads); the defaults otherwise. */
    limits?: Partial<LoadLimits>,
  ): Promise<LoadSummary | LoadFailure>;
  rows(thread: string): Promise<Row[]>;
  /** Resolves when exact counts for the loaded transcript are done (progress through load's callback). */
  counted(): Promise<CountStatus>;
  run(runId: number, settings: RunSettings, onProgress?: (p: LoadProgress) => void): Promise<RunResult | StaleRun>;
  detail(thread: string, messageIndex: number): Promise<MessageDetail | null>;
  diff(eventId: number): Promise<DiffResult | null>;
  report(): Promise<Report | null>;
  exportBundle(): Promise<string | null>;
  /** A share link for the loaded transcript (or the last reproduction) with these settings and view. */
  share(req: ShareRequest): Promise<ShareReply>;
  /** The same share as a `.tierscope.json` file (for links over 2 MB); null when nothing is loaded. */
  shareFile(req: ShareRequest): Promise<string | null>;
  /** Minimize the loaded transcript against a predicate; a newer token or cancelMinimize stops it. */
  minimize(token: number, req: MinimizeRequest, onProgress?: (p: MinimizeProgress) => void): Promise<MinimizeReply>;
  cancelMinimize(token: number): Promise<void>;
  /** Decode a share link (off the main thread) and load its transcript, or name its sample. */
  openShare(link: string, onProgress?: (p: LoadProgress) => void): Promise<OpenedShare>;
  /** The http summarizer calls the last run is waiting for (RunResult.pendingSummaries of them). */
  summaryCalls(): Promise<HttpCall[]>;
  /** Answers to those calls (summaries or errors, by call key); the next run reads them. */
  fillSummaries(answers: SummaryAnswer[]): Promise<void>;
  /** Forget the answers (after the endpoint or model changed), or only the failures (a new key, a retry). */
  clearSummaries(onlyFailures?: boolean): Promise<void>;
}

export type SummaryAnswer = { key: string; outcome: SummaryOutcome };

/** What the worker actually exposes: the same API, but big replies are held in the worker and fetched
 *  in parts (worker/wire.ts) so the main thread never parses one huge message. */
export type WireEngineApi = Omit<EngineApi, 'rows' | 'run'> & {
  rows(thread: string): Promise<HeldReply>;
  run(runId: number, settings: RunSettings, onProgress?: (p: LoadProgress) => void): Promise<HeldReply>;
  part(id: number, k: number): Promise<import('./wire.ts').Packed>;
  /** Take the Web Lock `name` for the worker's lifetime (resolves once held): the page learns the worker
   *  died (crashed, closed, killed) when the lock is released, even while the worker is busy. */
  hold(name: string): Promise<boolean>;
};

export type HeldReply = { id: number; plan: import('./wire.ts').PartPlan };
