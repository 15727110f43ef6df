// The human summary's lines about compactions (issue 17): each compaction with what its summary kept and lost
// per probe kind, the re-fetches after it, and tokens per task recorded and replayed. The JSON report has it all.
import type { Report } from '../analyses/report.ts';
import { fmtUsd } from '../lib/money.ts';
import { counted } from './counted.ts';

const KIND: Record<string, string> = {
  filesModified: 'files modified',
  filesRead: 'files read',
  errors: 'errors',
  identifiers: 'identifiers',
  todos: 'todos',
  instructions: 'instructions',
};

export function compactionLines(r: Report, num: (n: number) => string): string[] {
  const out: string[] = [];
  const cs = r.compactions ?? [];
  out.push(`compactions: ${cs.length}${cs.length > 0 ? ' (probed against the ledger of the span each folded)' : ''}`);
  for (const c of cs) {
    const who = c.source === 'agent' ? `agent${c.trigger ? ` ${c.trigger}` : ''}` : 'pipeline';
    const pre =
      c.preTokens === null ? 'context before unknown' : `${num(c.preTokens)} tokens before (${c.preTokensBasis})`;
    out.push(
      `  ${c.thread} req ${c.request ?? '—'} [${who}] ${pre} → summary ${num(c.summaryTokens)} tokens (counted)`,
    );
    if (c.opaque)
      out.push('    the summary has no readable text (encrypted or empty): what it kept is unknown (not probed)');
    const kinds = Object.entries(c.probes)
      .filter(([, p]) => p.kept.length + p.lost.length > 0)
      .map(([k, p]) => `${KIND[k] ?? k} ${p.kept.length}/${p.kept.length + p.lost.length}`);
    if (kinds.length > 0) out.push(`    kept: ${kinds.join(', ')}`);
    const lost = Object.entries(c.probes).flatMap(([k, p]) =>
      p.lost.slice(0, 3).map((x) => `${KIND[k] ?? k}: ${x.text}`),
    );
    for (const l of lost.slice(0, 8)) out.push(`    lost ${l}`);
    const a = c.refetchesAfter;
    if (a.count > 0)
      out.push(
        `    re-fetched after: ${a.count} (${num(a.tokens)} tokens${a.usd !== null ? `, ≈${fmtUsd(a.usd)}` : ''})`,
      );
  }
  const t = r.taskTotals;
  if (t && t.tasks > 0) {
    const tasks = r.tasks ?? [];
    const recorded = tasks.reduce((n, x) => n + (x.recorded.tokens ?? 0), 0);
    // A log without usage has no recorded tokens to show: not 0.
    const observed = tasks.some((x) => x.recorded.tokens !== null)
      ? num(Math.round(recorded / t.tasks))
      : 'n/a (no usage in the log)';
    out.push(
      `tokens per task: ${counted(t.tasks, 'task')}, recorded ${observed}, this run ≈${num(t.tokensPerTask)} (≈${num(t.tokensPerTaskWithoutRefetch)} without re-fetches)`,
    );
  }
  return out;
}
