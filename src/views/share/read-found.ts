// What minimize's candidates need beyond the run's reply (predicates.ts `Found`): the open compaction whole, the
// re-fetches named by the selected row's or that compaction's tool ids, and the selected message's tool results,
// read from the engine when the share dialog opens (the reply lists compactions without items and carries no
// re-fetch, tool-result or event rows: a 20k run has ~4,000, ~34,000 and ~20,000 of them).
import type { Row } from '../../protocol/index.ts';
import { engine } from '../../state/engine-client.ts';
import type { UrlView } from '../../state/url-state.ts';
import { type Found, refetchIds } from './predicates.ts';

/** `runId`: the run on screen (its selected message's tool results; none once another run is the last). */
export async function readFound(
  view: Pick<UrlView, 'thread' | 'message' | 'request' | 'compaction'>,
  rows: readonly Row[] | undefined,
  runId: number | undefined,
): Promise<Found> {
  const open = view.compaction ? ((await engine().compaction(view.compaction))?.row ?? undefined) : undefined;
  const ids = refetchIds(view, rows, open);
  const refetches = ids.length > 0 ? ((await engine().refetchesOf(ids)) ?? []) : [];
  const m = view.message;
  const notes = m !== null && runId !== undefined ? await engine().notes(runId, view.thread, m, m + 1) : null;
  return { open, refetches, results: notes?.results ?? [] };
}
