// The app state's shape (STYLE.md "State and URL"): one zustand store built from slices, data under one
// key per slice and actions under `<slice>Actions`. Big data (rows, run results) lives outside the store
// as frozen references; the store holds them by reference and components select narrowly.

import type {
  ConfigTab,
  DetailTab,
  EncodingName,
  LoadProgress,
  LoadSummary,
  LogDefaults,
  ParseIssue,
  PipelineConfig,
  PresetId,
  Provider,
  ReplayMode,
  Row,
  RunResult,
  RunSettings,
  SampleSettings,
  TimelineRange,
  View,
} from '../protocol/index.ts';

/** Where what is loaded came from; `session`: a session of the opened folder (name = its path in the folder). */
export type LoadSource = {
  kind: 'sample' | 'file' | 'paste' | 'url' | 'link' | 'session';
  name: string;
  /** Of a file that holds several sessions (an opencode database), the one shown. */
  session?: string;
};

/** Settings and view restored with a load (a share link or share file, or a sample's settings), with the link's
 *  fallback warnings. */
export type Restore = {
  settings?: RunSettings;
  view?: View;
  warnings?: string[];
  sample?: SampleSettings & { id: string };
  /** Load again for a history entry: the entry's load id is kept (view-history.ts). */
  doc?: number;
  /** The share link a sample was opened by: the page URL keeps the link (its settings survive a reload). */
  link?: string | null;
};

type TranscriptState = {
  status: 'idle' | 'loading' | 'ready' | 'error';
  source?: LoadSource;
  summary?: LoadSummary;
  error?: string;
  issues: ParseIssue[];
  progress?: LoadProgress;
  /** Rows per thread id (frozen arrays, fetched from the engine on demand). */
  /** Rows by thread id; read through `threadRows` (a thread id may be `__proto__` or `constructor`). */
  rows: Record<string, readonly Row[]>;
  /** What a share link or file could not restore (per-field fallbacks), shown beside load-status. */
  linkWarnings?: readonly string[];
  /** The last load that failed while another transcript stayed on screen: what it was and why (load-failure). */
  failure?: Failure;
  /** Which load is on screen and how to load it again (view-history.ts keys history entries on it). */
  doc: Opened | null;
};

/** A load that failed while another analysis stayed on screen (or a history entry that cannot be shown again):
 *  what it was, why, and the parse issues the failed load met. */
type Failure = { name: string; error: string; issues?: readonly ParseIssue[] };

/** A load that reached the screen: its id (a history entry names it), where it came from, and what it needs to
 *  be loaded again — the files themselves (Blobs are references to the user's files, never copies; they ride in
 *  history entries, which is how Back and a reload find a dropped file again) or the share link's value. */
export type Opened = { id: number; source: LoadSource; files: readonly File[] | null; link: string | null };

type RunState = {
  status: 'idle' | 'running' | 'ready' | 'error';
  result?: RunResult;
  error?: string;
  /** Id of the newest run requested (older replies are dropped). */
  runId: number;
};

/** What a run uses (and a share link carries). */
export type RunChoice = {
  preset: PresetId;
  config: PipelineConfig;
  mode: ReplayMode;
  provider: Provider;
  encoding: EncodingName;
};

/** Where the settings on screen came from, when not from the log and the user's own choices, with the window and
 *  provider it brought (a value still equal to those is the link's or sample's; a changed one is the user's). */
export type SettingsSource = {
  kind: 'link' | 'share-file' | 'sample';
  name: string;
  contextWindow: number;
  provider: Provider;
};

export type ConfigState = RunChoice & {
  /** The loaded log's defaults (provider, context window, and where each came from); null before a load. */
  log: LogDefaults | null;
  /** The preset, mode and encoding the user picked: the next file opens with them and its own defaults. */
  lens: Pick<RunChoice, 'preset' | 'mode' | 'encoding'>;
  /** Settings that came with the load (a share link or file, a bundled sample), shown as such; null otherwise. */
  from: SettingsSource | null;
};

export type Theme = 'system' | 'light' | 'dark';

export type ViewState = {
  thread: string;
  /** Selected message (row) index in the current thread. */
  message: number | null;
  /** Selected request (timeline) index in the current thread. */
  request: number | null;
  /** Selected rewrite event id (for the diff view). */
  event: number | null;
  detailTab: DetailTab;
  search: string;
  help: boolean;
  theme: Theme;
  /** Scroll the transcript to this message (bumped on each request so the same index scrolls again). */
  scrollTo: { index: number; nonce: number } | null;
  /** The compaction whose view is open (a CompactionRow id of the last run), or null. */
  compaction: string | null;
  /** The focused probe item of the open compaction view (`summary.errors.lost.0`, src/share/view.ts), or null. */
  probe: string | null;
  /** The timeline's visible range (request indices of the shown thread, inclusive); null: all of it. */
  range: TimelineRange | null;
  /** The config panel's tab. */
  configTab: ConfigTab;
};

type TranscriptActions = {
  /** `follow: 'start'`: a session that will be followed (the engine keeps its lines for its growth). */
  loadFiles: (files: File[], source?: LoadSource, follow?: 'start', restore?: Restore) => Promise<void>;
  /** A followed session that grew, read again: settings and selection kept (follow.ts). `appended`: the file
   *  only grew since the last read, so the engine reads and parses just the new bytes; else it was replaced. */
  reloadGrown: (files: File[], source: LoadSource, appended: boolean) => Promise<void>;
  loadText: (name: string, text: string, source?: LoadSource) => Promise<void>;
  loadUrl: (url: string, source?: LoadSource, restore?: Restore) => Promise<void>;
  /** Open a share link (`#s=…`): the engine decodes it and loads its transcript; a link that names a bundled
   *  sample is handed back (the sample list lives with the views). Failures land in load-status. */
  openLink: (href: string, over?: Restore) => Promise<{ sample: string; restore: Restore } | null>;
  ensureRows: (thread: string) => Promise<void>;
};

type RunActions = { requestRun: () => void };

type ConfigActions = {
  setPreset: (p: PresetId) => void;
  setKey: (key: string, value: unknown) => string | null;
  setConfig: (c: PipelineConfig) => void;
  setMode: (m: ReplayMode) => void;
  setProvider: (p: Provider) => void;
  setEncoding: (e: EncodingName) => void;
};

type ViewActions = {
  setThread: (id: string) => void;
  selectMessage: (index: number | null, scroll?: boolean) => void;
  selectRequest: (index: number | null) => void;
  selectEvent: (id: number | null) => void;
  setDetailTab: (t: ViewState['detailTab']) => void;
  setSearch: (s: string) => void;
  toggleHelp: (open?: boolean) => void;
  setTheme: (t: Theme) => void;
  /** Open (or close, with null) the compaction view, optionally with a probe item focused. */
  openCompaction: (id: string | null, probe?: string | null) => void;
  focusProbe: (key: string | null) => void;
  setTimelineRange: (range: TimelineRange | null) => void;
  setConfigTab: (tab: ConfigTab) => void;
  /** Name what could not be shown (a failed load, a history entry whose file is gone) beside what is shown;
   *  null dismisses it. */
  noteFailure: (failure: Failure | null) => void;
  /** Show a view of the transcript on screen (a history entry): checked per field like a link's. */
  applyView: (view: View) => void;
};

export type AppState = {
  transcript: TranscriptState;
  transcriptActions: TranscriptActions;
  run: RunState;
  runActions: RunActions;
  config: ConfigState;
  configActions: ConfigActions;
  view: ViewState;
  viewActions: ViewActions;
};
