// The folder layout gives each session the companions `analyze` reads beside it (cli/node-input.ts), and the
// table's sort, project filter and per-day totals hold over the rows of the wild folder.
import { basename, join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { listFolder } from '../../src/cli/node-folder.ts';
import { companionFiles, fileFromPath } from '../../src/cli/node-input.ts';
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
    expect(days.reduce((n, d) => n + d.sessions, 0)).toBe(rows.length);
    expect(days.reduce((n, d) => n + d.requests, 0)).toBe(rows.reduce((n, r) => n + r.requests, 0));
    expect(days.reduce((n, d) => n + d.usd, 0)).toBeCloseTo(
      rows.reduce((n, r) => n + (r.usd ?? 0), 0),
      9,
    );
    const dated = rows.filter((r) => r.start !== null);
    for (const d of days.filter((x) => x.day !== 'undated'))
      expect(d.sessions).toBe(dated.filter((r) => dayOf(r.start as number) === d.day).length);
    expect(days[days.length - 1].day).toBe('undated');
  });
});

it('puts the newest day first, in the order localeCompare gives day strings (years of 3 to 5 digits too)', () => {
  const starts = [Date.UTC(2025, 0, 9), Date.UTC(2025, 0, 10), Date.UTC(999, 5, 1), Date.UTC(10000, 1, 1), 0];
  const rows = [...starts, null].map(
    (start) => ({ start, end: start, requests: 1, usd: null, promptTokens: 0, cacheReadTokens: 0 }) as SessionRow,
  );
  const days = dayTotals(rows).map((d) => d.day);
  const dated = [...new Set(starts.map(dayOf))].sort((a, b) => b.localeCompare(a));
  expect(days).toEqual([...dated, 'undated']);
});
