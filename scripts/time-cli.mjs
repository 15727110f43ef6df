// The start-up and scan timings the README quotes (issues 18, 30), measured in one run: `tierscope scan` of a folder
// — a first scan (an empty row cache) and a scan of the unchanged folder (the cache it wrote) — beside
// `ccusage@20.0.24 session --offline` on a copy of it (CLAUDE_CONFIG_DIR/projects; ccusage does not follow
// symlinked folders), run through npx and through its own launcher, and `tierscope analyze` of a small file, with
// `node -e 0` for scale. Rounds interleave the commands; medians of wall and CPU (user + sys, from /usr/bin/time).
// `npm run -s time-cli -- [--rounds N] [--folder DIR] [--small FILE]` (needs the npm registry once, for ccusage).
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
};
const rounds = Number(arg('rounds', '7'));
const folder = resolve(arg('folder', join(root, '../shared/fixtures/wild/claude-code/projects')));
const small = resolve(
  arg('small', join(root, '../shared/fixtures/real/claude-code/ccviewer-1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl')),
);
const CCUSAGE = 'ccusage@20.0.24';
const TIME = '/usr/bin/time';

const config = mkdtempSync(join(tmpdir(), 'tierscope-time-'));
cpSync(folder, join(config, 'projects'), { recursive: true });
const env = { ...process.env, CLAUDE_CONFIG_DIR: config };
// ccusage's own launcher, as npx installed it (its path printed by a shell npx runs).
const launcher = execFileSync('npx', ['-y', '-p', CCUSAGE, '-c', 'command -v ccusage'], { env, encoding: 'utf8' });
const ccusage = readFileSync(launcher.trim(), 'utf8').startsWith('#!/usr/bin/env node') ? launcher.trim() : null;

const bin = join(root, 'bin/tierscope.cjs');
// The row cache of the scans: emptied before each round's first scan, kept for its second.
const cacheDir = join(config, 'cache');
const commands = {
  'tierscope scan --json (first)': [process.execPath, bin, 'scan', folder, '--json', '--cache-dir', cacheDir],
  'tierscope scan --json (unchanged)': [process.execPath, bin, 'scan', folder, '--json', '--cache-dir', cacheDir],
  'npx ccusage session --offline': ['npx', CCUSAGE, 'session', '--offline'],
  ...(ccusage ? { 'ccusage session --offline (launcher)': [process.execPath, ccusage, 'session', '--offline'] } : {}),
  'tierscope analyze (small file)': [process.execPath, bin, 'analyze', small],
  'node -e 0': [process.execPath, '-e', '0'],
};

const timed = existsSync(TIME);
const runs = Object.fromEntries(Object.keys(commands).map((k) => [k, { wall: [], cpu: [] }]));
for (let i = 0; i < rounds; i++) {
  for (const [name, [cmd, ...args]] of Object.entries(commands)) {
    if (name.endsWith('(first)')) rmSync(cacheDir, { recursive: true, force: true });
    const t0 = performance.now();
    const r = timed
      ? spawnSync(TIME, ['-f', '%e %U %S', cmd, ...args], { env, encoding: 'utf8', maxBuffer: 1 << 28 })
      : spawnSync(cmd, args, { env, encoding: 'utf8', maxBuffer: 1 << 28 });
    const wall = (performance.now() - t0) / 1000;
    if (r.status !== 0) throw new Error(`${name} failed: ${r.stderr}`);
    runs[name].wall.push(wall);
    if (timed) {
      const [, user, sys] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
      runs[name].cpu.push(user + sys);
    }
  }
}
rmSync(config, { recursive: true, force: true });

const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (x) => (x === undefined ? '—' : `${x.toFixed(2)} s`);
const load = loadavg()
  .map((x) => x.toFixed(2))
  .join(' ');
console.log(`${rounds} interleaved rounds; ${folder} (scan), ${small} (analyze); load average ${load}`);
console.log('| command | wall (median) | CPU user+sys (median) |\n|---|---|---|');
for (const [name, r] of Object.entries(runs))
  console.log(`| ${name} | ${fmt(median(r.wall))} | ${fmt(median(r.cpu))} |`);

// The ratios SPEC §9 bounds (a first scan within 2× of ccusage's launcher, an unchanged folder within 1×), round by
// round: all ran back to back in each round.
const launcherRuns = runs['ccusage session --offline (launcher)'];
if (launcherRuns) {
  const ratiosOf = (name) => runs[name].wall.map((w, i) => w / launcherRuns.wall[i]);
  const first = ratiosOf('tierscope scan --json (first)');
  const unchanged = ratiosOf('tierscope scan --json (unchanged)');
  console.log('| round | first scan / launcher | unchanged / launcher |\n|---|---|---|');
  for (const [i, f] of first.entries()) console.log(`| ${i + 1} | ${f.toFixed(2)} | ${unchanged[i].toFixed(2)} |`);
  const stats = (xs) => {
    const s = xs.slice().sort((a, b) => a - b);
    const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))].toFixed(2);
    return `median ${q(0.5)}, quartiles ${q(0.25)}–${q(0.75)}, max ${q(1)}`;
  };
  console.log(`first scan / ccusage launcher: ${stats(first)} (target ≤ 2.0)`);
  console.log(`unchanged folder / ccusage launcher: ${stats(unchanged)} (target ≤ 1.0)`);
}
