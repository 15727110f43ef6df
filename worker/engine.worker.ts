// The engine worker: exposes createEngine() over comlink with a pool of token-counting workers; the big
// replies (rows, run results) go out as transferred JSON buffers (worker/wire.ts).
import { expose, transfer } from 'comlink';
import type { WireEngineApi } from './api.ts';
import { browserEndpoints } from './browser-pool.ts';
import { createEngine } from './create-engine.ts';
import { packJson } from './wire.ts';

const cores = typeof navigator !== 'undefined' && navigator.hardwareConcurrency ? navigator.hardwareConcurrency : 2;
const engine = createEngine({ endpoints: () => browserEndpoints(Math.max(1, Math.min(4, cores))) });

const packed = (value: unknown) => {
  const p = packJson(value);
  return transfer(p, [p.bytes.buffer as ArrayBuffer]);
};

const wire: WireEngineApi = {
  ...engine,
  rows: async (thread) => packed(await engine.rows(thread)),
  run: async (runId, settings, onProgress) => packed(await engine.run(runId, settings, onProgress)),
};

expose(wire);
