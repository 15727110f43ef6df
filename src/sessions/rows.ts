// What the sessions table and `scan` do with rows: filter by date range and project, sort by a column, and
// total them per day (sessions, requests, observed dollars and hit rate). A day's totals are what was billed on that
// local calendar day, by each response's own time (as ccusage's daily report counts): a session that runs past
// midnight counts on both days. A date bound `YYYY-MM-DD` (or `YYYYMMDD`) is a local day.
import type { SessionRow } from './summary.ts';

/** The span a row keeps its spend in (SessionRow.spend), in ms: every time zone's offset is a whole number of them. */
const QUARTER_MS = 900_000;

export const SORT_KEYS = [
  'project',
  'title',
  'start',
  'duration',
  'models',
  'requests',
  'subagents',
  'usd',
  'hitRate',
  'observedBreaks',
  'compactions',
  'pairingErrors',
] as const;
export type SortKey = (typeof SORT_KEYS)[number];

export type RowFilter = { since?: string | null; until?: string | null; projects?: readonly string[] | null };

/** A local day `YYYY-MM-DD` (or `YYYYMMDD`) as [start, end) epoch ms; null when it is not one. */
function dayRange(day: string): [number, number] | null {
  const m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(day.trim());
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]) - 1, Number(m[3])];
  const start = new Date(y, mo, d);
  if (start.getFullYear() !== y || start.getMonth() !== mo || start.getDate() !== d) return null;
  return [start.getTime(), new Date(y, mo, d + 1).getTime()];
}

/** The local day `YYYY-MM-DD` of an epoch-ms time. */
export function dayOf(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

/** Rows that overlap [since, until] (whole local days) and belong to one of `projects` (all when empty). A
 *  session without times passes only when no date bound is set. Throws on a bound that is not a day. */
export function filterRows(rows: readonly SessionRow[], f: RowFilter): SessionRow[] {
  const since = f.since ? dayRange(f.since) : null;
  const until = f.until ? dayRange(f.until) : null;
  if (f.since && !since) throw new RangeError(`not a date (YYYY-MM-DD): ${f.since}`);
  if (f.until && !until) throw new RangeError(`not a date (YYYY-MM-DD): ${f.until}`);
  const projects = f.projects && f.projects.length > 0 ? new Set(f.projects) : null;
  return rows.filter((r) => {
    if (projects && !projects.has(r.project)) return false;
    if (!since && !until) return true;
    if (r.start === null || r.end === null) return false;
    if (since && r.end < since[0]) return false;
    if (until && r.start >= until[1]) return false;
    return true;
  });
}

function sortValue(r: SessionRow, key: SortKey): number | string | null {
  switch (key) {
    case 'duration':
      return r.start !== null && r.end !== null ? r.end - r.start : null;
    case 'models':
      return r.models.join(', ');
    case 'title':
      return r.title;
    default:
      return r[key];
  }
}

/** Rows sorted by a column; missing values (no usage, no times) always last. Stable. */
export function sortRows(rows: readonly SessionRow[], key: SortKey, dir: 'asc' | 'desc'): SessionRow[] {
  const sign = dir === 'asc' ? 1 : -1;
  return rows
    .map((r, i) => ({ r, i, v: sortValue(r, key) }))
    .sort((a, b) => {
      if (a.v === null || b.v === null) return a.v === b.v ? a.i - b.i : a.v === null ? 1 : -1;
      const c = typeof a.v === 'number' && typeof b.v === 'number' ? a.v - b.v : String(a.v).localeCompare(String(b.v));
      return c !== 0 ? sign * c : a.i - b.i;
    })
    .map((x) => x.r);
}

export type DayTotal = {
  /** Local day; 'undated' for sessions without times. */
  day: string;
  /** Sessions that billed (or sent a request) that day. */
  sessions: number;
  requests: number;
  /** Recorded (observed) dollars; sessions without usage add nothing. */
  usd: number;
  /** Observed cache reads / prompt tokens of the day; null without usage. */
  hitRate: number | null;
};

/** Day strings (digits and '-') in descending order, compared by code unit: the same order as `localeCompare`, without
 *  loading ICU's collation data (~6 ms of a `scan` whose rows all come from its cache). */
const newestFirst = (a: string, b: string) => (a < b ? 1 : a > b ? -1 : 0);

/** Totals per local day by each response's time, newest day first ('undated' last); with `f`'s date bounds, only
 *  the days inside them (its rows may run past them). */
export function dayTotals(rows: readonly SessionRow[], f: Pick<RowFilter, 'since' | 'until'> = {}): DayTotal[] {
  const since = f.since ? (dayRange(f.since)?.[0] ?? null) : null;
  const until = f.until ? (dayRange(f.until)?.[1] ?? null) : null;
  const days = new Map<string, DayTotal & { prompt: number; read: number; seen: SessionRow | null }>();
  const at = (day: string) => {
    let d = days.get(day);
    if (!d) {
      d = { day, sessions: 0, requests: 0, usd: 0, hitRate: null, prompt: 0, read: 0, seen: null };
      days.set(day, d);
    }
    return d;
  };
  for (const r of rows) {
    if (r.spend.length === 0) {
      if (since !== null || until !== null) continue;
      const d = at(r.start === null ? 'undated' : dayOf(r.start));
      d.sessions++;
      d.requests += r.requests;
      d.usd += r.usd ?? 0;
      d.prompt += r.promptTokens;
      d.read += r.cacheReadTokens;
      continue;
    }
    for (const [quarter, requests, usd, prompt, read] of r.spend) {
      const ms = quarter * QUARTER_MS;
      if ((since !== null && ms < since) || (until !== null && ms >= until)) continue;
      const d = at(dayOf(ms));
      if (d.seen !== r) {
        d.seen = r;
        d.sessions++;
      }
      d.requests += requests;
      d.usd += usd;
      d.prompt += prompt;
      d.read += read;
    }
  }
  return [...days.values()]
    .sort((a, b) => (a.day === 'undated' ? 1 : b.day === 'undated' ? -1 : newestFirst(a.day, b.day)))
    .map(({ prompt, read, seen: _, ...d }) => ({ ...d, hitRate: prompt > 0 ? read / prompt : null }));
}
