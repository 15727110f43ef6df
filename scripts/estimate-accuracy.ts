// Estimate accuracy per file (SPEC §9): for every input under the given folders (default: ../shared/fixtures
// real and wild), the requests with an observed prompt ≥ 2,000 tokens, the share whose estimateIn is within
// ±3%, and the median and worst miss. `npm run -s accuracy -- <folder>…` prints the table (markdown).
import { analyze } from '../src/analyses/analyze.ts';
import { companionFiles, fileFromPath } from '../src/cli/node-input.ts';
import { nodeSqlite } from '../src/cli/sqlite-node.ts';
import { parseTranscript } from '../src/formats/index.ts';
import { presetConfig } from '../src/pipeline/presets.ts';
import { median } from '../src/tokens/calibration.ts';
import { createTokenizer } from '../src/tokens/tokenizer.ts';
import { fixtureInputs } from '../test/helpers/fixture-inputs.ts';

const tok = await createTokenizer('o200k_base');
const sqlite = await nodeSqlite();
const roots = process.argv.slice(2);
const inputs = roots.length > 0 ? fixtureInputs(roots) : fixtureInputs();
const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
const all: number[] = [];
console.log('| file | format | n | within ±3% | median | worst |');
console.log('|---|---|---|---|---|---|');
for (const f of inputs) {
  if (f.path.endsWith('-wal')) continue;
  const r = parseTranscript(fileFromPath(f.path), companionFiles(f.path), { sqlite });
  if (!r.ok) {
    console.log(`| ${f.rel} | — | — | did not load: ${r.error.slice(0, 80)} | | |`);
    continue;
  }
  const report = analyze(r.transcript, {
    config: presetConfig('seeds'),
    preset: 'seeds',
    mode: 'recorded',
    provider: 'anthropic',
    tokenizer: tok,
  }).report;
  const misses: number[] = [];
  for (const q of report.requests) {
    if (!q.observed) continue;
    const observed = q.observed.input + q.observed.cacheRead + q.observed.cacheWrite;
    if (observed >= 2000) misses.push((q.estimateIn - observed) / observed);
  }
  if (misses.length === 0) continue;
  all.push(...misses);
  const abs = misses.map(Math.abs);
  const within = abs.filter((x) => x <= 0.03).length / abs.length;
  const worst = misses.reduce((w, x) => (Math.abs(x) > Math.abs(w) ? x : w), 0);
  console.log(
    `| ${f.rel} | ${r.transcript.format} | ${misses.length} | ${(within * 100).toFixed(0)}% | ${(median(abs) * 100).toFixed(1)}% | ${pct(worst)} |`,
  );
}
const abs = all.map(Math.abs);
console.log(
  `| all | | ${all.length} | ${((abs.filter((x) => x <= 0.03).length / abs.length) * 100).toFixed(1)}% | ${(median(abs) * 100).toFixed(2)}% | |`,
);
