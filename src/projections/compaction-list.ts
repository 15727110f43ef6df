// A compaction as the run's reply lists it: its facts and the counts the timeline's marker shows, without the probe
// items and re-fetch items (2.5 of the 2.7 MB of a 20k run's compactions; resent every slider step). The compaction
// view and the share dialog ask the engine for the open one whole (`engine.compaction(id)`).
import type { CompactionRow } from '../analyses/audit.ts';
import type { RefetchesAfter } from '../analyses/compaction-refetch.ts';
import { PROBE_KINDS } from '../analyses/probes.ts';

export type CompactionListRow = Omit<
  CompactionRow,
  'probes' | 'anchoredProbes' | 'anchoredTokens' | 'refetchesAfter'
> & {
  /** Items of the span's ledger the summary kept and lost (every probe kind). */
  kept: number;
  lost: number;
  refetchesAfter: Omit<RefetchesAfter, 'items'>;
};

/** The row's facts picked one by one: Tierscope's anchored summary of the span (its tokens and probes) is made when
 *  first read, and only the compaction view reads it. */
export function compactionListRow(row: CompactionRow): CompactionListRow {
  const { probes, refetchesAfter: after } = row;
  let kept = 0;
  let lost = 0;
  for (const k of PROBE_KINDS) {
    kept += probes[k].kept.length;
    lost += probes[k].lost.length;
  }
  return {
    id: row.id,
    thread: row.thread,
    source: row.source,
    request: row.request,
    trigger: row.trigger,
    messageIndex: row.messageIndex,
    line: row.line,
    span: row.span,
    preTokens: row.preTokens,
    preTokensBasis: row.preTokensBasis,
    opaque: row.opaque,
    summaryTokens: row.summaryTokens,
    kept,
    lost,
    refetchesAfter: { count: after.count, tokens: after.tokens, usd: after.usd },
  };
}
