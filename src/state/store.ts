// The one zustand store, composed from slices (transcript, run, config, view). Loading and running go
// through the engine client; every config change schedules a debounced re-run whose stale replies are
// dropped, so the UI stays responsive while the worker computes.
import { create } from 'zustand';
import type { LoadFile, LoadSummary, Row } from '../protocol/index.ts';
import { ConfigError, checkValue, DEFAULT_VIEW, type PipelineConfig, shareValue } from '../protocol/index.ts';
import { engine, progressProxy } from './engine-client.ts';
import { rememberInput } from './last-input.ts';
import { fileTooBig, useLoadLimits } from './load-limits.ts';
import { beginLoad, isNewest, supersede } from './load-order.ts';
import { baselineConfig, INITIAL_CONFIG, loadedConfig } from './log-settings.ts';
import { oneAtATime } from './one-at-a-time.ts';
import type { AppState, LoadSource, Opened, Restore } from './types.ts';
import { urlFileName } from './url-name.ts';
import { restoreView, viewOf } from './url-state.ts';

const RUN_DEBOUNCE_MS = 50;
let runTimer: ReturnType<typeof setTimeout> | undefined;

function setPath(o: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const [head, ...rest] = key.split('.');
  if (rest.length === 0) return { ...o, [head]: value };
  return { ...o, [head]: setPath((o[head] as Record<string, unknown>) ?? {}, rest.join('.'), value) };
}

/** The id of the last load shown (history entries name loads by it: view-history.ts). */
let lastDoc = 0;

