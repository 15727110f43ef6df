// The main thread's handle on the engine worker (comlink). Big replies are held by the worker and
// fetched part by part (worker/wire.ts); each part is parsed in its own task, so the page stays
// responsive while a large result arrives. Callers see the plain EngineApi. Callbacks cross as proxies.
import { proxy, type Remote, wrap } from 'comlink';
import type { EngineApi, HeldReply, LoadProgress, Row, RunResult, StaleRun, WireEngineApi } from '../../worker/api.ts';
import { mergePart, unpackJson } from '../../worker/wire.ts';

type Client = Pick<EngineApi, 'load' | 'rows' | 'run' | 'counted' | 'detail' | 'diff' | 'report' | 'exportBundle'>;

let client: Client | undefined;
let worker: Worker | undefined;

async function fetchParts<T>(remote: Remote<WireEngineApi>, held: HeldReply): Promise<T> {
  let acc: unknown;
  for (let k = 0; k < held.plan.length; k++)
    acc = mergePart(acc, held.plan, k, unpackJson(await remote.part(held.id, k)));
  return acc as T;
}

export function engine(): Client {
  if (!client) {
    worker = new Worker(new URL('../../worker/engine.worker.ts', import.meta.url), { type: 'module', name: 'engine' });
    const remote: Remote<WireEngineApi> = wrap<WireEngineApi>(worker);
    client = {
      load: (files, format, onProgress) => remote.load(files, format, onProgress),
      rows: async (thread) => fetchParts<Row[]>(remote, await remote.rows(thread)),
      run: async (runId, settings, onProgress) =>
        fetchParts<RunResult | StaleRun>(remote, await remote.run(runId, settings, onProgress)),
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
