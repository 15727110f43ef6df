// Identical output before and after a speed change (issue 30): every fixture of ../shared/fixtures/{real,wild,
// wild2} (and any log named on the command line) runs a fixed sequence of settings on one run cache — presets,
// then drags of each tier, trigger and microcompact key through a window small enough that every stage acts, in
// both replay modes — and each run's report, timelines, replay figures, events and fates are hashed.
// `npm run -s run-hash -- [--out f.json] [--check f.json] [extra logs…]`: prints a hash per input; --check exits 1
// when one differs from the saved file (then names the first setting whose run differs).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze, newCache } from '../src/analyses/analyze.ts';
import { companionFiles, fileFromPath } from '../src/cli/node-input.ts';
import { parseTranscript } from '../src/formats/index.ts';
import type { Transcript } from '../src/model/transcript.ts';
import { mergeConfig, type PipelineConfig } from '../src/pipeline/config.ts';
import { type PresetId, presetConfig } from '../src/pipeline/presets.ts';
import type { ReplayMode } from '../src/replay/inputs.ts';
import { createTokenizer } from '../src/tokens/tokenizer.ts';
import { fixtureInputs, SHARED_DIR } from '../test/helpers/fixture-inputs.ts';
import { runFingerprint } from '../test/helpers/run-fingerprint.ts';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
};
const outFile = flag('--out');
const checkFile = flag('--check');
const roots = ['real', 'wild', 'wild2'].map((d) => join(SHARED_DIR, 'fixtures', d));
const inputs = [
  ...fixtureInputs(roots).map((f) => ({ rel: f.rel, path: f.path })),
  ...args.map((p) => ({ rel: p, path: p })),
];

const tok = await createTokenizer('o200k_base');

type Step = { preset: PresetId; set: Record<string, unknown>; mode: ReplayMode };

/** The settings a user walks through: presets, then one key dragged at a time from a start where the pipeline
 *  acts (a window under the session's largest prompt), then back to the start (the cache's repeats). */
function steps(maxInput: number): Step[] {
  const window = Math.max(4_000, Math.round(maxInput * 0.7));
  const out: Step[] = [];
  for (const mode of ['recorded', 'raw'] as ReplayMode[]) {
    for (const preset of ['seeds', 'claude-code', 'kocoro-source', 'context-editing', 'sliding-window'] as PresetId[])
      out.push({ preset, set: {}, mode });
    const start = { contextWindow: window, outputReserve: Math.round(window * 0.05), triggerRatio: 0.6 };
    out.push({ preset: 'seeds', set: start, mode });
    const drags: Record<string, number[]> = {
      tier3Window: [9, 10, 4],
      tier1Distance: [19, 18, 12],
      tier2Cap: [325, 350, 120],
      triggerRatio: [0.58, 0.56, 0.4],
      landingRatio: [0.58, 0.5, 0.3],
      contextWindow: [Math.round(window * 0.9), Math.round(window * 0.8)],
    };
    for (const [key, values] of Object.entries(drags)) {
      for (const v of values) out.push({ preset: 'seeds', set: { ...start, [key]: v }, mode });
      out.push({ preset: 'seeds', set: start, mode });
    }
    // A long session at a real window (where the pipeline acts throughout), and one so small the hard cap's last
    // resort cuts every block.
    out.push({ preset: 'seeds', set: { triggerRatio: 0.6, contextWindow: Math.min(window, 200_000) }, mode });
    out.push({ preset: 'seeds', set: { triggerRatio: 0.6, contextWindow: Math.min(window, 60_000) }, mode });
    const cc = { contextWindow: window, microcompact: { ...presetConfig('claude-code').microcompact } };
    for (const keepRecent of [6, 3, 1])
      out.push({ preset: 'claude-code', set: { ...cc, microcompact: { ...cc.microcompact, keepRecent } }, mode });
  }
  return out;
}

const hash = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 16);

function runAll(t: Transcript): { all: string; perStep: string[]; names: string[] } {
  const cache = newCache(t, tok);
  const run = (s: Step) => {
    const config: PipelineConfig = mergeConfig(presetConfig(s.preset), s.set);
    return analyze(t, {
      config,
      preset: s.preset,
      mode: s.mode,
      provider: 'anthropic',
      tokenizer: tok,
      cache,
      withoutPipeline: true,
    });
  };
  const first = run({ preset: 'seeds', set: {}, mode: 'recorded' });
  const maxInput = Math.max(0, ...first.replay.threads.flatMap((tr) => tr.requests.map((q) => q.inputTokens)));
  const list = steps(maxInput);
  const perStep = list.map((s) => hash(JSON.stringify(runFingerprint(run(s)))));
  return {
    all: hash(perStep.join(',')),
    perStep,
    names: list.map((s) => `${s.mode} ${s.preset} ${JSON.stringify(s.set)}`),
  };
}

const saved: Record<string, { all: string; perStep: string[] }> =
  checkFile && existsSync(checkFile) ? JSON.parse(readFileSync(checkFile, 'utf8')) : {};
const results: Record<string, { all: string; perStep: string[] }> = {};
let differ = 0;
for (const f of inputs) {
  const r = parseTranscript(fileFromPath(f.path), companionFiles(f.path), {});
  if (!r.ok) {
    console.log(`${f.rel}: not loaded (${r.error})`);
    continue;
  }
  const t0 = performance.now();
  const { all, perStep, names } = runAll(r.transcript);
  results[f.rel] = { all, perStep };
  const was = saved[f.rel];
  const verdict = !checkFile ? '' : !was ? ' (new)' : was.all === all ? ' same' : ' DIFFERS';
  console.log(`${all} ${f.rel} ${Math.round(performance.now() - t0)} ms${verdict}`);
  if (was && was.all !== all) {
    differ++;
    const i = perStep.findIndex((h, k) => h !== was.perStep[k]);
    console.log(`  first differing run: #${i} ${names[i]}`);
  }
}
if (outFile) writeFileSync(outFile, `${JSON.stringify(results, null, 1)}\n`);
if (checkFile) console.log(differ === 0 ? 'identical output' : `${differ} input(s) differ`);
process.exit(differ === 0 ? 0 : 1);
