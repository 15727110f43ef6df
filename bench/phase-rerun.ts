// Bench phase: re-run latency after a threshold change with tokens cached — exactly what the worker does
// when a slider moves (engine.run: replay, timelines, report, the view's timeline). Each threshold value
// is seen once before timing ("tokens cached": the texts the pipeline makes for it are counted then);
// p50/p95 over alternating values. Also reports the cold latency of first-time values. Prints JSON.
import { presetConfig } from '../src/pipeline/presets.ts';
import type { RunResult } from '../worker/api.ts';
import { createEngine } from '../worker/create-engine.ts';
import { loadLog } from './load-log.ts';
import { nodeEndpoints } from './node-pool.ts';

const [file, runs = '20'] = process.argv.slice(2);
const engine = createEngine({ endpoints: () => nodeEndpoints(2) });
const loaded = await loadLog(engine, file);
const values = [6, 10, 7, 12, 5, 9, 8, 11];
let runId = 0;
const run = async (w: number) => {
  const t0 = performance.now();
  const r = (await engine.run(++runId, {
    preset: 'seeds',
    config: { ...presetConfig('seeds'), tier3Window: w },
    mode: 'recorded',
    provider: 'anthropic',
    encoding: 'o200k_base',
  })) as RunResult;
  if (r.stale) throw new Error('stale');
  return performance.now() - t0;
};
const cold: number[] = [];
await run(8); // first run of the session: not a re-run
for (const v of values) cold.push(await run(v));
const times: number[] = [];
for (let i = 0; i < Number(runs); i++) times.push(await run(values[i % values.length]));
/** Nearest-rank percentile: the smallest sample with at least p of the samples at or below it. */
const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil(p * xs.length) - 1)];
console.log(
  JSON.stringify({
    requests: loaded.counts.requests,
    messages: loaded.counts.messages,
    runs: times.length,
    percentiles: 'nearest-rank',
    p50Ms: q(times, 0.5),
    p95Ms: q(times, 0.95),
    maxMs: Math.max(...times),
    coldP50Ms: q(cold, 0.5),
    coldMaxMs: Math.max(...cold),
  }),
);
process.exit(0);
