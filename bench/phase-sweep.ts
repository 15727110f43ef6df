// Bench phase: re-run latency the way a slider is dragged (issue 14, SPEC §9): every timed run uses a value of
// its key that no earlier run of the session has used (first-seen), stepping away from where the drag starts —
// the tier and trigger keys with `seeds`, then the window, the trigger buffer and microcompact's keepRecent with
// the microcompact-on `claude-code` preset. Repeats of seen values and two jumps (a click far along a slider, on a
// fresh cache) are reported beside, never instead. Exactly what the worker does when a slider moves (engine.run:
// replay, timelines, report, the view's timeline; then the reply cut into the wire's parts the page fetches, and
// what the page asks for next to draw its default view: the notes of the transcript rows on screen, a 64-message
// window — engine.run alone and the wire with that ask are reported beside). `hard` (issue 30): the drags start where the pipeline acts —
// `seeds` with the trigger at 0.6 of the window, which one long thread crosses — and every key is reported with
// its p50 and p95. Prints JSON.
import { loadavg } from 'node:os';
import type { PipelineConfig } from '../src/pipeline/config.ts';
import { type PresetId, presetConfig } from '../src/pipeline/presets.ts';
import { HeldReplies, RUN_ARRAYS } from '../src/protocol/held-replies.ts';
import type { RunResult } from '../worker/api.ts';
import { createEngine } from '../worker/create-engine.ts';
import { loadLog, nodeEngineOptions } from './load-log.ts';
import { nodeEndpoints } from './node-pool.ts';

/** `start`: `preset` (drags from the preset's values) or `hard` (from a trigger the log crosses); `only`: run one
 *  sweep (`seeds.contextWindow`), for profiling. */
