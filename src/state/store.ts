// The one zustand store, composed from slices (transcript, run, config, view). Loading and running go
// through the engine client; every config change schedules a debounced re-run whose stale replies are
// dropped, so the UI stays responsive while the worker computes.
import { transfer } from 'comlink';
import { create } from 'zustand';
import { ConfigError, checkValue, type PipelineConfig } from '../pipeline/config.ts';
import { presetConfig } from '../pipeline/presets.ts';
import { engine, progressProxy } from './engine-client.ts';
import type { AppState, LoadSource } from './types.ts';

const RUN_DEBOUNCE_MS = 50;
let runTimer: ReturnType<typeof setTimeout> | undefined;

function setPath(o: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const [head, ...rest] = key.split('.');
  if (rest.length === 0) return { ...o, [head]: value };
  return { ...o, [head]: setPath((o[head] as Record<string, unknown>) ?? {}, rest.join('.'), value) };
}

export const useStore = create<AppState>()((set, get) => ({
  transcript: { status: 'idle', issues: [], rows: {} },
  run: { status: 'idle', runId: 0 },
  config: {
    preset: 'seeds',
    config: presetConfig('seeds'),
    mode: 'recorded',
    provider: 'anthropic',
    encoding: 'o200k_base',
  },
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
    pricePerMtok: 3,
  },

  transcriptActions: {
    async loadFiles(files: File[], source?: LoadSource) {
      const buffers = await Promise.all(files.map(async (f) => ({ name: f.name, buffer: await f.arrayBuffer() })));
      await loadBuffers(buffers, source ?? { kind: 'file', name: files[0]?.name ?? 'file' });
    },
    async loadText(name: string, text: string, source?: LoadSource) {
      const buffer = new TextEncoder().encode(text).buffer as ArrayBuffer;
      await loadBuffers([{ name, buffer }], source ?? { kind: 'paste', name });
    },
    async loadUrl(url: string, source?: LoadSource) {
      set((s) => ({
        transcript: {
          ...s.transcript,
          status: 'loading',
          progress: { phase: 'reading', fraction: 0 },
          error: undefined,
        },
      }));
      try {
        const res = await fetch(url);
        if (!res.ok) throw new Error(`${res.status} ${res.statusText}`);
        const buffer = await res.arrayBuffer();
        const name = decodeURIComponent(url.split('/').pop() ?? url);
        await loadBuffers([{ name, buffer }], source ?? { kind: 'url', name });
      } catch (e) {
        set((s) => ({
          transcript: {
            ...s.transcript,
            status: 'error',
            error: `Could not fetch ${url}: ${e instanceof Error ? e.message : String(e)}`,
            issues: [],
            summary: undefined,
            rows: {},
          },
          run: { ...s.run, result: undefined, status: 'idle' },
          view: { ...s.view, message: null, request: null, event: null },
        }));
      }
    },
    async ensureRows(thread: string) {
      if (get().transcript.rows[thread]) return;
      const rows = Object.freeze(await engine().rows(thread));
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
      set((s) => ({ config: { ...s.config, preset: p, config: presetConfig(p) } }));
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
      set((s) => ({ config: { ...s.config, mode: m } }));
      get().runActions.requestRun();
    },
    setProvider(p) {
      set((s) => ({ config: { ...s.config, provider: p } }));
      get().runActions.requestRun();
    },
    setEncoding(e) {
      set((s) => ({ config: { ...s.config, encoding: e } }));
      get().runActions.requestRun();
    },
  },

  viewActions: {
    setThread(id) {
      set((s) => ({ view: { ...s.view, thread: id, message: null, request: null, event: null } }));
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
    setPrice(p) {
      set((s) => ({ view: { ...s.view, pricePerMtok: p } }));
    },
  },
}));

async function loadBuffers(buffers: { name: string; buffer: ArrayBuffer }[], source: LoadSource): Promise<void> {
  const set = useStore.setState;
  set((s) => ({
    transcript: {
      ...s.transcript,
      status: 'loading',
      source,
      error: undefined,
      progress: { phase: 'reading', fraction: 0 },
    },
  }));
  const onProgress = progressProxy((p) => {
    if (p.phase === 'counting' && p.fraction >= 1) {
      // Exact counts arrived: replace the estimated rows of the visible thread.
      set((s) => ({ transcript: { ...s.transcript, progress: undefined, rows: {} } }));
      void useStore.getState().transcriptActions.ensureRows(useStore.getState().view.thread);
      return;
    }
    set((s) => ({ transcript: { ...s.transcript, progress: p } }));
  });
  const summary = await engine().load(
    transfer(
      buffers,
      buffers.map((b) => b.buffer),
    ),
    undefined,
    onProgress,
  );
  if (!summary.ok) {
    set((s) => ({
      transcript: {
        ...s.transcript,
        status: 'error',
        error: summary.error,
        issues: summary.issues,
        summary: undefined,
        rows: {},
      },
      // Nothing is shown of the previous file once a load fails (the error says what happened).
      run: { ...s.run, result: undefined, status: 'idle' },
      view: { ...s.view, message: null, request: null, event: null },
    }));
    return;
  }
  const first = summary.threads.find((t) => t.kind === 'main') ?? summary.threads[0];
  set((s) => ({
    transcript: {
      ...s.transcript,
      status: 'ready',
      summary,
      issues: summary.parseIssues,
      rows: {},
      progress: undefined,
    },
    view: { ...s.view, thread: first?.id ?? 'main', message: null, request: null, event: null },
    run: { ...s.run, result: undefined, status: 'idle' },
  }));
  if (first) await useStore.getState().transcriptActions.ensureRows(first.id);
  useStore.getState().runActions.requestRun();
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
  } catch (e) {
    if (runId !== useStore.getState().run.runId) return;
    useStore.setState((s) => ({
      run: { ...s.run, status: 'error', error: e instanceof Error ? e.message : String(e) },
    }));
  }
}
