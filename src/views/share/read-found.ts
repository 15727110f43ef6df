// What minimize's candidates need beyond the run's reply (predicates.ts `Found`): the open compaction whole and the
// re-fetches named by the selected row's or that compaction's tool ids, read from the engine when the share dialog
// opens (the reply lists compactions without items and carries no re-fetch rows: a 20k run has ~4,000 of them).
import type { Row } from '../../protocol/index.ts';
import { engine } from '../../state/engine-client.ts';
import type { UrlView } from '../../state/url-state.ts';
import { type Found, refetchIds } from './predicates.ts';

export async function readFound(
  view: Pick<UrlView, 'thread' | 'message' | 'request' | 'compaction'>,
  rows: readonly Row[] | undefined,
): Promise<Found> {
  const open = view.compaction ? ((await engine().compaction(view.compaction))?.row ?? undefined) : undefined;
  const ids = refetchIds(view, rows, open);
  const refetches = ids.length > 0 ? ((await engine().refetchesOf(ids)) ?? []) : [];
  return { open, refetches };
}