const [file, perKey = '12', start = 'preset', only] = process.argv.slice(2);
const hard = start === 'hard';
const engine = createEngine({ ...nodeEngineOptions, endpoints: () => nodeEndpoints(2) });
const loaded = await loadLog(engine, file);
if (process.env.SWEEP_MEM) console.error(`loaded: peak rss ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);

let runId = 0;
/** CPU time (every thread of the process) of the last run: on a shared machine its wall time also holds the
 *  waits for a CPU, the CPU time what the run itself cost. */
let lastCpuMs = 0;
/** The last run's engine.run alone and its wire (the reply cut into parts, each taken as the page fetches it, and
 *  the notes of the rows on screen), ms. */
let lastEngineMs = 0;
let lastWireMs = 0;
/** The worker's replies (worker/engine.worker.ts holds a run's reply in these until the page fetches it). */
const held = new HeldReplies();
/** The transcript's rows on screen after a step: the last 64 messages of the longest thread (the page asks the
 *  engine for their notes once the run's reply has landed; the reply carries no tool-result or event rows). */
const shownThread = [...loaded.threads].sort((a, b) => b.messages - a.messages)[0];
const shownWindow = { from: Math.max(0, (shownThread?.messages ?? 0) - 64), to: shownThread?.messages ?? 0 };
async function run(preset: PresetId, set: Partial<PipelineConfig>): Promise<number> {
  // set: a change from the preset's values (a drag starts from them)
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const r = (await engine.run(++runId, {
    preset,
    config: { ...startConfig(preset), ...set },
    mode: 'recorded',
    provider: 'anthropic',
    encoding: 'o200k_base',
  })) as RunResult;
  if (r.stale) throw new Error('stale');
  const t1 = performance.now();
  // What the worker does next, before the page can read a byte of the reply.
  const { id, plan } = held.hold(r, RUN_ARRAYS);
  for (let k = 0; k < plan.length; k++) held.part(id, k);
  if (shownThread) {
    // Structured-cloned to the page (comlink): about what JSON costs.
    const notes = await engine.notes(runId, shownThread.id, shownWindow.from, shownWindow.to);
    if (!notes) throw new Error('notes of the run on screen: stale');
    JSON.stringify(notes);
  }
  const ms = performance.now() - t0;
  lastEngineMs = t1 - t0;
  lastWireMs = ms - lastEngineMs;
  const c = process.cpuUsage(c0);
  lastCpuMs = (c.user + c.system) / 1000;
  // The run's event count (its rows stay in the worker, asked for by window or id).
  if (countEvents) lastEvents = r.notes.events;
  if (process.env.SWEEP_MEM) {
    // What the run left live (after a full collection, with --expose-gc) beside the process's RSS.
    (globalThis as { gc?: () => void }).gc?.();
    const m = process.memoryUsage();
    const mb = (x: number) => Math.round(x / 2 ** 20);
    console.error(
      `run ${runId} ${preset} ${JSON.stringify(set)}: rss ${mb(m.rss)} heap ${mb(m.heapUsed)} external ${mb(m.external)} peak rss ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`,
    );
  }
  return ms;
}

/** Where a drag starts: the preset's values, or (hard) `seeds` with its trigger lowered into the log's range. */
const START: Record<PresetId, Partial<PipelineConfig>> = hard
  ? ({ seeds: { triggerRatio: 0.6 } } as never)
  : ({} as never);
const startConfig = (preset: PresetId): PipelineConfig => ({ ...presetConfig(preset), ...START[preset] });
/** Pipeline events of the last run (the hard case must make the pipeline act). */
let lastEvents = 0;
let countEvents = false;

/** A slider dragged from where it starts: n first-seen neighbouring values, never repeated, moving toward
 *  more compaction where there is a direction (smaller window, lower trigger, nearer tiers). */
const n = Number(perKey);
type Sweep = { key: string; set: (c: PipelineConfig, i: number) => Partial<PipelineConfig> };
const SWEEPS: Record<string, Sweep[]> = {
  seeds: [
    { key: 'tier3Window', set: (c, i) => ({ tier3Window: c.tier3Window + 1 + i }) },
    { key: 'tier1Distance', set: (c, i) => ({ tier1Distance: c.tier1Distance - 1 - i }) },
    { key: 'tier2Cap', set: (c, i) => ({ tier2Cap: c.tier2Cap + 25 * (i + 1) }) },
    { key: 'triggerRatio', set: (c, i) => ({ triggerRatio: c.triggerRatio - 0.02 * (i + 1) }) },
    { key: 'landingRatio', set: (c, i) => ({ landingRatio: c.landingRatio - 0.01 * (i + 1) }) },
    { key: 'contextWindow', set: (c, i) => ({ contextWindow: c.contextWindow - 12_000 * (i + 1) }) },
  ],
  // Microcompact on, tiers off: the keys that move it.
  'claude-code': [
    { key: 'contextWindow', set: (c, i) => ({ contextWindow: c.contextWindow - 12_000 * (i + 1) }) },
    {
      key: 'triggerBufferTokens',
      set: (c, i) => ({ triggerBufferTokens: (c.triggerBufferTokens ?? 0) + 3_000 * (i + 1) }),
    },
    {
      key: 'microcompact.keepRecent',
      set: (c, i) => ({ microcompact: { ...c.microcompact, keepRecent: c.microcompact.keepRecent + 1 + i } }),
    },
  ],
};
/** A click far along a slider instead of a drag, on a cache that has seen only the preset: reported, not gated. */
const JUMPS: [PresetId, Partial<PipelineConfig>][] = [
  ['seeds', { triggerRatio: 0.5 }],
  ['seeds', { contextWindow: 64_000 }],
];

// The jumps first, while nothing but the preset's own run is in the cache.
const jumps: Record<string, number> = {};
if (!only) {
  for (const [preset, set] of JUMPS) {
    await run(preset, {});
    jumps[`${preset}.${JSON.stringify(set)}`] = Math.round(await run(preset, set));
  }
}
const first: number[] = [];
const firstCpu: number[] = [];
const firstEngine: number[] = [];
const firstWire: number[] = [];
const repeats: number[] = [];
const byKey: Record<string, number[]> = {};
const byKeyCpu: Record<string, number[]> = {};
/** Pipeline events of the run each drag starts from, by preset (0: the drag starts where the pipeline idles). */
const startEvents: Record<string, number> = {};
for (const preset of ['seeds', 'claude-code'] as PresetId[]) {
  const base = startConfig(preset);
  countEvents = true;
  await run(preset, {}); // the start's own run: a load or a preset change, not a drag
  countEvents = false;
  startEvents[preset] = lastEvents;
  for (const sweep of SWEEPS[preset]) {
    if (only && only !== `${preset}.${sweep.key}`) continue;
    const times: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < n; i++) {
      times.push(await run(preset, sweep.set(base, i)));
      cpu.push(lastCpuMs);
      firstEngine.push(lastEngineMs);
      firstWire.push(lastWireMs);
    }
    byKey[`${preset}.${sweep.key}`] = times;
    byKeyCpu[`${preset}.${sweep.key}`] = cpu;
    firstCpu.push(...cpu);
    first.push(...times);
    for (let i = 0; i < 3; i++) repeats.push(await run(preset, sweep.set(base, i)));
    await run(preset, {}); // the slider let go back at its start
  }
}
/** Nearest-rank percentile: the smallest sample with at least p of the samples at or below it. */
const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil(p * xs.length) - 1)];
console.log(
  JSON.stringify({
    start,
    threads: loaded.counts.threads,
    requests: loaded.counts.requests,
    messages: loaded.counts.messages,
    startEvents,
    firstSeenRuns: first.length,
    percentiles: 'nearest-rank',
    p50Ms: Math.round(q(first, 0.5)),
    p95Ms: Math.round(q(first, 0.95)),
    maxMs: Math.round(Math.max(...first)),
    cpuP50Ms: Math.round(q(firstCpu, 0.5)),
    cpuP95Ms: Math.round(q(firstCpu, 0.95)),
    // The parts of the gated figure: engine.run alone, and the reply cut into the wire's parts.
    engineP50Ms: Math.round(q(firstEngine, 0.5)),
    engineP95Ms: Math.round(q(firstEngine, 0.95)),
    wireP50Ms: Math.round(q(firstWire, 0.5)),
    wireP95Ms: Math.round(q(firstWire, 0.95)),
    loadavg: loadavg().map((x) => Number(x.toFixed(2))),
    // The process's peak resident memory (main thread, counting workers, every run's caches): SPEC §9's bound.
    peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
    ...(process.env.SWEEP_TIMES
      ? {
          byKeyMs: Object.fromEntries(Object.entries(byKey).map(([k, xs]) => [k, xs.map(Math.round)])),
          byKeyCpuMs: Object.fromEntries(Object.entries(byKeyCpu).map(([k, xs]) => [k, xs.map(Math.round)])),
        }
      : {}),
    jumpsMs: jumps,
    byKeyP50Ms: Object.fromEntries(Object.entries(byKey).map(([k, xs]) => [k, Math.round(q(xs, 0.5))])),
    byKeyP95Ms: Object.fromEntries(Object.entries(byKey).map(([k, xs]) => [k, Math.round(q(xs, 0.95))])),
    byKeyCpuP50Ms: Object.fromEntries(Object.entries(byKeyCpu).map(([k, xs]) => [k, Math.round(q(xs, 0.5))])),
    byKeyCpuP95Ms: Object.fromEntries(Object.entries(byKeyCpu).map(([k, xs]) => [k, Math.round(q(xs, 0.95))])),
    repeatP50Ms: Math.round(q(repeats, 0.5)),
    repeatP95Ms: Math.round(q(repeats, 0.95)),
  }),
);
process.exit(0);
