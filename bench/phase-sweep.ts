// Bench phase: re-run latency the way a slider is dragged (issue 14, SPEC §9): every timed run uses a value of
// its key that no earlier run of the session has used (first-seen), sweeping tier3Window, tier2Cap,
// triggerRatio and contextWindow in turn, then the same with the microcompact-on `claude-code` preset.
// Repeats of already-seen values are timed beside, never instead. Exactly what the worker does when a slider
// moves (engine.run: replay, timelines, report, the view's timeline). Prints JSON.
import type { PipelineConfig } from '../src/pipeline/config.ts';
import { type PresetId, presetConfig } from '../src/pipeline/presets.ts';
import type { RunResult } from '../worker/api.ts';
import { createEngine } from '../worker/create-engine.ts';
import { loadLog } from './load-log.ts';
import { nodeEndpoints } from './node-pool.ts';

/** `only`: run one sweep (`seeds.contextWindow`), for profiling. */
const [file, perKey = '12', only] = process.argv.slice(2);
const engine = createEngine({ endpoints: () => nodeEndpoints(2) });
const loaded = await loadLog(engine, file);

let runId = 0;
async function run(preset: PresetId, set: Partial<PipelineConfig>): Promise<number> {
  const t0 = performance.now();
  const r = (await engine.run(++runId, {
    preset,
    config: { ...presetConfig(preset), ...set },
    mode: 'recorded',
    provider: 'anthropic',
    encoding: 'o200k_base',
  })) as RunResult;
  if (r.stale) throw new Error('stale');
  return performance.now() - t0;
}

/** n first-seen values per key, as a drag would produce them (neighbouring, never repeated). */
const n = Number(perKey);
const sweeps: [keyof PipelineConfig, (i: number) => number][] = [
  ['tier3Window', (i) => 4 + i],
  ['tier2Cap', (i) => 150 + 25 * i],
  ['triggerRatio', (i) => 0.5 + 0.02 * i],
  // Windows of real models and the range between (a drag across the slider): 64k to 196k.
  ['contextWindow', (i) => 64_000 + 12_000 * i],
];

const first: number[] = [];
const repeats: number[] = [];
const byKey: Record<string, number[]> = {};
for (const preset of ['seeds', 'claude-code'] as PresetId[]) {
  await run(preset, {}); // the preset's first run: a load, not a re-run
  for (const [key, value] of sweeps) {
    if (only && only !== `${preset}.${key}`) continue;
    const times: number[] = [];
    for (let i = 0; i < n; i++) times.push(await run(preset, { [key]: value(i) }));
    byKey[`${preset}.${key}`] = times;
    first.push(...times);
    for (let i = 0; i < 3; i++) repeats.push(await run(preset, { [key]: value(i) }));
  }
}
/** Nearest-rank percentile: the smallest sample with at least p of the samples at or below it. */
const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil(p * xs.length) - 1)];
console.log(
  JSON.stringify({
    requests: loaded.counts.requests,
    messages: loaded.counts.messages,
    firstSeenRuns: first.length,
    percentiles: 'nearest-rank',
    p50Ms: Math.round(q(first, 0.5)),
    p95Ms: Math.round(q(first, 0.95)),
    maxMs: Math.round(Math.max(...first)),
    ...(process.env.SWEEP_TIMES
      ? { byKeyMs: Object.fromEntries(Object.entries(byKey).map(([k, xs]) => [k, xs.map(Math.round)])) }
      : {}),
    byKeyP95Ms: Object.fromEntries(Object.entries(byKey).map(([k, xs]) => [k, Math.round(q(xs, 0.95))])),
    repeatP50Ms: Math.round(q(repeats, 0.5)),
    repeatP95Ms: Math.round(q(repeats, 0.95)),
  }),
);
process.exit(0);
