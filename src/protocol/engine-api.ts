// EngineApi: the protocol between the UI and the engine (SPEC §6: all parsing, tokenizing, replay and
// analysis run off the main thread). Implemented by worker/create-engine.ts (also used in-thread by tests and as the
// no-worker fallback) and called by src/state/engine-client.ts. Every value crossing it is plain
// structured-cloneable data, sized for the view: the transcript itself never crosses. Types only.
import type { CompactionRow } from '../analyses/audit.ts';
import type { CompactionTexts } from '../analyses/compaction-audit.ts';
import type { ModelProbeCall, ModelProbeResult } from '../analyses/model-probes.ts';
import type { Refetch } from '../analyses/refetch.ts';
import type { Report } from '../analyses/report.ts';
import type { PresetTaskTable } from '../analyses/tasks.ts';
import type { LoadLimits } from '../formats/limits.ts';
import type { FormatId, ParseIssue } from '../model/transcript.ts';
import type { HttpCall, SummaryOutcome } from '../pipeline/summarizer.ts';
import type { TranscriptSummary } from '../projections/load-summary.ts';
import type { Row } from '../projections/rows.ts';
import type { WindowNotes } from '../projections/run-notes.ts';
import type { RunResult, RunSettings } from '../projections/run-result.ts';
import type { EventRow } from '../projections/timeline.ts';
import type { PointDetail } from '../projections/timeline-columns.ts';
import type { DayTotal, SortKey } from '../sessions/rows.ts';
import type { ScanProgress, Skipped } from '../sessions/scan.ts';
import type { SessionRow } from '../sessions/summary.ts';
import type { MinimizeProgress, Size } from '../share/minimize.ts';
import type { Witness } from '../share/predicate.ts';
import type { RedactionChange, RedactionPreview } from '../share/redact.ts';
import type { View } from '../share/view.ts';
import type { EncodingName } from '../tokens/encodings.ts';
import type { Packed, PartPlan } from './wire.ts';

/** A file for the engine: bytes (share links), a File or Blob the worker reads slice by slice (picker, drop,
 *  paste), or a same-origin URL the worker fetches (?src=, samples). The page never reads a file whole. A Node host
 *  (the bench, tests) names a file on disk by `path`, read slice by slice through the engine's `openPath`. */
export type LoadFile =
  | { name: string; buffer: ArrayBuffer }
  | { name: string; blob: Blob }
  | { name: string; url: string }
  | { name: string; path: string };
/** One file of an opened folder: its path relative to the folder ('/'-separated), its size, and where its bytes
 *  are — a Blob (picked or dropped folder; unread until needed) or a same-origin URL (`tierscope serve`). */
export type FolderFile = { path: string; size: number; file?: Blob; url?: string };

export type ScanProgressInfo = ScanProgress & { token: number };

export type ScanReply =
  | { token: number; stale: true }
  | {
      token: number;
      stale: false;
      sessions: number;
      skipped: Skipped[];
      cancelled: boolean;
      files: number;
      bytes: number;
      ms: number;
      projects: string[];
    };

/** What the sessions table shows: a date range (local days `YYYY-MM-DD`), projects (all when empty), a sort. */
export type SessionsQuery = {
  since: string | null;
  until: string | null;
  projects: string[];
  sort: SortKey;
  dir: 'asc' | 'desc';
};

export type SessionsView = { rows: SessionRow[]; days: DayTotal[]; total: number; error: string | null };

export type LoadProgress = {
  phase: 'reading' | 'parsing' | 'counting' | 'replaying';
  fraction: number;
  detail?: string;
};

export type { ThreadInfo } from '../projections/load-summary.ts';

export type LoadSummary = {
  ok: true;
  fileName: string;
  bytes: number;
  loadMs: number;
  /** Settings and view carried by a `.tierscope.json` share file (SPEC §7), restored when it is opened. */
  share?: SharedSettings;
} & TranscriptSummary;

export type LoadFailure = { ok: false; error: string; issues: ParseIssue[] };

export type { RunResult, RunSettings } from '../projections/run-result.ts';

export type StaleRun = { runId: number; stale: true };

export type { TimelineChunk } from '../projections/timeline-chunk.ts';
export type { PointDetail } from '../projections/timeline-columns.ts';

export type MessageDetail = {
  thread: string;
  index: number;
  /** The message as normalized (pretty JSON). */
  normalized: string;
  /** The source line(s) exactly as written in the file (clipped past the viewer's limit); null for whole-document
   *  formats and bundles. */
  raw: string | null;
  /** Why there is no raw line, when it is not obvious (a bundle carries no source lines). */
  rawNote?: string;
  line: number;
  path?: string;
};

export type DiffResult = { before: string; after: string; title: string };

/** One compaction of the last run with its texts (clipped for display), for the compaction view. */
export type CompactionDetail = { row: CompactionRow } & CompactionTexts & { clipped: boolean };

/** Background counting status after a load. */
export type CountStatus = { done: boolean; fraction: number; ms?: number; pooled?: boolean };

/** What a share link or share file restores besides the transcript (already checked per field). */
export type SharedSettings = { settings: RunSettings; view: View; warnings: string[] };

/** What a share link is built from (SPEC §7): the settings and view shown, and the options chosen. */
export type ShareRequest = {
  settings: RunSettings;
  view: View;
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
  view: View;
  redaction: RedactionPreview | null;
  /** Secret-looking strings found (replaced when redacting, shared as they are otherwise), listed masked. */
  secrets: RedactionChange[];
  secretCount: number;
  notes: string[];
};

