// `npm run bench`: generates the seeded logs (cached in bench/out/), runs each phase in its own process
// (so memory and timings do not mix) and writes bench/results.json with the SPEC §9 figures, the ratios
// measured in this run, and whether each target holds. The machine is noisy: read ratios, not absolutes.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { compiled } from './compile.ts';

const OUT = 'bench/out';
mkdirSync(OUT, { recursive: true });
const quick = process.argv.includes('--quick');

function tsx(args: string[], timeoutMs = 1_800_000): string {
  return execFileSync('npx', ['tsx', ...args], {
    encoding: 'utf8',
    timeout: timeoutMs,
    maxBuffer: 1 << 26,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}
function json(args: string[], timeoutMs?: number): Record<string, number | boolean | null> {
  return lastJson(tsx(args, timeoutMs));
}
function lastJson(text: string): Record<string, number | boolean | null> {
  const out = text.trim().split('\n');
  return JSON.parse(out[out.length - 1]);
}
function ensure(name: string, args: string[]): string {
  const p = `${OUT}/${name}`;
  if (!existsSync(p)) tsx(['bench/write-log.ts', ...args.slice(0, 1), args[1], p, ...args.slice(2)]);
  return p;
}

const big = ensure(quick ? 'cc10.jsonl' : 'cc100.jsonl', ['claude-code', quick ? '10' : '100', '7']);
const r2k = ensure('cc-2k.jsonl', ['claude-code', '200', '11', '2000']);
const r20k = ensure('cc-20k.jsonl', ['claude-code', '400', '13', '20000']);

console.log('load + exact counts…');
const load = json(['bench/phase-load.ts', big, '2']);
console.log(load);
console.log('tokenizers…');
const tok = json(['bench/phase-tokenizers.ts', big, quick ? '15000' : '60000']);
console.log(tok);
console.log('re-runs…');
const rerun = await compiled('bench/phase-rerun.ts');
const rerunPhase = (file: string, runs: string) =>
  lastJson(
    execFileSync(rerun.cmd, [...rerun.args, file, runs], {
      encoding: 'utf8',
      timeout: 1_800_000,
      maxBuffer: 1 << 26,
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
const rr2k = rerunPhase(r2k, '40');
console.log(rr2k);
const rr20k = rerunPhase(r20k, quick ? '5' : '40');
console.log(rr20k);
console.log('chromium…');
let chromium: Record<string, number | boolean | null> = {};
try {
  chromium = json(
    ['bench/phase-chromium.ts', quick ? big : ensure('cc20.jsonl', ['claude-code', '20', '5'])],
    1_200_000,
  );
} catch (e) {
  chromium = { error: true };
  console.error(e);
}
console.log(chromium);

const n = (x: unknown) => (typeof x === 'number' ? x : Number.NaN);
const results = {
  generatedAt: new Date().toISOString(),
  machine: { cpus: cpus().length, cpu: cpus()[0]?.model, memGB: Math.round(totalmem() / 1e9), node: process.version },
  load100MB: { file: big, ...load },
  tokenizers: {
    ...tok,
    poolExactCountMs: load.countMs,
    ratioToAiTokenizer: n(load.countMs) / n(tok.aiTokenizerMs),
    speedupOverNaiveJsTiktoken: n(tok.naiveJsTiktokenMsExtrapolated) / n(load.countMs),
  },
  rerun: { compiledWith: rerun.how, r2000: rr2k, r20000: rr20k },
  chromium,
  targets: {
    structureWithin3s: n(load.structureMs) <= 3000,
    exactWithin2xFastest: n(load.countMs) <= 2 * n(tok.aiTokenizerMs),
    atLeast10xNaive: n(tok.naiveJsTiktokenMsExtrapolated) / n(load.countMs) >= 10,
    identicalCounts: tok.identical === true,
    rerun2000P95Within100ms: n(rr2k.p95Ms) <= 100,
    rerun20000P95Within1s: n(rr20k.p95Ms) <= 1000,
    memoryWithin1_5GB: n(load.peakRssMB) <= 1500,
    mainThreadTasksUnder100ms: n(chromium.loadLongestTaskMs) <= 100 && n(chromium.rerunLongestTaskMs) <= 100,
  },
};
writeFileSync('bench/results.json', `${JSON.stringify(results, null, 2)}\n`);
console.log(JSON.stringify(results.targets, null, 2));
