import type { ObservedUsage, ParseIssue, Thread } from '../model/transcript.ts';
import type { ReadUsage } from './usage-count.ts';

/** The most tokens one response can plausibly report; more (or a negative or fractional count) is not a count. */
const MAX_USAGE_TOKENS = 1e12;

const USAGE_KEYS = ['input', 'cacheRead', 'cacheWrite', 'cacheWrite1h', 'output'] as const;

/** The first field of `u` that is not a token count (negative, fractional or past 10^12), or null. */
function impossibleUsage(u: ObservedUsage): string | null {
  for (const k of USAGE_KEYS) {
    const v = u[k];
    if (v !== undefined && !(Number.isInteger(v) && v >= 0 && v <= MAX_USAGE_TOKENS))
      return Number.isNaN(v) ? `${k} (not a number)` : `${k} ${v}`;
  }
  return null;
}

/** Counts a usage object wrote as text ("120": read as numbers, usage-count.ts), noted at the line that holds them;
 *  the marker is taken off the model. */
function noteTextCounts(u: ReadUsage | undefined, line: number, file: string | undefined, issues: ParseIssue[]) {
  if (!u?.asText) return;
  issues.push({
    line,
    ...(file ? { file } : {}),
    severity: 'info',
    message: `usage ${u.asText.join(', ')} written as text, not as numbers; read as the counts they say`,
  });
  delete u.asText;
}

/** Usage that is not a token count (issue 19, item 10: negative or 2^53 figures were taken as they were; issue 29: a
 *  count that is not a number, NaN from usage-count.ts) is dropped from the request or billed response, with a parse
 *  issue at the line that holds it; the rest loads. */
export function dropImpossibleUsage(threads: Thread[], issues: ParseIssue[]): void {
  for (const t of threads) {
    for (const r of t.requests) {
      const at = t.messages[r.inputEnd] ?? t.messages[r.inputEnd - 1];
      noteTextCounts(r.observed, at?.source.line ?? 0, at?.source.file, issues);
      const bad = r.observed && impossibleUsage(r.observed);
      if (!bad) continue;
      r.observed = undefined;
      const m = t.messages[r.inputEnd] ?? t.messages[r.inputEnd - 1];
      issues.push({
        line: m?.source.line ?? 0,
        ...(m?.source.file ? { file: m.source.file } : {}),
        severity: 'warning',
        message: `usage ${bad} is not a token count (negative, fractional or over 10^12): request ${r.index} of thread ${t.id} is treated as having no observed usage`,
      });
    }
    if (t.billedApart) {
      t.billedApart = t.billedApart.filter((b) => {
        noteTextCounts(b.usage, b.line, b.file, issues);
        const bad = impossibleUsage(b.usage);
        if (bad)
          issues.push({
            line: b.line,
            ...(b.file ? { file: b.file } : {}),
            severity: 'warning',
            message: `usage ${bad} is not a token count (negative, fractional or over 10^12): this billed response is not counted`,
          });
        return !bad;
      });
    }
  }
}

/**
 * The first `max` threads (parsers order them main, sidechains, side calls, so side calls go first); one issue,
 * put first so the issue limit never hides it, says how many were dropped.
 */
export function limitThreads(threads: Thread[], max: number, issues: ParseIssue[]): Thread[] {
  if (threads.length <= max) return threads;
  const dropped = threads.length - max;
  issues.unshift({
    line: 0,
    severity: 'error',
    message: `${threads.length} threads, over the ${max}-thread limit: the last ${dropped} were dropped (threads are ordered main, sidechains, side calls)`,
  });
  return threads.slice(0, max);
}

/** The first `max` issues, then one that says how many more there were (`unkept`: counted, never stored). */
export function limitIssues(issues: ParseIssue[], max: number, unkept: number): ParseIssue[] {
  if (issues.length <= max && unkept === 0) return issues;
  const rest = issues.slice(max);
  const kept = issues.slice(0, max);
  kept.push({
    line: rest[0]?.line ?? 0,
    severity: 'warning',
    message: `${rest.length + unkept} more issues not listed, over the ${max}-issue limit (the first at this line)`,
  });
  return kept;
}

export function dedupeIssues(list: ParseIssue[]): ParseIssue[] {
  const seen = new Set<string>();
  return list.filter((i) => {
    const k = `${i.file ?? ''}|${i.line}|${i.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
