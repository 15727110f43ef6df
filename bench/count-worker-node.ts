// node:worker_threads counterpart of worker/count.worker.ts (bench and CLI).
import { parentPort } from 'node:worker_threads';
import { type CountRequest, countPacked, replyTransfer } from '../src/tokens/count-pool.ts';
import { loadCounter } from '../src/tokens/tokenizer.ts';

parentPort?.on('message', async (req: CountRequest) => {
  const reply = countPacked(await loadCounter(req.encoding), req);
  parentPort?.postMessage(reply, replyTransfer(reply));
});
