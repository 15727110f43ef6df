// Browser transport for the counting pool: module workers created from the engine worker.
import type { CountEndpoint, CountReply, CountRequest } from '../src/tokens/count-pool.ts';

export function browserEndpoints(n: number): CountEndpoint[] {
  return Array.from({ length: n }, () => {
    const w = new Worker(new URL('./count.worker.ts', import.meta.url), { type: 'module', name: 'tokens' });
    const waiting = new Map<number, (r: CountReply) => void>();
    w.onmessage = (e: MessageEvent<CountReply>) => {
      waiting.get(e.data.id)?.(e.data);
      waiting.delete(e.data.id);
    };
    return {
      count(req: CountRequest) {
        return new Promise<CountReply>((resolve) => {
          waiting.set(req.id, resolve);
          w.postMessage(req, [req.packed.bytes.buffer as ArrayBuffer, req.packed.offsets.buffer as ArrayBuffer]);
        });
      },
      close() {
        w.terminate();
      },
    };
  });
}
