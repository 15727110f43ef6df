// What `tierscope scan` prints (SPEC §8): a table of sessions with per-day totals for a person, or rows for other
// tools — `--json` ({sessions, skipped, days}), `--ndjson` (one session per line, for DuckDB's read_json), `--csv`.
// Times are ISO 8601 (UTC) in rows and local in the table; every figure is observed from the log's own usage.

import { maxOf } from '../lib/arrays.ts';
import { fmtUsd } from '../lib/money.ts';
import { type DayTotal, dayOf } from '../sessions/rows.ts';
import type { ScanResult } from '../sessions/scan.ts';
import type { SessionRow } from '../sessions/summary.ts';
import { terminalLine } from './terminal.ts';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A session as `scan --json/--ndjson/--csv` writes it: the SPEC §8 keys first, times as ISO strings. */
export function scanRecord(r: SessionRow) {
  return {
    path: r.path,
    sessionId: r.sessionId,
    project: r.project,
    format: r.format,
    start: iso(r.start),
    end: iso(r.end),
    models: r.models,
    requests: r.requests,
    subagents: r.subagents,
    usd: r.usd,
    hitRate: r.hitRate,
    observedBreaks: r.observedBreaks,
    compactions: r.compactions,
    pairingErrors: r.pairingErrors,
    title: r.title,
    durationMs: r.start !== null && r.end !== null ? r.end - r.start : null,
    pairingWarnings: r.pairingWarnings,
    unpricedModels: r.unpricedModels,
    promptTokens: r.promptTokens,
    cacheReadTokens: r.cacheReadTokens,
    parseIssues: r.parseIssues,
    sumsOff: r.sumsOff,
    forkOf: r.forkOf,
    orphan: r.orphan,
    companions: r.companions,
    bytes: r.bytes,
  };
}

type ScanRecord = ReturnType<typeof scanRecord>;
const CSV_COLUMNS: (keyof ScanRecord)[] = [
  'path',
  'sessionId',
  'project',
  'format',
  'start',
  'end',
  'models',
  'requests',
  'subagents',
  'usd',
  'hitRate',
  'observedBreaks',
  'compactions',
  'pairingErrors',
  'title',
  'durationMs',
  'pairingWarnings',
  'unpricedModels',
  'promptTokens',
  'cacheReadTokens',
  'parseIssues',
  'sumsOff',
  'forkOf',
  'bytes',
];

/** One CSV cell (RFC 4180 quoting); a text cell — a string, or a list (models) joined by `;` — that a spreadsheet
 *  would run as a formula gets a leading `'` (numbers are written as numbers). */
function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  let s = Array.isArray(v) ? v.join(';') : String(v);
  if ((typeof v === 'string' || Array.isArray(v)) && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function scanCsv(rows: readonly SessionRow[]): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const r of rows) {
    const rec = scanRecord(r);
    lines.push(CSV_COLUMNS.map((c) => csvCell(rec[c])).join(','));
  }
  return lines.join('\n');
}

const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(1)}%`);
const usd = (x: number | null) => (x === null ? '—' : fmtUsd(x));

function localTime(ms: number | null): string {
  if (ms === null) return '—';
  const d = new Date(ms);
  return `${dayOf(ms)} ${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

function duration(r: SessionRow): string {
  if (r.start === null || r.end === null) return '—';
  const m = Math.round((r.end - r.start) / 60000);
  return m < 60 ? `${m} min` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

function clip(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

function table(head: string[], body: string[][], right: Set<number>): string[] {
  const widths = head.map((h, i) => Math.max(h.length, maxOf(body.map((r) => r[i].length))));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (right.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(head), ...body.map(line)];
}

/** The human table: sessions (newest first), then totals per day and what was skipped. One line per row. */
export function scanText(
  result: ScanResult,
  rows: readonly SessionRow[],
  days: readonly DayTotal[],
  dir: string,
): string {
  const cell = (s: string) => terminalLine(s);
  const body = rows.map((r) => [
    localTime(r.start),
    duration(r),
    cell(clip(r.project, 32)),
    cell(clip(`${r.orphan ? 'sub-agent: ' : ''}${r.title ?? '(untitled)'}`, 48)),
    cell(clip(r.models.join(', ') || '—', 28)),
    String(r.requests),
    String(r.subagents),
    usd(r.usd),
    pct(r.hitRate),
    String(r.observedBreaks),
    String(r.compactions),
    String(r.pairingErrors),
    r.sumsOff > 0 ? `⚠ ${r.sumsOff}` : 'ok',
  ]);
  const head = [
    'start',
    'duration',
    'project',
    'title',
    'models',
    'req',
    'sub',
    'USD',
    'hit',
    'breaks',
    'compact',
    'pairing',
    'sums',
  ];
  const out = [
    `${rows.length} sessions in ${cell(dir)} (${result.files} files, ${(result.bytes / 1e6).toFixed(1)} MB read in ${result.ms} ms; USD recorded from observed usage at list prices, hit rate observed)`,
    '',
    ...table(head, body, new Set([5, 6, 7, 8, 9, 10, 11])),
    '',
    ...table(
      ['day', 'sessions', 'requests', 'USD', 'hit'],
      days.map((d) => [d.day, String(d.sessions), String(d.requests), fmtUsd(d.usd), pct(d.hitRate)]),
      new Set([1, 2, 3, 4]),
    ),
  ];
  const total = rows.reduce((n, r) => n + (r.usd ?? 0), 0);
  // With --since/--until a session that runs past a bound is listed whole; the days count only what fell inside.
  const inDays = days.reduce((n, d) => n + d.usd, 0);
  const part = Math.abs(inDays - total) >= 0.00005 ? ` (${fmtUsd(inDays)} of it billed on the days shown)` : '';
  out.push('', `total ${fmtUsd(total)} recorded over ${rows.length} sessions${part}`);
  for (const s of result.skipped) out.push(cell(`skipped ${s.path}: ${s.reason}`));
  if (result.cancelled) out.push('scan stopped before the end');
  return out.join('\n');
}
