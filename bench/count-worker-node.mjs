// Bootstrap for node:worker_threads: register tsx, then load the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./count-worker-node.ts');
