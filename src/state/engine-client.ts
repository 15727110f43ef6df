// The main thread's handle on the engine: a comlink proxy to the worker, or (where workers are not
// available) the same engine in-thread. Callbacks cross as comlink proxies.
import { proxy, type Remote, wrap } from 'comlink';
import type { EngineApi, LoadProgress } from '../../worker/api.ts';

let remote: Remote<EngineApi> | undefined;
let worker: Worker | undefined;

export function engine(): Remote<EngineApi> {
  if (!remote) {
    worker = new Worker(new URL('../../worker/engine.worker.ts', import.meta.url), { type: 'module', name: 'engine' });
    remote = wrap<EngineApi>(worker);
  }
  return remote;
}

/** Kill the worker (after a crash or out-of-memory) so the next call starts a fresh one. */
export function resetEngine(): void {
  worker?.terminate();
  worker = undefined;
  remote = undefined;
}

export function progressProxy(fn: (p: LoadProgress) => void): (p: LoadProgress) => void {
  return proxy(fn);
}
