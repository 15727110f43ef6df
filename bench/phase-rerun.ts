// Bench phase: re-run latency after a threshold change with tokens cached — what the worker does when a
// slider moves (replay + timelines + report). p50/p95 over alternating tier3Window values. Prints JSON.
import { analyze } from '../src/analyses/analyze.ts';
import { fileFromPath } from '../src/cli/node-input.ts';
import { parseTranscript } from '../src/formats/index.ts';
import { presetConfig } from '../src/pipeline/presets.ts';
import { calibrateTranscript } from '../src/replay/transcript.ts';
import { countTranscript } from '../src/tokens/count-transcript.ts';
import { TokenMeter } from '../src/tokens/meter.ts';
import { createTokenizer } from '../src/tokens/tokenizer.ts';
import { nodeEndpoints } from './node-pool.ts';

const [file, runs = '20', window = '200000'] = process.argv.slice(2);
const r = parseTranscript(fileFromPath(file));
if (!r.ok) throw new Error(r.error);
const tok = await createTokenizer();
const meter = new TokenMeter(tok);
await countTranscript(r.transcript, meter, 'o200k_base', () => nodeEndpoints(2));
const cals = calibrateTranscript(r.transcript, meter);
const base = { ...presetConfig('seeds'), contextWindow: Number(window) };
const run = (w: number) => {
  const t0 = performance.now();
  analyze(r.transcript, {
    config: { ...base, tier3Window: w },
    preset: 'seeds',
    mode: 'recorded',
    provider: 'anthropic',
    tokenizer: tok,
    meter,
    calibrations: cals,
  });
  return performance.now() - t0;
};
run(8); // the first run counts pipeline-made texts (stubs, previews): not a re-run
const times: number[] = [];
const values = [6, 10, 7, 12, 5, 9, 8, 11];
for (let i = 0; i < Number(runs); i++) times.push(run(values[i % values.length]));
times.sort((a, b) => a - b);
const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))];
let messages = 0;
let requests = 0;
for (const th of r.transcript.threads) {
  messages += th.messages.length;
  requests += th.requests.length;
}
console.log(
  JSON.stringify({
    requests,
    messages,
    runs: times.length,
    p50Ms: q(0.5),
    p95Ms: q(0.95),
    maxMs: times[times.length - 1],
  }),
);
