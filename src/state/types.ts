// The app state's shape (STYLE.md "State and URL"): one zustand store built from slices, data under one
// key per slice and actions under `<slice>Actions`. Big data (rows, run results) lives outside the store
// as frozen references; the store holds them by reference and components select narrowly.

import type {
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
  ShareView,
} from '../../worker/api.ts';

export type LoadSource = { kind: 'sample' | 'file' | 'paste' | 'url' | 'link'; name: string };

/** A bundled sample's own settings (public/samples/index.json), applied over the log's defaults. */
export type SampleSettings = {
  preset?: PresetId;
  /** Config overrides over the preset (nested or dotted keys), validated like a --config file. */
  set?: Record<string, unknown>;
  mode?: ReplayMode;
  provider?: Provider;
};

/** Settings and view restored with a load (a share link or share file, or a sample's settings), with the link's
 *  fallback warnings. */
export type Restore = {
  settings?: RunSettings;
  view?: ShareView;
  warnings?: string[];
  sample?: SampleSettings & { id: string };
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
};

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
  detailTab: 'raw' | 'normalized' | 'diff';
  search: string;
  help: boolean;
  theme: Theme;
  /** Scroll the transcript to this message (bumped on each request so the same index scrolls again). */
  scrollTo: { index: number; nonce: number } | null;
  /** The compaction whose view is open (a CompactionRow id of the last run), or null. */
  compaction: string | null;
  /** The timeline's zoomed range: request indices of the shown thread, inclusive; null shows every request. */
  range: TimelineRange | null;
};

type TimelineRange = { from: number; to: number };

type TranscriptActions = {
  /** `follow: 'start'`: a session that will be followed (the engine keeps its lines for its growth). */
  loadFiles: (files: File[], source?: LoadSource, follow?: 'start') => Promise<void>;
  /** A followed session that grew, read again: settings and selection kept (follow.ts). `appended`: the file
   *  only grew since the last read, so the engine reads and parses just the new bytes; else it was replaced. */
  reloadGrown: (files: File[], source: LoadSource, appended: boolean) => Promise<void>;
  loadText: (name: string, text: string, source?: LoadSource) => Promise<void>;
  loadUrl: (url: string, source?: LoadSource, restore?: Restore) => Promise<void>;
  /** Open a share link (`#s=…`): the engine decodes it and loads its transcript; a link that names a bundled
   *  sample is handed back (the sample list lives with the views). Failures land in load-status. */
  openLink: (href: string) => Promise<{ sample: string; restore: Restore } | null>;
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
  openCompaction: (id: string | null) => void;
  /** Zoom the timeline to a range of the shown thread's requests (null: all of them). */
  setTimelineRange: (range: TimelineRange | null) => void;
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
