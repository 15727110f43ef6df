// Row search: a case-insensitive substring of the preview, the tool names or the role. Haystacks are
// built once per row array; the match list is memoised on (rows, query) so the list, the key handler and
// the heatmap agree without recomputing.
import type { Row } from '../../protocol/index.ts';

const hay = new WeakMap<readonly Row[], string[]>();

function haystacks(rows: readonly Row[]): string[] {
  let h = hay.get(rows);
  if (!h) {
    h = rows.map((r) => `${r.role} ${r.tools.join(' ')} ${r.preview}`.toLowerCase());
    hay.set(rows, h);
  }
  return h;
}

let memo: { rows: readonly Row[]; query: string; matches: number[] } | undefined;

/** Indices (ascending) of the rows matching `query`; every row when the query is blank. */
export function matchesOf(rows: readonly Row[], query: string): number[] {
  const q = query.trim().toLowerCase();
  if (memo && memo.rows === rows && memo.query === q) return memo.matches;
  let matches: number[];
  if (!q) matches = rows.map((_, i) => i);
  else {
    const h = haystacks(rows);
    matches = [];
    for (let i = 0; i < h.length; i++) if (h[i].includes(q)) matches.push(i);
  }
  memo = { rows, query: q, matches };
  return matches;
}

/** The rows the list shows: all of them, or only the matches when filtering a non-blank query. */
export function shownRows(rows: readonly Row[], query: string, filter: boolean): number[] | null {
  return filter && query.trim() ? matchesOf(rows, query) : null;
}
