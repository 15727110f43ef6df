// Per-message annotations for the transcript and the detail pane: what the last run did to each
// message's tool results (tiers, spill, clear, summary, drop), the rewrite events that touch it and the
// pairing problems that name it. Pure, and memoised on its inputs (frozen arrays), so the row list and
// the detail pane share one computation per run and thread.

import type { EventRow, PairingViolation, Row, RunResult, ToolResultRow } from '../../protocol/index.ts';

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

function build(result: RunResult, thread: string, rows: readonly Row[]): Notes {
  const m = new Map<number, RowNotes>();
  for (const r of result.toolResults) if (r.thread === thread) slot(m, r.messageIndex).results.push(r);
  for (const e of result.events) if (e.thread === thread && e.messageIndex >= 0) slot(m, e.messageIndex).events.push(e);
  const pairs = result.pairing.filter((v) => v.thread === thread);
  if (pairs.length > 0) {
    const byId = idIndex(rows);
    for (const v of pairs) {
      const i = pairingRow(v, rows, byId);
      if (i >= 0) slot(m, i).pairing.push(v);
    }
  }
  return m;
}

let memo: { result: RunResult; thread: string; rows: readonly Row[]; notes: Notes } | undefined;

/** Annotations of the current thread's rows for a run (memoised on the last inputs). */
export function notesFor(result: RunResult | undefined, thread: string, rows: readonly Row[] | undefined): Notes {
  if (!result || !rows) return EMPTY;
  if (memo && memo.result === result && memo.thread === thread && memo.rows === rows) return memo.notes;
  const notes = build(result, thread, rows);
  memo = { result, thread, rows, notes };
  return notes;
}
