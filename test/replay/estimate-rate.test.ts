// What the pipeline removes is valued at the request's calibrated rate (calibration.ts `rate`), not the fitted
// factor: on a real Claude Code session whose observed prompt grows faster than factor × counted (unlogged
// content rides on its messages), every request's estimate after the pipeline moves from its input estimate by
// rate × the counted tokens the pipeline changed, and the rate is the messages' observed average.
import { expect, it } from 'vitest';
import { describeWild, loadWild } from '../helpers/fixtures.ts';
import { run } from '../helpers/replay.ts';

const REL = 'claude-code/projects/ccl--Users-dain-workspace-JSSoundRecorder/7acd37a8-2745-4b58-a8a9-46164b22ad9e.jsonl';

describeWild('the output estimate moves at the calibrated rate', () => {
  it('estimateOut = estimateIn + rate × (counted out − counted in), with the rate above the factor here', async () => {
    const t = loadWild(REL);
    const r = await run(t, {
      preset: 'seeds',
      set: { contextWindow: 40_000, outputReserve: 2_000, triggerRatio: 0.6 },
    });
    const tr = r.threads[0];
    const cal = tr.calibration;
    let changed = 0;
    for (const q of tr.requests) {
      const rate = cal.requests[q.index].rate;
      expect(q.estimateOut).toBeCloseTo(q.estimateIn + rate * (q.outputTokens - q.inputTokens), 6);
      if (q.outputTokens < q.inputTokens) changed++;
    }
    expect(changed).toBeGreaterThan(10);
    // The session's prompt grows by more than the factor per counted token: its later requests' rate says so.
    const last = cal.requests.at(-1);
    expect(last?.rate).toBeGreaterThan(cal.factor + 0.1);
    // And the rate is what the input estimate holds per counted token beyond the segment's first offset.
    const first = cal.requests[0];
    expect(last?.rate).toBeCloseTo(
      ((last?.estimate ?? 0) - first.offset - cal.factor * (last?.prefix ?? 0)) / (last?.counted ?? 1),
      6,
    );
  });
});
