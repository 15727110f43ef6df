// Per-message annotations for the transcript and the detail pane: what the last run did to each
// message's tool results (tiers, spill, clear, summary, drop) and the rewrite events that touch it, from the
// window of notes the engine sent for the rows shown (use-notes.ts), and the pairing problems that name it (the
// run's pairing list, memoised per run and thread). Pure.

import type { EventRow, PairingViolation, Row, RunResult, ToolResultRow, WindowNotes } from '../../protocol/index.ts';

export type RowNotes = {
  results: ToolResultRow[];
  events: EventRow[];
  pairing: PairingViolation[];
};

export type Notes = ReadonlyMap<number, RowNotes>;

const EMPTY: Notes = new Map();

function slot(m: Map<number, RowNotes>, i: number): RowNotes {
  let n = m.get(i);
  if (!n) {
    n = { results: [], events: [], pairing: [] };
    m.set(i, n);
  }
  return n;
}

/**
 * The message a pairing violation names. The replay has made `messageIndex` the thread's message index (the
 * transcript row; -1 when the validated message is not one of the thread's, e.g. a summary the pipeline wrote) and
 * kept the list position in `position`. When the violation names a tool id and that row does not carry it (a stage's
 * output moved or merged it), the nearest row that does is taken.
 */
export function pairingRow(v: PairingViolation, rows: readonly Row[], byId: ReadonlyMap<string, number[]>): number {
  const at = rows[v.messageIndex];
  if (!v.toolUseId) return at ? v.messageIndex : -1;
  if (at?.toolUseIds.includes(v.toolUseId)) return v.messageIndex;
  const cands = byId.get(v.toolUseId) ?? [];
  let best = -1;
  for (const c of cands) if (best < 0 || Math.abs(c - v.messageIndex) < Math.abs(best - v.messageIndex)) best = c;
  return best >= 0 ? best : at ? v.messageIndex : -1;
}

/** Rows carrying each tool_use id (as a call or as a result). */
export function idIndex(rows: readonly Row[]): Map<string, number[]> {
  const m = new Map<string, number[]>();
  for (const r of rows)
    for (const id of r.toolUseIds) {
      const l = m.get(id);
      if (l) l.push(r.index);
      else m.set(id, [r.index]);
    }
  return m;
}

/** The pairing problems of a thread's rows, by row (the whole thread: the heatmap marks every one). */
function pairingOf(result: RunResult, thread: string, rows: readonly Row[]): ReadonlyMap<number, PairingViolation[]> {
  const m = new Map<number, PairingViolation[]>();
  const pairs = result.pairing.filter((v) => v.thread === thread);
  if (pairs.length === 0) return m;
  const byId = idIndex(rows);
  for (const v of pairs) {
    const i = pairingRow(v, rows, byId);
    if (i < 0) continue;
    const l = m.get(i);
    if (l) l.push(v);
    else m.set(i, [v]);
  }
  return m;
}

let pairingMemo:
  | { result: RunResult; thread: string; rows: readonly Row[]; rowsPairing: ReadonlyMap<number, PairingViolation[]> }
  | undefined;

/** The pairing problems of the current thread's rows for a run (memoised on the last inputs). */
export function pairingByRow(
  result: RunResult | undefined,
  thread: string,
  rows: readonly Row[] | undefined,
): ReadonlyMap<number, PairingViolation[]> {
  if (!result || !rows) return EMPTY_PAIRING;
  const p = pairingMemo;
  if (p && p.result === result && p.thread === thread && p.rows === rows) return p.rowsPairing;
  const rowsPairing = pairingOf(result, thread, rows);
  pairingMemo = { result, thread, rows, rowsPairing };
  return rowsPairing;
}

const EMPTY_PAIRING: ReadonlyMap<number, PairingViolation[]> = new Map();

/** Annotations of the current thread's rows: the tool results and rewrite events of the window the engine sent
 *  (the rows on screen; none for rows outside it) and the run's pairing problems (every row). */
export function notesFor(
  result: RunResult | undefined,
  thread: string,
  rows: readonly Row[] | undefined,
  window: WindowNotes | null,
): Notes {
  if (!result || !rows) return EMPTY;
  const m = new Map<number, RowNotes>();
  if (window && window.thread === thread) {
    for (const r of window.results) slot(m, r.messageIndex).results.push(r);
    for (const e of window.events) slot(m, e.messageIndex).events.push(e);
  }
  for (const [i, list] of pairingByRow(result, thread, rows)) slot(m, i).pairing = list;
  return m;
}