export type ShareReply = ({ ok: true } & ShareLink) | { ok: false; error: string };

type MinimizeRequest = Omit<ShareRequest, 'sample' | 'minimized'> & {
  /** `pairing:<rule>[@stage][#id]`, `tier:<id>=<1|2|3|null>`, `break:[observed:|simulated:]<cause>`,
   *  `compaction:<thread>/<request>:lost:<kind>[=<text>]`, `compaction:<thread>/<request>:unreadable`,
   *  `refetch:after-agent-compaction[#id]` or `refetch:after-pipeline[#id]` (src/share/predicate.ts). */
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
    /** A followed session: 'start' keeps its lines for the next load, 'grow' is that next load (the same file
     *  with bytes appended: only those are read and parsed). */
    follow?: 'start' | 'grow',
    /** Of a file that holds several sessions (an opencode database), the one to read. */
    session?: string,
    /** The encoding the page will run with: exact counting starts in it (o200k_base when not given). */
    encoding?: EncodingName,
  ): Promise<LoadSummary | LoadFailure>;
  /** Stop the load under way: it ends with a "Cancelled" failure and what was loaded stays loaded. */
  cancelLoad(): Promise<void>;
  /** A thread's rows, counted with `encoding` (the load's when not given): the counts a run in it uses. */
  rows(thread: string, encoding?: EncodingName): Promise<Row[]>;
  /** Resolves when exact counts for the loaded transcript are done (progress through load's callback). */
  counted(): Promise<CountStatus>;
  run(runId: number, settings: RunSettings, onProgress?: (p: LoadProgress) => void): Promise<RunResult | StaleRun>;
  /** The tool-result and event rows of messages [from, to) of `thread` in run `runId` (the rows on screen), or of
   *  just the messages `only` lists (ascending: a search filter's rows); null when that run is no longer the last. */
  notes(runId: number, thread: string, from: number, to: number, only?: number[]): Promise<WindowNotes | null>;
  /** Event rows of run `runId` by id (null for an id it does not have); null when that run is no longer the last. */
  eventRows(runId: number, ids: number[]): Promise<(EventRow | null)[] | null>;
  /** The id in run `runId` of the first event that did what `like` did (ids are per run), or null; null (no
   *  object) when that run is no longer the last. */
  findEvent(runId: number, like: Omit<EventRow, 'id'>): Promise<{ id: number | null } | null>;
  detail(thread: string, messageIndex: number): Promise<MessageDetail | null>;
  /** Point `k` of run `runId`'s timeline in full with its rewrites' event rows; null once another run is the last. */
  point(runId: number, k: number): Promise<PointDetail | null>;
  diff(eventId: number): Promise<DiffResult | null>;
  report(): Promise<Report | null>;
  /** A compaction of the last run by id, with its summary, Tierscope's anchored summary and its ledger. */
  compaction(id: string): Promise<CompactionDetail | null>;
  /** The last run's re-fetches after the pipeline or the agent's compaction whose first or repeated call has one of
   *  these tool_use ids (any thread), in the report's order; null when nothing has run. */
  refetchesOf(toolUseIds: string[]): Promise<Refetch[] | null>;
  /** Tokens per task of the recording and of every preset under the last run's settings (six replays, kept). */
  presetTasks(): Promise<PresetTaskTable | null>;
  /** The four model probes (recall, artifact, continuation, decision) of a compaction's summary: prompts only —
   *  the page makes the calls with the user's endpoint and key, after the user asks. */
  modelProbes(id: string): Promise<ModelProbeCall[] | null>;
  /** Their answers graded against the compaction's ledger (by call key). */
  gradeModelProbes(id: string, answers: SummaryAnswer[]): Promise<ModelProbeResult[] | null>;
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
  /** Scan a folder's sessions (no tokenizing); a newer token or cancelScan stops it with the rows so far. */
  scanFolder(
    token: number,
    files: FolderFile[],
    rootName: string,
    onProgress?: (p: ScanProgressInfo) => void,
  ): Promise<ScanReply>;
  cancelScan(token: number): Promise<void>;
  /** The last scan's sessions, filtered, sorted and totalled per day. */
  sessions(query: SessionsQuery): Promise<SessionsView>;
}

export type SummaryAnswer = { key: string; outcome: SummaryOutcome };

/** What the worker actually exposes: the same API, but big replies are held in the worker and fetched
 *  in parts (wire.ts) so the main thread never parses one huge message. */
export type WireEngineApi = Omit<EngineApi, 'rows' | 'run'> & {
  rows(thread: string, encoding?: EncodingName): Promise<HeldReply>;
  run(runId: number, settings: RunSettings, onProgress?: (p: LoadProgress) => void): Promise<HeldReply>;
  part(id: number, k: number): Promise<Packed>;
  /** Forget a held reply the page no longer wants (a run overtaken by a newer one), its parts unfetched. */
  drop(id: number): Promise<void>;
  /** Take the Web Lock `name` for the worker's lifetime (resolves once held): the page learns the worker
   *  died (crashed, closed, killed) when the lock is released, even while the worker is busy. */
  hold(name: string): Promise<boolean>;
};

export type HeldReply = { id: number; plan: PartPlan };