export const useStore = create<AppState>()((set, get) => ({
  transcript: { status: 'idle', issues: [], rows: {}, doc: null },
  run: { status: 'idle', runId: 0 },
  config: INITIAL_CONFIG,
  view: {
    thread: 'main',
    message: null,
    request: null,
    event: null,
    detailTab: 'raw',
    search: '',
    help: false,
    theme: 'system',
    scrollTo: null,
    compaction: null,
    probe: null,
    range: null,
    configTab: 'controls',
  },

  transcriptActions: {
    async loadFiles(files: File[], source?: LoadSource, follow?: 'start', restore?: Restore) {
      const src = source ?? { kind: 'file', name: files[0]?.name ?? 'file' };
      rememberInput(() => get().transcriptActions.loadFiles(files, src, follow, restore), files[0]?.size ?? null);
      // Over the limit: refused before anything is read (the engine checks again, for every input path).
      const tooBig = files[0] ? fileTooBig(files[0].name, files[0].size) : null;
      if (tooBig) return refuseLoad(src, tooBig);
      // The Files themselves go to the worker, which reads them slice by slice: the page never reads them.
      await loadInputs(
        files.map((f) => ({ name: f.name, blob: f })),
        src,
        restore,
        false,
        follow,
        { files, link: null },
      );
    },
    async reloadGrown(files: File[], source: LoadSource, appended: boolean) {
      await loadInputs(
        files.map((f) => ({ name: f.name, blob: f })),
        source,
        undefined,
        true,
        appended ? 'grow' : 'start',
      );
    },
    async loadText(name: string, text: string, source?: LoadSource) {
      // A File, so history can hold it like a dropped one (a reference, not a copy of the text per entry).
      const file = new File([text], name, { type: 'text/plain' });
      await get().transcriptActions.loadFiles([file], source ?? { kind: 'paste', name });
    },
    async loadUrl(url: string, source?: LoadSource, restore?: Restore) {
      rememberInput(() => get().transcriptActions.loadUrl(url, source, restore));
      // The worker fetches it (same origin only), streaming, under the file-size limit.
      const name = urlFileName(url);
      await loadInputs(
        [{ name, url: new URL(url, window.location.href).href }],
        source ?? { kind: 'url', name },
        restore,
      );
    },
    async openLink(href: string, over?: Restore) {
      rememberInput(() => get().transcriptActions.openLink(href, over));
      const load = beginLoad();
      const source = { kind: 'link', name: 'share link' } as const;
      const before = startLoading(source);
      let opened: Awaited<ReturnType<ReturnType<typeof engine>['openShare']>>;
      try {
        opened = await load.settles(engine().openShare(href, loadProgress(load.ticket)));
      } catch (e) {
        if (!isNewest(load.ticket)) return null;
        // The engine stopped while decoding (engine-status.ts offers a retry).
        failLoad(`Could not open the share link: ${e instanceof Error ? e.message : String(e)}`, source, before);
        return null;
      }
      if (!isNewest(load.ticket)) return null; // a newer load owns the page
      if (!opened.ok) {
        failLoad(opened.error.charAt(0).toUpperCase() + opened.error.slice(1), source, before);
        return null;
      }
      // The page URL's own view (pairs beside `s=`, written as the recipient moved) wins over the link's.
      const restore: Restore = {
        settings: opened.settings,
        view: over?.view ?? opened.view,
        warnings: [...opened.warnings, ...(over?.warnings ?? [])],
        doc: over?.doc,
        link: shareValue(href),
      };
      if (opened.kind === 'sample') {
        // The sample loads next (its own load); until then what was on screen is, as it was.
        set((s) => ({
          transcript: { ...s.transcript, status: before.status, source: before.source, progress: undefined },
        }));
        return { sample: opened.sample, restore };
      }
      const shown = { kind: 'link', name: opened.summary.fileName } as const;
      set((s) => ({ transcript: { ...s.transcript, source: shown } }));
      await showLoaded(opened.summary, restore, true, { files: null, link: shareValue(href) });
      return null;
    },
    async ensureRows(thread: string) {
      if (threadRows(get(), thread)) return;
      const { summary } = get().transcript;
      const rows = await fetchRows(thread);
      if (!rows || get().transcript.summary !== summary) return; // another file loaded meanwhile
      set((s) => ({ transcript: { ...s.transcript, rows: { ...s.transcript.rows, [thread]: rows } } }));
    },
  },

  runActions: {
    requestRun() {
      if (runTimer) clearTimeout(runTimer);
      runTimer = setTimeout(() => void doRun(), RUN_DEBOUNCE_MS);
    },
  },

  configActions: {
    setPreset(p) {
      set((s) => ({
        config: {
          ...s.config,
          preset: p,
          config: baselineConfig(p, s.config.log),
          lens: { ...s.config.lens, preset: p },
        },
      }));
      get().runActions.requestRun();
    },
    setKey(key, value) {
      try {
        const v = checkValue(key, value);
        set((s) => ({
          config: {
            ...s.config,
            config: setPath(s.config.config as unknown as Record<string, unknown>, key, v) as unknown as PipelineConfig,
          },
        }));
        get().runActions.requestRun();
        return null;
      } catch (e) {
        return e instanceof ConfigError ? e.message : String(e);
      }
    },
    setConfig(c) {
      set((s) => ({ config: { ...s.config, config: c } }));
      get().runActions.requestRun();
    },
    setMode(m) {
      set((s) => ({ config: { ...s.config, mode: m, lens: { ...s.config.lens, mode: m } } }));
      get().runActions.requestRun();
    },
    setProvider(p) {
      set((s) => ({ config: { ...s.config, provider: p } }));
      get().runActions.requestRun();
    },
    setEncoding(e) {
      set((s) => ({ config: { ...s.config, encoding: e, lens: { ...s.config.lens, encoding: e } } }));
      get().runActions.requestRun();
      void refreshRows(); // counted in the new encoding (estimates until the run has counted it: doRun)
    },
  },

  viewActions: {
    setThread(id) {
      set((s) => ({ view: { ...s.view, thread: id, message: null, request: null, event: null, range: null } }));
      void get().transcriptActions.ensureRows(id);
    },
    selectMessage(index, scroll = false) {
      set((s) => ({
        view: {
          ...s.view,
          message: index,
          scrollTo: scroll && index !== null ? { index, nonce: (s.view.scrollTo?.nonce ?? 0) + 1 } : s.view.scrollTo,
        },
      }));
    },
    selectRequest(index) {
      set((s) => ({ view: { ...s.view, request: index } }));
    },
    selectEvent(id) {
      set((s) => ({ view: { ...s.view, event: id, detailTab: id === null ? s.view.detailTab : 'diff' } }));
    },
    setDetailTab(t) {
      set((s) => ({ view: { ...s.view, detailTab: t } }));
    },
    setSearch(q) {
      set((s) => ({ view: { ...s.view, search: q } }));
    },
    toggleHelp(open) {
      set((s) => ({ view: { ...s.view, help: open ?? !s.view.help } }));
    },
    setTheme(t) {
      set((s) => ({ view: { ...s.view, theme: t } }));
    },
    openCompaction(id, probe = null) {
      set((s) => ({ view: { ...s.view, compaction: id, probe: id === null ? null : probe } }));
    },
    focusProbe(key) {
      set((s) => ({ view: { ...s.view, probe: s.view.compaction === null ? null : key } }));
    },
    setTimelineRange(range) {
      set((s) => ({ view: { ...s.view, range } }));
    },
    setConfigTab(tab) {
      set((s) => ({ view: { ...s.view, configTab: tab } }));
    },
    noteFailure(failure) {
      set((s) => ({ transcript: { ...s.transcript, failure: failure ?? undefined } }));
    },
    applyView(v) {
      const threads = get().transcript.summary?.threads ?? [];
      const { warnings: _w, ...shown } = restoreView(v, threads);
      const scroll = shown.message !== null && shown.message !== get().view.message;
      set((s) => ({ view: { ...s.view, ...shown } }));
      void get().transcriptActions.ensureRows(shown.thread);
      if (scroll && shown.message !== null) get().viewActions.selectMessage(shown.message, true);
    },
  },
}));

