// node:worker_threads transport for the counting pool (bench): one worker per endpoint, TS via tsx.
import { Worker } from 'node:worker_threads';
import type { CountEndpoint, CountReply, CountRequest } from '../src/tokens/count-pool.ts';

export function nodeEndpoints(n: number): CountEndpoint[] {
  return Array.from({ length: n }, () => {
    const w = new Worker(new URL('./count-worker-node.mjs', import.meta.url));
    const waiting = new Map<number, (r: CountReply) => void>();
    w.on('message', (r: CountReply) => {
      waiting.get(r.id)?.(r);
      waiting.delete(r.id);
    });
    return {
      count(req: CountRequest) {
        return new Promise<CountReply>((resolve) => {
          waiting.set(req.id, resolve);
          w.postMessage(req, [req.packed.bytes.buffer as ArrayBuffer, req.packed.offsets.buffer as ArrayBuffer]);
        });
      },
      close() {
        void w.terminate();
      },
    };
  });
}
