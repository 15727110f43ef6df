// Exact token counts for many texts, spread over a pool of workers (issue 5): texts are deduplicated,
// packed into transferable UTF-8 batches, counted by BpeCounter in each worker and returned as compact
// Uint32Arrays, largest-first so the pool stays balanced; progress is reported per batch. Hosts supply
// the transport (browser Worker, node:worker_threads, or inline for tests and single-core machines).
import type { BpeCounter } from './bpe.ts';
import { BY_LINES, forEachLineUnit } from './line-units.ts';
import { type Packed, packTexts, unpackTexts } from './pack.ts';
import type { EncodingName } from './tokenizer.ts';

export type CountRequest = { id: number; encoding: EncodingName; packed: Packed };
/** `units[unitStarts[i] .. unitStarts[i + 1])`: the counts of text i's line units (line-units.ts) when it is at
 *  least BY_LINES long (its count is their sum, as the engine's own tokenizer counts it), else none. */
export type CountReply = { id: number; counts: Uint32Array; units: Uint32Array; unitStarts: Uint32Array; ms: number };

/** A worker-like endpoint that counts one packed batch. */
export interface CountEndpoint {
  count(req: CountRequest): Promise<CountReply>;
  close(): void;
}

/** Counts a packed batch with a counter (what each worker runs). */
export function countPacked(counter: BpeCounter, req: CountRequest): CountReply {
  const t0 = performance.now();
  const texts = unpackTexts(req.packed);
  const counts = new Uint32Array(texts.length);
  const unitStarts = new Uint32Array(texts.length + 1);
  const units: number[] = [];
  for (let i = 0; i < texts.length; i++) {
    unitStarts[i] = units.length;
    const text = texts[i];
    if (text.length < BY_LINES) {
      counts[i] = counter.count(text);
      continue;
    }
    let n = 0;
    forEachLineUnit(text, (part) => {
      const k = counter.count(part);
      units.push(k);
      n += k;
    });
    counts[i] = n;
  }
  unitStarts[texts.length] = units.length;
  return { id: req.id, counts, units: Uint32Array.from(units), unitStarts, ms: performance.now() - t0 };
}

/** The buffers a reply transfers. */
export function replyTransfer(r: CountReply): ArrayBuffer[] {
  return [r.counts.buffer, r.units.buffer, r.unitStarts.buffer] as ArrayBuffer[];
}

/** An in-thread endpoint (tests, hosts without workers). */
export function inlineEndpoint(counter: () => Promise<BpeCounter>): CountEndpoint {
  return {
    async count(req) {
      const c = await counter();
      // yield so progress callbacks and other messages get a turn between batches
      await new Promise((r) => setTimeout(r, 0));
      return countPacked(c, req);
    },
    close() {},
  };
}

export type PoolProgress = { done: number; total: number; chars: number; totalChars: number };

const BATCH_CHARS = 1 << 20;

/**
 * Count `texts` on `endpoints`; returns counts aligned with `texts`. Equal strings are counted once.
 * `onBatch` receives each finished batch (indices into `texts` and their counts) for progressive use.
 */
export async function countAll(
  texts: readonly string[],
  encoding: EncodingName,
  endpoints: readonly CountEndpoint[],
  onProgress?: (p: PoolProgress) => void,
  onBatch?: (indices: readonly number[], counts: Uint32Array) => void,
  onUnits?: (index: number, units: Uint32Array) => void,
): Promise<Uint32Array> {
  const out = new Uint32Array(texts.length);
  const firstIndex = new Map<string, number>();
  const unique: number[] = [];
  const dupOf = new Int32Array(texts.length).fill(-1);
  texts.forEach((t, i) => {
    const f = firstIndex.get(t);
    if (f === undefined) {
      firstIndex.set(t, i);
      unique.push(i);
    } else dupOf[i] = f;
  });
  // batches of ~1M chars, biggest texts first so long pieces do not end up last on one worker
  unique.sort((a, b) => texts[b].length - texts[a].length);
  const batches: number[][] = [];
  let cur: number[] = [];
  let size = 0;
  for (const i of unique) {
    cur.push(i);
    size += texts[i].length;
    if (size >= BATCH_CHARS) {
      batches.push(cur);
      cur = [];
      size = 0;
    }
  }
  if (cur.length > 0) batches.push(cur);
  const totalChars = unique.reduce((n, i) => n + texts[i].length, 0);
  let doneChars = 0;
  let done = 0;
  let next = 0;
  const work = async (ep: CountEndpoint) => {
    while (next < batches.length) {
      const id = next++;
      const batch = batches[id];
      const reply = await ep.count({ id, encoding, packed: packTexts(batch.map((i) => texts[i])) });
      batch.forEach((i, k) => {
        out[i] = reply.counts[k];
        const from = reply.unitStarts[k];
        const to = reply.unitStarts[k + 1];
        if (onUnits && to > from) onUnits(i, reply.units.subarray(from, to));
      });
      done++;
      doneChars += batch.reduce((n, i) => n + texts[i].length, 0);
      onBatch?.(batch, reply.counts);
      onProgress?.({ done, total: batches.length, chars: doneChars, totalChars });
    }
  };
  await Promise.all(endpoints.map(work));
  for (let i = 0; i < texts.length; i++) if (dupOf[i] >= 0) out[i] = out[dupOf[i]];
  return out;
}
