// Human-readable summary of a report for the terminal: what was loaded, where the tokens are, and the
// problems found, in a few aligned lines.
import type { BaseReport } from '../analyses/report.ts';
import type { Transcript } from '../model/transcript.ts';

export function fmtNum(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e4) return `${(n / 1e3).toFixed(1)}k`;
  return String(n);
}

export function formatSummary(t: Transcript, r: BaseReport): string {
  const lines: string[] = [];
  const c = r.counts;
  lines.push(`${t.meta.fileName ?? ''} · ${r.format}${t.meta.version ? ` ${t.meta.version}` : ''}`);
  lines.push(
    `${c.threads} threads · ${c.messages} messages · ${c.requests} requests · ${c.toolUses} tool uses · ${c.toolResults} tool results`,
  );
  for (const th of t.threads) {
    lines.push(
      `  ${th.kind.padEnd(9)} ${th.id}  ${th.messages.length} msgs, ${th.requests.length} requests${th.title ? `  (${th.title})` : ''}`,
    );
  }
  const byTool = new Map<string, { n: number; tokens: number }>();
  for (const tr of r.toolResults) {
    const e = byTool.get(tr.tool) ?? { n: 0, tokens: 0 };
    e.n++;
    e.tokens += tr.tokens;
    byTool.set(tr.tool, e);
  }
  if (byTool.size > 0) {
    lines.push('tool results by tool (tokens):');
    for (const [tool, e] of [...byTool].sort((a, b) => b[1].tokens - a[1].tokens)) {
      lines.push(`  ${tool.padEnd(24)} ${String(e.n).padStart(5)} × ${fmtNum(e.tokens).padStart(8)}`);
    }
  }
  const withUsage = r.requests.filter((q) => q.observed).length;
  lines.push(`observed usage on ${withUsage} of ${r.requests.length} requests`);
  const errors = r.parseIssues.filter((i) => i.severity === 'error').length;
  lines.push(`parse issues: ${r.parseIssues.length} (${errors} errors)`);
  for (const i of r.parseIssues.slice(0, 10)) lines.push(`  line ${i.line}: ${i.severity}: ${i.message}`);
  if (r.parseIssues.length > 10) lines.push(`  … ${r.parseIssues.length - 10} more`);
  return lines.join('\n');
}
