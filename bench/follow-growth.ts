// One growth of a followed session, step by step, as the page drives the engine (state/follow.ts, store.ts
// reloadGrown → showGrown): load with follow 'grow' (parse), the exact counts, the run, the main thread's rows.
// `tsx bench/follow-growth.ts <log.jsonl> [growths] [linesPerGrowth]`: opens the log without its last
// growths × lines lines (follow 'start', counted, one run), then appends them a growth at a time; prints the
// median wall and CPU milliseconds per step (CPU: every thread of the process, so waits for a shared CPU are out).
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { withLogDefaults } from '../src/analyses/settings-origin.ts';
import { presetConfig } from '../src/pipeline/presets.ts';
import type { LoadFile, LoadSummary, RunResult, RunSettings } from '../worker/api.ts';
import { createEngine } from '../worker/create-engine.ts';
import { nodeEngineOptions, subagentFiles } from './load-log.ts';

const [file, growthsArg = '7', perArg = '2'] = process.argv.slice(2);
const growths = Number(growthsArg);
const per = Number(perArg);

const asFile = (name: string, bytes: Uint8Array): LoadFile => ({
  name,
  buffer: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer,
});
const agents = subagentFiles(file);
const lines = readFileSync(file, 'utf8').split('\n');
if (lines.at(-1) === '') lines.pop();
const enc = new TextEncoder();
const upTo = (n: number) => asFile(basename(file), enc.encode(`${lines.slice(0, n).join('\n')}\n`));

// Counting in this thread (a growth has only its new texts to count), so the CPU time is the engine's own.
const engine = createEngine(nodeEngineOptions);
let runId = 0;
let opened: LoadSummary | undefined;
/** The settings the session was opened with (a growth keeps them, as the page does). */
async function run(summary: LoadSummary): Promise<RunResult> {
  opened ??= summary;
  const config = withLogDefaults(presetConfig('seeds'), opened.defaults);
  const settings: RunSettings = {
    preset: 'seeds',
    config,
    mode: 'recorded',
    provider: 'anthropic',
    encoding: 'o200k_base',
  };
  const r = await engine.run(++runId, settings);
  if (r.stale) throw new Error('stale');
  return r;
}

type Step = 'parse' | 'counting' | 'run' | 'rows' | 'total';
const wall: Record<Step, number[]> = { parse: [], counting: [], run: [], rows: [], total: [] };
const cpu: Record<Step, number[]> = { parse: [], counting: [], run: [], rows: [], total: [] };
async function timed<T>(step: Step, f: () => Promise<T>): Promise<T> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const out = await f();
  wall[step].push(performance.now() - t0);
  const c = process.cpuUsage(c0);
  cpu[step].push((c.user + c.system) / 1000);
  return out;
}
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

let n = lines.length - growths * per;
const first = await engine.load([upTo(n), ...agents], undefined, undefined, undefined, 'start');
if (!first.ok) throw new Error(first.error);
await engine.counted();
await run(first);
await engine.rows('main');
for (let g = 0; g < growths; g++) {
  n += per;
  const main = upTo(n);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const grown = await timed('parse', () => engine.load([main, ...agents], undefined, undefined, undefined, 'grow'));
  if (!grown.ok) throw new Error(grown.error);
  await timed('counting', () => engine.counted());
  await timed('run', () => run(grown));
  await timed('rows', () => engine.rows('main'));
  wall.total.push(performance.now() - t0);
  const c = process.cpuUsage(c0);
  cpu.total.push((c.user + c.system) / 1000);
}
const out: Record<string, { wallMs: number; cpuMs: number }> = {};
for (const k of Object.keys(wall) as Step[])
  out[k] = { wallMs: Math.round(median(wall[k])), cpuMs: Math.round(median(cpu[k])) };
// With --expose-gc: the heap the engine holds once the growths are done (the kept lines, caches and runs).
const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
const heapMB = gc ? Math.round(process.memoryUsage().heapUsed / 2 ** 20) : undefined;
console.log(
  JSON.stringify({ file: basename(file), lines: lines.length, growths, linesPerGrowth: per, median: out, heapMB }),
);
process.exit(0);
