// Everything a run shows, as comparable data (Maps and typed arrays spelled out): what the warm = fresh tests
// compare and what scripts/run-hash.ts hashes before and after a speed change.
import type { Analysis } from '../../src/analyses/analyze.ts';

export function runFingerprint(a: Analysis): unknown {
  return {
    report: a.report,
    refetches: a.refetches,
    simulated: a.simulated,
    observed: a.observed,
    threads: a.replay.threads.map((tr) => ({
      thread: tr.thread,
      calibration: tr.calibration,
      fates: [...tr.fates.entries()],
      folded: tr.folded,
      requests: tr.requests,
    })),
  };
}