/** The rows of a thread, if fetched: own keys only, so a thread named `__proto__` or `constructor` reads as
 *  "not fetched yet" rather than as Object.prototype or a function. */
export function threadRows(s: AppState, thread = s.view.thread): readonly Row[] | undefined {
  return Object.hasOwn(s.transcript.rows, thread) ? s.transcript.rows[thread] : undefined;
}

/** What was on screen when a load started: a load that fails goes back to it (issue 27: a failed load leaves the
 *  current analysis on screen). */
type Before = AppState['transcript'];

/** Mark a load as started (the analysis on screen stays until the new one is ready); returns what was shown. */
function startLoading(source: LoadSource, grown = false): Before {
  const before = useStore.getState().transcript;
  useStore.setState((s) => ({
    transcript: {
      ...s.transcript,
      // A followed session that grew keeps showing what it showed while it is read again.
      status: grown ? s.transcript.status : 'loading',
      source: grown ? s.transcript.source : source,
      error: undefined,
      failure: undefined,
      progress: { phase: 'reading', fraction: 0 },
    },
  }));
  return before;
}

async function loadInputs(
  inputs: LoadFile[],
  source: LoadSource,
  restore?: Restore,
  grown = false,
  follow?: 'start' | 'grow',
  again: Omit<Opened, 'id' | 'source'> = { files: null, link: null },
): Promise<void> {
  const load = beginLoad();
  const before = startLoading(source, grown);
  const onProgress = loadProgress(load.ticket);
  let summary: Awaited<ReturnType<ReturnType<typeof engine>['load']>>;
  try {
    summary = await load.settles(
      engine().load(
        inputs,
        undefined,
        onProgress,
        useLoadLimits.getState(),
        follow,
        source.session,
        restore?.settings?.encoding ?? useStore.getState().config.lens.encoding,
      ),
    );
  } catch (e) {
    if (!isNewest(load.ticket)) return;
    // The engine stopped while loading (engine-status.ts offers a retry), or the input could not be sent.
    return failLoad(e instanceof Error ? e.message : String(e), source, before);
  }
  if (!isNewest(load.ticket)) return; // a newer load owns the page
  if (!summary.ok) return failLoad(summary.error, source, before, summary.issues);
  // A share file (`.tierscope.json` with settings and view) restores them like a link.
  if (grown) return showGrown(summary);
  const shared = summary.share
    ? { ...summary.share, doc: restore?.doc, view: restore?.view ?? summary.share.view }
    : restore;
  await showLoaded(summary, shared, restore?.settings !== undefined, again);
}

/** An input refused before it is read (over the file-size limit): the refusal is what the page shows, so a load
 *  started before it does not replace it. */
function refuseLoad(source: LoadSource, error: string): void {
  supersede();
  failLoad(error, source);
}

