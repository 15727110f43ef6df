// Keyboard navigation over the transcript (j/k, [ ], n/N, t): pure moves on the current rows, applied
// through the view actions so the list scrolls the target into view.
import type { Row, ThreadInfo } from '../../protocol/index.ts';
import { threadRows, useStore } from '../../state/store.ts';
import { matchesOf, shownRows } from './search.ts';
import { useTranscriptUi } from './transcript-ui.ts';

function current(): { rows: readonly Row[]; shown: number[] | null; selected: number | null } | null {
  const s = useStore.getState();
  const rows = threadRows(s);
  if (!rows || rows.length === 0) return null;
  return { rows, shown: shownRows(rows, s.view.search, useTranscriptUi.getState().filter), selected: s.view.message };
}

/** Next/previous position in a sorted list of message indices relative to `from`. */
export function step(list: readonly number[], from: number | null, delta: 1 | -1, wrap = false): number | null {
  if (list.length === 0) return null;
  if (from === null) return delta > 0 ? list[0] : list[list.length - 1];
  if (delta > 0) {
    for (const i of list) if (i > from) return i;
    return wrap ? list[0] : list[list.length - 1];
  }
  for (let k = list.length - 1; k >= 0; k--) if (list[k] < from) return list[k];
  return wrap ? list[list.length - 1] : list[0];
}

/** j / k: the next or previous shown row. */
export function moveSelection(delta: 1 | -1): void {
  const c = current();
  if (!c) return;
  const list = c.shown ?? c.rows.map((r) => r.index);
  const next = step(list, c.selected, delta);
  if (next !== null) useStore.getState().viewActions.selectMessage(next, true);
}

/** n / N (and Enter in the search box): the next or previous search match, wrapping. */
export function jumpMatch(delta: 1 | -1): void {
  const c = current();
  const q = useStore.getState().view.search;
  if (!c || !q.trim()) return;
  const next = step(matchesOf(c.rows, q), c.selected, delta, true);
  if (next !== null) useStore.getState().viewActions.selectMessage(next, true);
}

/** [ / ]: the previous or next request's response message. */
export function jumpRequest(delta: 1 | -1): void {
  const c = current();
  if (!c) return;
  const responses = c.rows.filter((r) => r.request !== undefined).map((r) => r.index);
  const next = step(responses, c.selected, delta);
  if (next === null) return;
  const { viewActions } = useStore.getState();
  viewActions.selectMessage(next, true);
  viewActions.selectRequest(c.rows[next]?.request ?? null);
}

/** Threads in display order: main, sidechains, side calls. */
export function threadOrder(threads: readonly ThreadInfo[]): ThreadInfo[] {
  const rank = { main: 0, sidechain: 1, 'side-call': 2 } as const;
  return [...threads].sort((a, b) => rank[a.kind] - rank[b.kind]);
}

/** t / T: the next or previous thread. */
export function cycleThread(delta: 1 | -1): void {
  const s = useStore.getState();
  const threads = threadOrder(s.transcript.summary?.threads ?? []);
  if (threads.length < 2) return;
  const i = threads.findIndex((t) => t.id === s.view.thread);
  const next = threads[(i + delta + threads.length) % threads.length];
  s.viewActions.setThread(next.id);
}
