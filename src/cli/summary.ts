// Human-readable summary of a report for the terminal: what was loaded, where the tokens are, what the
// pipeline did, the cache and the problems found — a few aligned lines, most important first.

import type { ObservedPoint } from '../analyses/cache-timeline.ts';
import { FIGURE_MEANING } from '../analyses/figures.ts';
import type { Report } from '../analyses/report.ts';
import { whereIs } from '../analyses/self-check.ts';
import type { SettingsOrigin } from '../analyses/settings-origin.ts';
import { skipReason } from '../formats/skip-reasons.ts';
import { pushAll } from '../lib/arrays.ts';
import { grouped } from '../lib/digits.ts';
import { fmtUsd } from '../lib/money.ts';
import type { Transcript } from '../model/transcript.ts';
import { compactionLines } from './compaction-summary.ts';
import { costLines } from './cost-summary.ts';
import { counted } from './counted.ts';
import { terminalLine } from './terminal.ts';

function fmtNum(n: number): string {
  const a = Math.abs(n);
  if (a >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (a >= 1e4) return `${(n / 1e3).toFixed(1)}k`;
  return String(Math.round(n));
}

const pct = (x: number | null | undefined) => (x === null || x === undefined ? 'n/a' : `${(x * 100).toFixed(0)}%`);

const n = grouped;

/** Where the provider and the window came from: the log (and why), a flag, or the preset. */
function originLines(o: SettingsOrigin): string[] {
  const p = o.provider;
  const w = o.contextWindow;
  const provider =
    p.source === 'log'
      ? `provider ${p.value} (from the log: ${p.log.why})`
      : `provider ${p.value} (--provider; the log's default is ${p.log.value}: ${p.log.why})`;
  const window =
    w.source === 'log'
      ? `window ${n(w.value)} (from the log: ${w.log.why})`
      : w.source === 'preset'
        ? `window ${n(w.value)} (the preset's; from the log none: ${w.log.why})`
        : `window ${n(w.value)} (set by --set/--config; the log's default is ${w.log.value === null ? "the preset's" : n(w.log.value)}: ${w.log.why})`;
  const t = o.cacheTtl;
  const ttl =
    t.source === 'log'
      ? `cache TTL ${n(t.value)} s (from the log: ${t.log.why})`
      : t.source === 'preset'
        ? `cache TTL ${n(t.value)} s (the preset's; ${t.log.why})`
        : `cache TTL ${n(t.value)} s (set by --set/--config; the log's: ${t.log.value === null ? "the preset's" : n(t.log.value)}, ${t.log.why})`;
  return [provider, window, ttl];
}

/** What a log with no per-request usage states of the whole run (SWE-agent and mini-swe-agent `info.model_stats`). */
function runTotals(t: Transcript): string | null {
  const x = t.meta.extra ?? {};
  const sent = x['model_stats.tokens_sent'];
  const received = x['model_stats.tokens_received'];
  const usd = x['model_stats.instance_cost'];
  const parts = [
    typeof sent === 'number' ? `${fmtNum(sent)} tokens sent` : '',
    typeof received === 'number' ? `${fmtNum(received)} received` : '',
    typeof usd === 'number' ? fmtUsd(usd) : '',
  ].filter(Boolean);
  return parts.length > 0 ? `the log states only run totals: ${parts.join(', ')} (info.model_stats)` : null;
}

/** Billed tokens (the provider's usage, split as the bill is), the counted inputs before → after the pipeline, and
 *  the self-check of the estimates against the billed prompts (figures.ts, self-check.ts). */
function tokenLines(t: Transcript, r: Report, _file: string): string[] {
  const tot = r.totals;
  const out: string[] = [];
  const b = tot.billed;
  if (b)
    out.push(
      `billed tokens: ${fmtNum(b.total)} (input ${fmtNum(b.input)} · cache read ${fmtNum(b.cacheRead)} · cache write ${fmtNum(b.cacheWrite)} · output ${fmtNum(b.output)}; ${FIGURE_MEANING.billed}: ${counted(b.responses, 'response')})`,
    );
  else {
    const stated = runTotals(t);
    out.push(`billed tokens: none per request (${stated ?? 'the log records no usage'})`);
  }
  out.push(
    `input tokens counted: ${fmtNum(tot.tokensIn)} as logged → ${fmtNum(tot.tokensAfterPipeline)} after the pipeline (saved ${fmtNum(tot.tokensSaved)}; ${FIGURE_MEANING.counted}, summed over requests, the prefix a log lacks inferred)`,
  );
  const sc = r.selfCheck;
  out.push(`self-check: ${sc.ok ? 'ok' : 'WARNING'} — ${sc.summary} (estimated: ${FIGURE_MEANING.estimated})`);
  for (const f of sc.flagged.slice(0, 3))
    out.push(
      `  ${f.miss >= 0 ? '+' : '−'}${(Math.abs(f.miss) * 100).toFixed(1)}%: ${whereIs(f)} estimated ${n(f.estimate)}, billed ${n(f.billed)}${f.note ? ` (${f.note})` : ''}`,
    );
  if (sc.flagged.length > 3)
    out.push(`  … ${sc.flagged.length - 3} more requests over 10% off (--json: selfCheck.flagged)`);
  for (const x of sc.totals.filter((y) => !y.agrees))
    out.push(
      `  ${x.thread}: billed responses add up to ${n(x.billed.prompt)} prompt / ${n(x.billed.output)} output tokens, the log's totals (line ${x.line}) to ${n(x.log.prompt)} / ${n(x.log.output)}`,
    );
  return out;
}

/** The summary text. `observed`: the run's observed points, whose breaks are counted by cause when the report
 *  was made without its per-request rows (the text needs no rows; a million of them were a third of the heap). */
export function formatSummary(t: Transcript, r: Report, observed?: readonly Pick<ObservedPoint, 'break'>[]): string {
  const lines: string[] = [];
  const c = r.counts;
  const tot = r.totals;
  lines.push(
    `${t.meta.fileName ?? ''} · ${r.format}${t.meta.version ? ` ${t.meta.version}` : ''} · preset ${r.settings.preset} · ${r.settings.mode} · ${r.settings.provider}`,
  );
  if (r.defaults) pushAll(lines, originLines(r.defaults));
  lines.push(
    [
      counted(c.threads, 'thread'),
      counted(c.messages, 'message'),
      counted(c.requests, 'request'),
      counted(c.toolUses, 'tool use'),
      counted(c.toolResults, 'tool result'),
    ].join(' · '),
  );
  const sideCalls = t.threads.filter((th) => th.kind === 'side-call');
  for (const th of t.threads.filter((x) => x.kind !== 'side-call')) {
    lines.push(
      `  ${th.kind.padEnd(9)} ${th.id}  ${counted(th.messages.length, 'msg')}, ${counted(th.requests.length, 'request')}${th.title ? `  (${th.title})` : ''}`,
    );
  }
  if (sideCalls.length > 0) {
    const reqs = sideCalls.reduce((n, th) => n + th.requests.length, 0);
    lines.push(`  side-call ×${sideCalls.length}  ${reqs} requests (titles, quota probes, helpers)`);
  }
  pushAll(lines, tokenLines(t, r, t.meta.fileName ?? ''));
  lines.push(`cache hit rate: observed ${pct(tot.observed?.hitRate)} → simulated ${pct(tot.simulated.hitRate)}`);
  pushAll(lines, costLines(tot.cost));
  if (t.meta.assumedModel) lines.push(`  model assumed: ${t.meta.assumedModel.model} — ${t.meta.assumedModel.why}`);
  lines.push(`cache breaks: ${tot.cacheBreaksObserved} observed, ${tot.cacheBreaksSimulated} simulated`);
  const causes = new Map<string, number>();
  const breaks = observed ? observed.map((p) => p.break) : r.requests.map((q) => q.observedBreak);
  for (const b of breaks) if (b) causes.set(b.cause, (causes.get(b.cause) ?? 0) + 1);
  for (const [cause, n] of causes) lines.push(`  observed ${cause} × ${n}`);
  for (const p of r.cacheFindings.patterns.slice(0, 3)) lines.push(`  recurring (${p.thread}): ${p.text}`);
  if (r.cacheFindings.advice.length > 0) lines.push('why it fell — advice (dollars estimated at list prices):');
  for (const a of r.cacheFindings.advice.slice(0, 3)) lines.push(`  ${a.text}`);
  const tiers = [1, 2, 3].map((k) => r.toolResults.filter((x) => x.tier === k).length);
  lines.push(
    `tool results: tier 1 × ${tiers[0]}, tier 2 × ${tiers[1]}, tier 3 × ${tiers[2]}; spilled ${r.toolResults.filter((x) => x.spilled).length}, cleared ${r.toolResults.filter((x) => x.cleared).length}, summarised away ${r.toolResults.filter((x) => x.inSummary).length}, dropped ${r.toolResults.filter((x) => x.dropped).length}`,
  );
  lines.push(
    `re-fetches: ${tot.refetches} (${tot.refetchesAfterPipeline} after the pipeline dropped the first result, ${fmtNum(tot.refetchTokens)} tokens${tot.refetchAfterPipelineUsd !== null ? `, ≈${fmtUsd(tot.refetchAfterPipelineUsd)}` : ''})`,
  );
  pushAll(lines, compactionLines(r, fmtNum));
  lines.push(`pairing (${r.settings.provider}): ${tot.pairingErrors} errors, ${tot.pairingWarnings} warnings`);
  for (const v of r.pairing.slice(0, 5))
    lines.push(`  ${v.thread} req ${v.request} [${v.stage}] ${v.severity}: ${v.error}`);
  const errors = r.parseIssues.filter((i) => i.severity === 'error').length;
  lines.push(`parse issues: ${r.parseIssues.length} (${errors} errors)`);
  for (const i of r.parseIssues.slice(0, 10)) lines.push(`  line ${i.line}: ${i.severity}: ${i.message}`);
  if (r.parseIssues.length > 10) lines.push(`  … ${r.parseIssues.length - 10} more`);
  const skipped = Object.entries(t.meta.skipped ?? {}).sort((a, b) => b[1] - a[1]);
  if (skipped.length > 0) {
    lines.push(`lines not in the conversation: ${skipped.reduce((n, [, k]) => n + k, 0)}`);
    for (const [kind, n] of skipped.slice(0, 12)) {
      const why = skipReason(kind);
      lines.push(`  ${kind} ×${n}${why ? ` — ${why}` : ''}`);
    }
    if (skipped.length > 12) lines.push(`  … ${skipped.length - 12} more kinds`);
  }
  // Titles, ids, file names and quoted lines come from the log: each line stays one inert line.
  return lines.map(terminalLine).join('\n');
}