/** Load progress from the engine for load `ticket` (ignored once a newer load started); when exact counts
 *  arrive, the visible thread's rows are refetched. */
function loadProgress(ticket: number) {
  const set = useStore.setState;
  return progressProxy((p) => {
    if (!isNewest(ticket)) return;
    // A load's own phases arrive late after it failed (the analysis on screen stayed): not this screen's.
    if (p.phase !== 'counting' && useStore.getState().transcript.status !== 'loading') return;
    if (p.phase === 'counting' && p.fraction >= 1) {
      // Exact counts arrived: replace the estimated rows of the visible thread.
      set((s) => ({ transcript: { ...s.transcript, progress: undefined } }));
      void refreshRows();
      return;
    }
    set((s) => ({ transcript: { ...s.transcript, progress: p } }));
  });
}

/** A thread's rows from the engine; null if the engine stopped (engine-status.ts reports it, offers a retry). */
async function fetchRows(thread: string): Promise<readonly Row[] | null> {
  try {
    return Object.freeze(await engine().rows(thread, useStore.getState().config.encoding));
  } catch {
    return null;
  }
}

/** Swap the visible thread's rows for freshly counted ones in one step: the estimated rows stay on screen
 *  until then (clearing them first made the list empty, then mounted every row anew: two extra layouts of
 *  the page in the middle of a load). Other threads' rows are dropped and fetched again when shown. */
async function fetchFreshRows(): Promise<void> {
  const { summary } = useStore.getState().transcript;
  const thread = useStore.getState().view.thread;
  const encoding = useStore.getState().config.encoding;
  fetched = { summary, thread, encoding };
  const rows = await fetchRows(thread);
  const s = useStore.getState();
  if (!rows || s.transcript.summary !== summary) return; // another file loaded meanwhile
  const fresh: Record<string, readonly Row[]> = { [thread]: rows };
  useStore.setState({ transcript: { ...s.transcript, rows: fresh } });
  if (s.view.thread !== thread) void s.transcriptActions.ensureRows(s.view.thread);
}
/** What the last refresh fetched: asked again while it ran, it runs again unless it gave the shown thread of the
 *  file on screen in the encoding now, every row counted (one-at-a-time.ts). */
let fetched: { summary: unknown; thread: string; encoding: string } | undefined;
const refreshRows = oneAtATime(fetchFreshRows, () => {
  const st = useStore.getState();
  return (
    fetched === undefined ||
    st.transcript.summary !== fetched.summary ||
    st.config.encoding !== fetched.encoding ||
    st.view.thread !== fetched.thread ||
    threadRows(st, fetched.thread)?.some((r) => r.exact === false) === true
  );
});

/** A load failed. With an analysis on screen when it started, that analysis stays (its source, rows, run and view)
 *  and the failure is named beside it; with none, the error page says what failed. */
function failLoad(error: string, source: LoadSource, before?: Before, issues: AppState['transcript']['issues'] = []) {
  const kept = before ?? useStore.getState().transcript;
  if (kept.summary && (kept.status === 'ready' || kept.status === 'loading')) {
    useStore.setState({
      transcript: { ...kept, status: 'ready', progress: undefined, failure: { name: source.name, error, issues } },
    });
    return;
  }
  useStore.setState((s) => ({
    transcript: {
      ...s.transcript,
      status: 'error',
      source,
      error,
      issues,
      summary: undefined,
      rows: {},
      progress: undefined,
      failure: undefined,
    },
    run: { ...s.run, result: undefined, status: 'idle' },
    view: { ...s.view, message: null, request: null, event: null, compaction: null, probe: null, range: null },
  }));
}

/** The transcript once `summary` is on screen: ready, with its issues; rows are fetched again. */
function readyTranscript(t: AppState['transcript'], summary: LoadSummary): AppState['transcript'] {
  return { ...t, status: 'ready', summary, issues: summary.parseIssues, rows: {}, progress: undefined };
}

/** A followed session read again after it grew: the same settings, thread, selection and request (while they
 *  still exist), its rows fetched again and a new run. */
