// Bench phase: load a log (time to structure), count it exactly on a pool of worker threads (time to
// exact counts), sample peak RSS (main thread + workers live in this process). Prints JSON.
import { fileFromPath } from '../src/cli/node-input.ts';
import { parseTranscript } from '../src/formats/index.ts';
import { countTranscript } from '../src/tokens/count-transcript.ts';
import { TokenMeter } from '../src/tokens/meter.ts';
import { createTokenizer } from '../src/tokens/tokenizer.ts';
import { nodeEndpoints } from './node-pool.ts';

const [file, workers = '2'] = process.argv.slice(2);
let peak = 0;
const sample = () => {
  peak = Math.max(peak, process.memoryUsage().rss);
};
const timer = setInterval(sample, 25);
const t0 = performance.now();
const r = parseTranscript(fileFromPath(file));
if (!r.ok) throw new Error(r.error);
const structureMs = performance.now() - t0;
sample();
const meter = new TokenMeter(await createTokenizer());
const stats = await countTranscript(r.transcript, meter, 'o200k_base', () => nodeEndpoints(Number(workers)));
const exactMs = performance.now() - t0;
let tokens = 0;
let messages = 0;
let requests = 0;
for (const th of r.transcript.threads) {
  requests += th.requests.length;
  for (const m of th.messages) {
    tokens += meter.message(m);
    messages++;
  }
}
sample();
clearInterval(timer);
console.log(
  JSON.stringify({
    structureMs,
    exactMs,
    countMs: stats.ms,
    chars: stats.chars,
    texts: stats.texts,
    tokens,
    messages,
    requests,
    threads: r.transcript.threads.length,
    peakRssMB: peak / 1e6,
    workers: Number(workers),
  }),
);
