// A token-counting worker of the pool: receives packed batches, answers Uint32Array counts (transferred).
import { type CountRequest, countPacked, replyTransfer } from '../src/tokens/count-pool.ts';
import { loadCounter } from '../src/tokens/tokenizer.ts';

self.onmessage = async (e: MessageEvent<CountRequest>) => {
  const reply = countPacked(await loadCounter(e.data.encoding), e.data);
  (self as unknown as Worker).postMessage(reply, replyTransfer(reply));
};
