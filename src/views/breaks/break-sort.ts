// The breaks table's order: observed breaks (what the log proves) listed apart from simulated ones (what the
// replay predicts), each group sorted by the chosen column; what is out of the zoomed range or of a hidden source
// left out. Pure, so the table's order is tested without a browser.
import type { BreakRow } from '../../protocol/index.ts';

export type BreakSortKey = 'request' | 'time' | 'cause' | 'tokens' | 'usd';
export type SortDir = 'asc' | 'desc';

/** A line of the table: a group's heading or a break. */
export type BreakItem = { kind: 'group'; source: BreakRow['source']; count: number } | { kind: 'row'; row: BreakRow };

/** Larger first by default for amounts, earliest first for places. */
export const DEFAULT_DIR: Record<BreakSortKey, SortDir> = {
  request: 'asc',
  time: 'asc',
  cause: 'asc',
  tokens: 'desc',
  usd: 'desc',
};

type Filter = {
  sources: ReadonlySet<BreakRow['source']>;
  /** Only breaks of requests in view (the zoomed range); null: all. */
  has: ((thread: string, request: number) => boolean) | null;
};

function compare(key: BreakSortKey, threadRank: ReadonlyMap<string, number>) {
  const place = (a: BreakRow, b: BreakRow) =>
    (threadRank.get(a.thread) ?? 0) - (threadRank.get(b.thread) ?? 0) || a.request - b.request;
  switch (key) {
    case 'request':
      return place;
    case 'time':
      return (a: BreakRow, b: BreakRow) => (a.time ?? 0) - (b.time ?? 0) || place(a, b);
    case 'cause':
      return (a: BreakRow, b: BreakRow) => a.cause.localeCompare(b.cause) || place(a, b);
    case 'tokens':
      return (a: BreakRow, b: BreakRow) => a.tokens - b.tokens || place(a, b);
    case 'usd':
      // Unpriced breaks sort as the cheapest; ties by tokens.
      return (a: BreakRow, b: BreakRow) => (a.usd ?? -1) - (b.usd ?? -1) || a.tokens - b.tokens || place(a, b);
  }
}

/** The table's lines: each source's heading then its breaks in order (a source with none shows no heading). */
export function breakItems(
  rows: readonly BreakRow[],
  key: BreakSortKey,
  dir: SortDir,
  threadRank: ReadonlyMap<string, number>,
  filter: Filter,
): BreakItem[] {
  const cmp = compare(key, threadRank);
  const sign = dir === 'asc' ? 1 : -1;
  const out: BreakItem[] = [];
  for (const source of ['observed', 'simulated'] as const) {
    if (!filter.sources.has(source)) continue;
    const group = rows.filter((r) => r.source === source && (!filter.has || filter.has(r.thread, r.request)));
    if (group.length === 0) continue;
    group.sort((a, b) => sign * cmp(a, b));
    out.push({ kind: 'group', source, count: group.length });
    for (const row of group) out.push({ kind: 'row', row });
  }
  return out;
}
