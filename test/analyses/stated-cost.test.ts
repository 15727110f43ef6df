// Where a log states the run's cost (SWE-agent and mini-swe-agent `info.model_stats.instance_cost`), the self-check
// holds our dollars against it: recorded dollars (the log's usage at list prices) that miss it by more than 3% are a
// warning — the wild2 DeepSeek run, priced by the catalog at deepseek-chat's older prices — and an estimate (a log
// with no usage) that misses it is said, not flagged.
import { expect, it } from 'vitest';
import type { CostReport } from '../../src/analyses/cost.ts';
import type { Report } from '../../src/analyses/report.ts';
import { costCheck } from '../../src/analyses/self-check.ts';
import type { Transcript } from '../../src/model/transcript.ts';
import { runCapture } from '../helpers/cli.ts';
import { describeWild, WILD2_DIR, wildPath } from '../helpers/fixtures.ts';

const totals = (usd: number) => ({ usd }) as CostReport['simulated'];
const withCost = (cost: number | undefined) =>
  ({ meta: { extra: cost === undefined ? {} : { 'model_stats.instance_cost': cost } } }) as unknown as Transcript;

it('recorded dollars within 3% of the stated cost agree; further off they do not; no stated cost, no check', () => {
  const report = (recorded: number | null, without?: number) =>
    ({
      recorded: recorded === null ? null : totals(recorded),
      simulated: totals(0),
      ...(without !== undefined ? { withoutPipeline: totals(without) } : {}),
    }) as CostReport;
  expect(costCheck(withCost(1), report(1.02))).toMatchObject({ basis: 'recorded', agrees: true, log: 1, ours: 1.02 });
  expect(costCheck(withCost(1), report(1.05))).toMatchObject({ basis: 'recorded', agrees: false });
  expect(costCheck(withCost(2), report(null, 1))).toMatchObject({ basis: 'estimated', agrees: false, miss: -0.5 });
  expect(costCheck(withCost(undefined), report(1))).toBeNull();
  expect(costCheck(withCost(0), report(1))).toBeNull();
});

describeWild('stated costs of the real trajectories', () => {
  const analyzed = async (path: string) => {
    const r = await runCapture(['analyze', path, '--json']);
    expect(r.code).toBe(0);
    return JSON.parse(r.out) as Report;
  };

  it('mini-swe-agent (DeepSeek): recorded dollars +70% from the log’s own cost are a warning', async () => {
    const r = await analyzed(`${WILD2_DIR}/mini-swe-agent/minisweagent-django__django-11039.traj.json`);
    const c = r.selfCheck.cost;
    expect(c).toMatchObject({ basis: 'recorded', agrees: false });
    expect(c?.log).toBeCloseTo(0.030150428, 12);
    expect(c?.ours).toBeCloseTo(r.totals.cost.recorded?.usd ?? Number.NaN, 10);
    expect(r.selfCheck.ok).toBe(false);
    expect(r.selfCheck.summary).toMatch(/recorded dollars \$0\.0512 are \+69\.\d% from the log's own cost \$0\.0302/);
  }, 120_000);

  it('SWE-agent (no usage): the estimate’s miss is said, not flagged', async () => {
    const r = await analyzed(wildPath('swe-agent/sweagent-6e44b9__sweagenttestrepo-1c2844.traj'));
    expect(r.selfCheck.cost).toMatchObject({ basis: 'estimated' });
    expect(r.selfCheck.cost?.log).toBeCloseTo(0.01952, 12);
    expect(r.selfCheck.cost?.ours).toBeCloseTo(r.totals.cost.withoutPipeline?.usd ?? Number.NaN, 10);
    expect(r.selfCheck.summary).toMatch(/estimated dollars \$[\d.]+ are [+−][\d.]+% from the log's own cost \$0\.0195/);
    expect(r.selfCheck.ok).toBe(r.selfCheck.flagged.length === 0 && r.selfCheck.totals.every((x) => x.agrees));
  }, 120_000);
});
