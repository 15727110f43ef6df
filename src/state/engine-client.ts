// The main thread's handle on the engine worker (comlink). The worker packs its big replies as JSON
// buffers (worker/wire.ts); this client unpacks them so callers see the plain EngineApi. Callbacks cross
// as comlink proxies.
import { proxy, type Remote, wrap } from 'comlink';
import type { EngineApi, LoadProgress, Row, RunResult, StaleRun, WireEngineApi } from '../../worker/api.ts';
import { unpackJson } from '../../worker/wire.ts';

type Client = Pick<EngineApi, 'load' | 'rows' | 'run' | 'counted' | 'detail' | 'diff' | 'report' | 'exportBundle'>;

let client: Client | undefined;
let worker: Worker | undefined;

export function engine(): Client {
  if (!client) {
    worker = new Worker(new URL('../../worker/engine.worker.ts', import.meta.url), { type: 'module', name: 'engine' });
    const remote: Remote<WireEngineApi> = wrap<WireEngineApi>(worker);
    client = {
      load: (files, format, onProgress) => remote.load(files, format, onProgress),
      rows: async (thread) => unpackJson<Row[]>(await remote.rows(thread)),
      run: async (runId, settings, onProgress) => unpackJson<RunResult | StaleRun>(await remote.run(runId, settings, onProgress)),
      counted: () => remote.counted(),
      detail: (thread, index) => remote.detail(thread, index),
      diff: (id) => remote.diff(id),
      report: () => remote.report(),
      exportBundle: () => remote.exportBundle(),
    };
  }
  return client;
}

/** Kill the worker (after a crash or out-of-memory) so the next call starts a fresh one. */
export function resetEngine(): void {
  worker?.terminate();
  worker = undefined;
  client = undefined;
}

export function progressProxy(fn: (p: LoadProgress) => void): (p: LoadProgress) => void {
  return proxy(fn);
}
