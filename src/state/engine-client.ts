// The main thread's handle on the engine worker (comlink). Big replies are held by the worker and
// fetched part by part (src/protocol/wire.ts); each part is parsed in its own task, so the page stays
// responsive while a large result arrives. Callers see the plain EngineApi. Callbacks cross as proxies.
import { proxy, type Remote, wrap } from 'comlink';
import type { EngineApi, HeldReply, LoadProgress, Row, RunResult, StaleRun, WireEngineApi } from '../protocol/index.ts';
import { fetchHeld } from '../protocol/wire.ts';
import { type EngineStopped, guarded, type Watch, watchWorker } from './engine-watch.ts';

type Client = Pick<
  EngineApi,
  | 'load'
  | 'rows'
  | 'run'
  | 'counted'
  | 'detail'
  | 'point'
  | 'notes'
  | 'eventRows'
  | 'findEvent'
  | 'diff'
  | 'report'
  | 'compaction'
  | 'refetchesOf'
  | 'presetTasks'
  | 'modelProbes'
  | 'gradeModelProbes'
  | 'exportBundle'
  | 'share'
  | 'shareFile'
  | 'minimize'
  | 'cancelMinimize'
  | 'openShare'
  | 'summaryCalls'
  | 'fillSummaries'
  | 'clearSummaries'
  | 'scanFolder'
  | 'cancelScan'
  | 'cancelLoad'
  | 'sessions'
>;

let client: Client | undefined;
let worker: Worker | undefined;
let watch: Watch | undefined;
const stopListeners = new Set<(e: EngineStopped) => void>();

/** Be told when the engine worker stops (crash, out of memory, closed): see engine-watch.ts. */
export function onEngineStopped(fn: (e: EngineStopped) => void): () => void {
  stopListeners.add(fn);
  return () => stopListeners.delete(fn);
}

async function fetchParts<T>(remote: Remote<WireEngineApi>, held: HeldReply): Promise<T> {
  return (await fetchHeld<T>(remote, held)) as T;
}

/** The newest run asked for: an older run's reply is stale for the page (store.ts drops it), so its parts are
 *  dropped in the worker instead of fetched and parsed (a fast drag overtakes runs). */
let newestRun = 0;

export function engine(): Client {
  if (!client) {
    worker = new Worker(new URL('../../worker/engine.worker.ts', import.meta.url), { type: 'module', name: 'engine' });
    const raw: Remote<WireEngineApi> = wrap<WireEngineApi>(worker);
    watch = watchWorker(
      worker,
      (name) => raw.hold(name),
      (e) => {
        for (const fn of stopListeners) fn(e);
      },
    );
    // A call to a stopped worker rejects with EngineStopped instead of waiting forever.
    const remote = guarded(raw, watch.dead);
    client = {
      load: (files, format, onProgress, limits, follow, session, encoding) =>
        remote.load(files, format, onProgress, limits, follow, session, encoding),
      rows: async (thread, encoding) => fetchParts<Row[]>(remote, await remote.rows(thread, encoding)),
      run: async (runId, settings, onProgress) => {
        newestRun = Math.max(newestRun, runId);
        const held = await remote.run(runId, settings, onProgress);
        const r = await fetchHeld<RunResult | StaleRun>(remote, held, () => runId >= newestRun);
        return r ?? { runId, stale: true };
      },
      counted: () => remote.counted(),
      detail: (thread, index) => remote.detail(thread, index),
      point: (runId, k) => remote.point(runId, k),
      notes: (runId, thread, from, to, only) => remote.notes(runId, thread, from, to, only),
      eventRows: (runId, ids) => remote.eventRows(runId, ids),
      findEvent: (runId, like) => remote.findEvent(runId, like),
      diff: (id) => remote.diff(id),
      report: () => remote.report(),
      compaction: (id) => remote.compaction(id),
      refetchesOf: (ids) => remote.refetchesOf(ids),
      presetTasks: () => remote.presetTasks(),
      modelProbes: (id) => remote.modelProbes(id),
      gradeModelProbes: (id, answers) => remote.gradeModelProbes(id, answers),
      exportBundle: () => remote.exportBundle(),
      share: (req) => remote.share(req),
      shareFile: (req) => remote.shareFile(req),
      minimize: (token, req, onProgress) => remote.minimize(token, req, onProgress ? proxy(onProgress) : undefined),
      cancelMinimize: (token) => remote.cancelMinimize(token),
      openShare: (link, onProgress) => remote.openShare(link, onProgress),
      summaryCalls: () => remote.summaryCalls(),
      fillSummaries: (answers) => remote.fillSummaries(answers),
      clearSummaries: (onlyFailures) => remote.clearSummaries(onlyFailures),
      scanFolder: (token, files, root, onProgress) =>
        remote.scanFolder(token, files, root, onProgress ? proxy(onProgress) : undefined),
      cancelScan: (token) => remote.cancelScan(token),
      cancelLoad: () => remote.cancelLoad(),
      sessions: (query) => remote.sessions(query),
    };
  }
  return client;
}

/** Kill the worker (after a crash or out-of-memory) so the next call starts a fresh one. */
export function resetEngine(): void {
  watch?.retire();
  watch = undefined;
  worker?.terminate();
  worker = undefined;
  client = undefined;
}

export function progressProxy(fn: (p: LoadProgress) => void): (p: LoadProgress) => void {
  return proxy(fn);
}