async function showGrown(summary: LoadSummary): Promise<void> {
  const s0 = useStore.getState();
  const { warnings: _w, ...kept } = restoreView(viewOf(s0.view, summary.threads), summary.threads);
  useStore.setState((s) => ({
    transcript: readyTranscript(s.transcript, summary),
    view: { ...s.view, ...kept },
  }));
  await useStore.getState().transcriptActions.ensureRows(kept.thread);
  useStore.getState().runActions.requestRun();
}

/** Show what loaded: the default thread and the log's own defaults, or the settings and view a link, share file
 *  or history entry restores (checked per field: what cannot be restored is listed in linkWarnings), or a sample's
 *  settings. The page URL follows (view-history.ts), so reloading shows what is on screen. */
async function showLoaded(
  summary: LoadSummary,
  restore: Restore | undefined,
  fromLink: boolean,
  again: Omit<Opened, 'id' | 'source'>,
): Promise<void> {
  const warnings = [...(restore?.warnings ?? [])];
  const from = restore?.settings
    ? fromLink
      ? ({ kind: 'link', name: 'share link' } as const)
      : ({ kind: 'share-file', name: summary.fileName } as const)
    : null;
  const { config, warnings: settingWarnings } = loadedConfig(
    useStore.getState().config,
    summary.defaults,
    restore,
    from,
  );
  for (const w of settingWarnings) warnings.push(w);
  const view = restore?.view ? restoreView(restore.view, summary.threads) : null;
  if (view) for (const w of view.warnings) warnings.push(w);
  const first = summary.threads.find((t) => t.kind === 'main') ?? summary.threads[0];
  const thread = view?.thread ?? first?.id ?? 'main';
  const { warnings: _w, ...shown } = view ?? restoreView(DEFAULT_VIEW, summary.threads);
  const id = restore?.doc ?? ++lastDoc;
  lastDoc = Math.max(lastDoc, id);
  useStore.setState((s) => ({
    transcript: {
      ...readyTranscript(s.transcript, summary),
      linkWarnings: restore ? warnings : undefined,
      doc: {
        id,
        source: s.transcript.source ?? { kind: 'file', name: summary.fileName },
        files: again.files,
        link: restore?.link ?? again.link,
      },
    },
    config,
    view: { ...s.view, ...shown, thread },
    // A new runId: a run of the previous file still in flight is dropped when it answers (it could otherwise
    // land in the debounce before this file's first run and be shown, and compared with, as this file's).
    run: { ...s.run, result: undefined, status: 'idle', runId: s.run.runId + 1 },
  }));
  if (first || view) await useStore.getState().transcriptActions.ensureRows(thread);
  if (view?.message != null) scrollOnceShown(summary, view.message);
  useStore.getState().runActions.requestRun();
}

/** Scroll a restored selection into view once the first run is shown (the rows have rendered by then). */
function scrollOnceShown(summary: LoadSummary, index: number): void {
  const unsubscribe = useStore.subscribe((s) => {
    if (s.transcript.summary !== summary) return unsubscribe();
    if (s.run.status !== 'ready' && s.run.status !== 'error') return;
    unsubscribe();
    if (s.view.message === index) s.viewActions.selectMessage(index, true);
  });
}

async function doRun(): Promise<void> {
  const st = useStore.getState();
  if (st.transcript.status !== 'ready') return;
  const runId = st.run.runId + 1;
  useStore.setState((s) => ({ run: { ...s.run, runId, status: 'running' } }));
  const { preset, config, mode, provider, encoding } = st.config;
  try {
    const result = await engine().run(runId, { preset, config, mode, provider, encoding });
    if (result.stale || result.runId !== useStore.getState().run.runId) return;
    useStore.setState((s) => ({ run: { ...s.run, status: 'ready', result: Object.freeze(result), error: undefined } }));
    // The run counted every block in its encoding: rows still estimated (another encoding than the load's) are
    // fetched again, so a row's tokens are the run's.
    const shown = useStore.getState();
    if (threadRows(shown, shown.view.thread)?.some((r) => r.exact === false)) void refreshRows();
  } catch (e) {
    if (runId !== useStore.getState().run.runId) return;
    useStore.setState((s) => ({
      run: { ...s.run, status: 'error', error: e instanceof Error ? e.message : String(e) },
    }));
  }
}
