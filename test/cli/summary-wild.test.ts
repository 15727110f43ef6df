// The terminal summary of `analyze` on real logs, read as a user reads it: counts in the singular when they are
// one, and a log that records no usage says so for the recorded tokens per task instead of printing 0.
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runCapture } from '../helpers/cli.ts';
import { describeWild, WILD_DIR } from '../helpers/fixtures.ts';

describeWild('analyze summary on wild logs', () => {
  it('a SWE-agent trajectory without usage: one thread, one task, recorded n/a', async () => {
    const r = await runCapture(['analyze', join(WILD_DIR, 'swe-agent/sweagent-6e44b9__sweagenttestrepo-1c2844.traj')]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^1 thread · 11 messages · 5 requests · 5 tool uses · 4 tool results$/m);
    expect(r.out).toMatch(/^tokens per task: 1 task, recorded n\/a \(no usage in the log\), this run ≈7132/m);
  });

  it('a Codex rollout with usage keeps its recorded tokens per task', async () => {
    const r = await runCapture([
      'analyze',
      join(WILD_DIR, 'codex/neurodata-rollout-2025-09-29T13-09-19-01999469-65fd-7fa2-ab93-d24bb4c714cb.jsonl'),
    ]);
    expect(r.out).toMatch(/^ {2}main {6}main {2}51 msgs, 24 requests$/m);
    expect(r.out).toMatch(/^tokens per task: 1 task, recorded 227\.0k, this run ≈/m);
  });
});
