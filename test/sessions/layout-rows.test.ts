// The folder layout gives each session the companions `analyze` reads beside it (cli/node-input.ts), and the
// table's sort, project filter and per-day totals hold over the rows of the wild folder.
import { basename, join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { listFolder } from '../../src/cli/node-folder.ts';
import { companionFiles, fileFromPath } from '../../src/cli/node-input.ts';
import { parseTranscript } from '../../src/formats/index.ts';
import { sessionsOf } from '../../src/sessions/layout.ts';
import { dayOf, dayTotals, filterRows, SORT_KEYS, sortRows } from '../../src/sessions/rows.ts';
import { scanSessions } from '../../src/sessions/scan.ts';
import type { SessionRow } from '../../src/sessions/summary.ts';
import { describeWild, WILD_DIR } from '../helpers/fixtures.ts';

describeWild('folder layout and the table operations over the wild folder', () => {
  let rows: SessionRow[] = [];
  beforeAll(async () => {
    const seen: number[] = [];
    const r = await scanSessions(listFolder(WILD_DIR), {
      rootName: basename(WILD_DIR),
      open: (path, name) => ({ ...fileFromPath(join(WILD_DIR, path)), name }),
      progress: (p) => seen.push(p.done),
    });
    rows = r.rows;
    expect(seen[seen.length - 1]).toBe(rows.length);
    expect(seen.slice(0, -1)).toEqual([...Array(rows.length).keys()]);
  }, 60_000);

  it('gives every session the companion files analyze reads, under the same names', () => {
    for (const s of sessionsOf(listFolder(WILD_DIR), 'wild')) {
      const expected = companionFiles(join(WILD_DIR, s.path)).map((f) => f.name);
      expect(
        s.companions.map((c) => c.name),
        s.path,
      ).toEqual(expected);
    }
  });

  it('stops between sessions when cancelled', async () => {
    let asked = 0;
    const r = await scanSessions(listFolder(WILD_DIR), {
      rootName: 'wild',
      open: (path, name) => ({ ...fileFromPath(join(WILD_DIR, path)), name }),
      cancelled: () => ++asked > 3,
    });
    expect(r.cancelled).toBe(true);
    expect(r.rows.length + r.skipped.length).toBe(3);
  });

  it('sorts by every column with missing values last, either way', () => {
    for (const key of SORT_KEYS)
      for (const dir of ['asc', 'desc'] as const) {
        const sorted = sortRows(rows, key, dir);
        expect(sorted).toHaveLength(rows.length);
        const firstNull = sorted.findIndex((r) => (key === 'usd' ? r.usd : key === 'hitRate' ? r.hitRate : 0) === null);
        if (firstNull >= 0)
          expect(sorted.slice(firstNull).every((r) => (key === 'usd' ? r.usd : r.hitRate) === null)).toBe(true);
      }
    const byUsd = sortRows(rows, 'usd', 'desc')
      .filter((r) => r.usd !== null)
      .map((r) => r.usd as number);
    expect(byUsd).toEqual([...byUsd].sort((a, b) => b - a));
  });

  it('filters by project and totals per local day to the same sums', () => {
    const project = 'ccl--src-experiments-claude_p';
    const kept = filterRows(rows, { projects: [project] });
    expect(kept.map((r) => r.project)).toEqual([project, project]);
    const days = dayTotals(rows);
    expect(days.reduce((n, d) => n + d.requests, 0)).toBe(rows.reduce((n, r) => n + r.requests, 0));
    expect(days.reduce((n, d) => n + d.usd, 0)).toBeCloseTo(
      rows.reduce((n, r) => n + (r.usd ?? 0), 0),
      9,
    );
    // A session counts on every day it sent a request (one that runs past midnight, on both).
    const dated = rows.filter((r) => r.start !== null);
    const onDay = (r: SessionRow) => new Set(r.spend.map(([q]) => dayOf(q * 900_000)));
    for (const d of days.filter((x) => x.day !== 'undated'))
      expect(d.sessions).toBe(dated.filter((r) => onDay(r).has(d.day)).length);
    expect(days.reduce((n, d) => n + d.sessions, 0)).toBeGreaterThan(dated.length);
    expect(days[days.length - 1].day).toBe('undated');
  });

  it('counts each request on the local day of its own time, as the log dates it; bounds keep only their days', () => {
    // 9e953218 starts 2025-10-03 23:51 and runs 12 h 53 min: most of it was billed on the 4th.
    const path =
      'claude-code/projects/ccl--Users-dain-workspace-danieldemmel-me-next/9e953218-585f-4692-89df-9e0747a31c68.jsonl';
    const loaded = parseTranscript(fileFromPath(join(WILD_DIR, path)));
    if (!loaded.ok) throw new Error(loaded.error);
    const byDay = new Map<string, number>();
    for (const th of loaded.transcript.threads)
      for (const q of th.requests) {
        const day = dayOf(q.time ?? (rows.find((r) => r.path === path)?.start as number));
        byDay.set(day, (byDay.get(day) ?? 0) + 1);
      }
    expect(byDay.size).toBeGreaterThan(1);
    const row = rows.filter((r) => r.path === path);
    const all = dayTotals(row);
    expect(Object.fromEntries(all.map((d) => [d.day, d.requests]))).toEqual(Object.fromEntries(byDay));
    const last = [...byDay.keys()].sort().at(-1) as string;
    const bounded = dayTotals(row, { since: last, until: last });
    expect(bounded.map((d) => [d.day, d.requests])).toEqual([[last, byDay.get(last)]]);
    expect(bounded[0].usd).toBeLessThan(row[0].usd ?? 0);
  });
});

it('puts the newest day first, in the order localeCompare gives day strings (years of 3 to 5 digits too)', () => {
  const starts = [Date.UTC(2025, 0, 9), Date.UTC(2025, 0, 10), Date.UTC(999, 5, 1), Date.UTC(10000, 1, 1), 0];
  const rows = [...starts, null].map(
    (start) =>
      ({
        start,
        end: start,
        requests: 1,
        usd: null,
        promptTokens: 0,
        cacheReadTokens: 0,
        spend: start === null ? [] : [[Math.floor(start / 900_000), 1, 0, 0, 0]],
      }) as SessionRow,
  );
  const days = dayTotals(rows).map((d) => d.day);
  const dated = [...new Set(starts.map(dayOf))].sort((a, b) => b.localeCompare(a));
  expect(days).toEqual([...dated, 'undated']);
});
