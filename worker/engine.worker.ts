// The engine worker: exposes createEngine() over comlink with a pool of token-counting workers.
import { expose } from 'comlink';
import { browserEndpoints } from './browser-pool.ts';
import { createEngine } from './create-engine.ts';

const cores = typeof navigator !== 'undefined' && navigator.hardwareConcurrency ? navigator.hardwareConcurrency : 2;
expose(createEngine({ endpoints: () => browserEndpoints(Math.max(1, Math.min(4, cores))) }));
