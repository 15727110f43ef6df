// Observed cache breaks over the fixtures (issues 16, 26): for every input under the given folders (default: every
// fixture folder, test/helpers/fixture-inputs.ts) with observed usage, each observed break's cause, counted per cause and per
// format, and the share left `unexplained`. `npm run -s cache-breaks -- [--list] [folder…]` prints markdown tables;
// `--list` adds one line per break (file, thread, request, cause, tokens lost, divergence, evidence).
import { analyze } from '../src/analyses/analyze.ts';
import { logDefaults } from '../src/analyses/log-defaults.ts';
import { parseArgs } from '../src/cli/args.ts';
import { companionFiles, fileFromPath } from '../src/cli/node-input.ts';
import { resolveSettings, settingsFor } from '../src/cli/options.ts';
import { parseTranscript } from '../src/formats/index.ts';
import { createTokenizer } from '../src/tokens/tokenizer.ts';
import { fixtureInputs } from '../test/helpers/fixture-inputs.ts';

const argv = process.argv.slice(2);
const list = argv.includes('--list');
const roots = argv.filter((a) => a !== '--list');
const inputs = roots.length > 0 ? fixtureInputs(roots) : fixtureInputs();
const tok = await createTokenizer('o200k_base');
/** The cause family: `history-rewritten@12` counts as `history-rewritten`. */
const family = (cause: string) => cause.replace(/@.*$/, '');
const byCause = new Map<string, number>();
const byFormat = new Map<string, { breaks: number; unexplained: number; sessions: number }>();
const lines: string[] = [];
const patterns: string[] = [];
/** Breaks whose cause the provider reported (Anthropic diagnostics.cache_miss_reason): our inference beside it. */
const reported: { file: string; reported: string; inferred: string; agrees: boolean }[] = [];
let sessions = 0;
for (const f of inputs) {
  const r = parseTranscript(fileFromPath(f.path), companionFiles(f.path));
  if (!r.ok) continue;
  const t = r.transcript;
  if (!t.threads.some((th) => th.requests.some((q) => q.observed))) continue;
  sessions++;
  const settings = settingsFor(resolveSettings(parseArgs(['analyze', f.path], [], [])), logDefaults(t));
  const { report } = analyze(t, { ...settings, tokenizer: tok });
  const fmt = byFormat.get(t.format) ?? { breaks: 0, unexplained: 0, sessions: 0 };
  fmt.sessions++;
  for (const q of report.requests) {
    const b = q.observedBreak;
    if (!b) continue;
    const c = family(b.cause);
    byCause.set(c, (byCause.get(c) ?? 0) + 1);
    const inferred = /Tierscope's own inference: (\S+) — (agrees|differs)/.exec(b.evidence.join('\n'));
    if (b.cause.startsWith('reported:') && inferred)
      reported.push({
        file: f.rel,
        reported: b.cause.slice(9),
        inferred: inferred[1],
        agrees: inferred[2] === 'agrees',
      });
    fmt.breaks++;
    if (c === 'unexplained') fmt.unexplained++;
    if (list) {
      const d = b.divergence;
      const ev = b.evidence.length > 0 ? b.evidence : [b.detail];
      lines.push(
        `| ${f.rel} | ${q.thread.slice(0, 12)} | ${q.index} | ${b.cause} | ${b.tokensLost} | ${d ? `${d.messageIndex} @${d.tokens}±${d.uncertaintyTokens}` : '—'} | ${ev.join(' · ').replaceAll('|', '\\|')} |`,
      );
    }
  }
  byFormat.set(t.format, fmt);
  for (const p of report.cacheFindings.patterns) patterns.push(`- ${f.rel} (${p.thread}): ${p.text}`);
  for (const a of report.cacheFindings.advice) patterns.push(`  - advice: ${a.text}`);
}
const total = [...byCause.values()].reduce((a, b) => a + b, 0);
const pct = (n: number, d: number) => (d > 0 ? `${((n / d) * 100).toFixed(0)}%` : '—');
console.log(`${sessions} sessions with usage, ${total} observed breaks\n`);
console.log('| cause | breaks | share |\n|---|---|---|');
for (const [c, n] of [...byCause].sort((a, b) => b[1] - a[1])) console.log(`| ${c} | ${n} | ${pct(n, total)} |`);
console.log('\n| format | sessions | breaks | unexplained | share |\n|---|---|---|---|---|');
for (const [fm, x] of byFormat)
  console.log(`| ${fm} | ${x.sessions} | ${x.breaks} | ${x.unexplained} | ${pct(x.unexplained, x.breaks)} |`);
const agreeing = reported.filter((x) => x.agrees).length;
console.log(
  `\nProvider-reported causes: ${reported.length} break(s); Tierscope's own inference agrees on ${agreeing}${reported.length > 0 ? ` (${pct(agreeing, reported.length)})` : ''}`,
);
for (const x of reported)
  console.log(`- ${x.file}: reported ${x.reported}, inferred ${x.inferred}${x.agrees ? '' : ' (differs)'}`);
console.log(`\nRecurring divergence points and advice:\n${patterns.join('\n')}`);
if (list) {
  console.log(
    '\n| file | thread | request | cause | tokens lost | divergence | evidence |\n|---|---|---|---|---|---|---|',
  );
  for (const l of lines) console.log(l);
}
