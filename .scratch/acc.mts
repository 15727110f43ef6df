import { analyze } from '/work/wt/formats/src/analyses/analyze.ts';
import { companionFiles, fileFromPath } from '/work/wt/formats/src/cli/node-input.ts';
import { parseTranscript } from '/work/wt/formats/src/formats/index.ts';
import { presetConfig } from '/work/wt/formats/src/pipeline/presets.ts';
import { createTokenizer } from '/work/wt/formats/src/tokens/tokenizer.ts';
const tok = await createTokenizer('o200k_base');
const f = process.argv[2];
const r = parseTranscript(fileFromPath(f), companionFiles(f));
if (!r.ok) throw new Error(r.error);
const rep = analyze(r.transcript, { config: presetConfig('seeds'), preset: 'seeds', mode: 'recorded', provider: (process.argv[3] ?? 'anthropic') as any, tokenizer: tok }).report;
for (const q of rep.requests) {
  if (!q.observed) { console.log(q.thread, q.index, 'no usage', q.tokensIn); continue; }
  const o = q.observed.input + q.observed.cacheRead + q.observed.cacheWrite;
  console.log(q.thread, q.index, 'obs', o, 'counted', q.tokensIn, 'est', q.estimateIn, ((q.estimateIn - o) / o * 100).toFixed(1) + '%', 'out', q.observed.output);
}
console.log(JSON.stringify(rep.calibration));
for (const q of rep.requests.slice(0, 12)) console.log(JSON.stringify(q.estimate));
