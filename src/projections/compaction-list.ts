// A compaction as the run's reply lists it: its facts and the counts the timeline's marker shows, without the probe
// items and re-fetch items (2.5 of the 2.7 MB of a 20k run's compactions; resent every slider step). The compaction
// view and the share dialog ask the engine for the open one whole (`engine.compaction(id)`).
import type { CompactionRow } from '../analyses/audit.ts';
import type { RefetchesAfter } from '../analyses/compaction-refetch.ts';
import { PROBE_KINDS } from '../analyses/probes.ts';

export type CompactionListRow = Omit<CompactionRow, 'probes' | 'anchoredProbes' | 'refetchesAfter'> & {
  /** Items of the span's ledger the summary kept and lost (every probe kind). */
  kept: number;
  lost: number;
  refetchesAfter: Omit<RefetchesAfter, 'items'>;
};

export function compactionListRow(row: CompactionRow): CompactionListRow {
  const { probes, anchoredProbes: _, refetchesAfter: after, ...facts } = row;
  let kept = 0;
  let lost = 0;
  for (const k of PROBE_KINDS) {
    kept += probes[k].kept.length;
    lost += probes[k].lost.length;
  }
  return { ...facts, kept, lost, refetchesAfter: { count: after.count, tokens: after.tokens, usd: after.usd } };
}
