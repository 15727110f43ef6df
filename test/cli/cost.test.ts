// The dollars the CLI reports (SPEC §8): the JSON contract (observed output, costUsd per request adding up to the
// session, totals.cost with the catalog, tokensAfterPipeline), the summary in dollars with a row per model, and a
// model the catalog lacks: "price unknown" until the user gives a price (`--set prices=…`), then priced as theirs.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/analyses/report.ts';
import { asst, jsonl, text, user } from '../helpers/claude-code-lines.ts';
import { runCapture } from '../helpers/cli.ts';
import { describeReal, realPath } from '../helpers/fixtures.ts';

const run = runCapture;

describeReal('dollars in the CLI report', () => {
  const trace = realPath('claude-trace/lemmy-test-traffic.redacted.jsonl');

  it('--json: observed output, costUsd per request, totals.cost by model with the catalog', async () => {
    const r = await run(['analyze', trace, '--json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as Report;
    const rec = report.totals.cost.recorded;
    expect(rec).not.toBeNull();
    if (!rec) return;
    expect(report.totals.cost.catalog).toMatchObject({ name: '@pydantic/genai-prices', version: '0.1.8' });
    expect(rec.basis).toBe('observed');
    expect(report.totals.cost.simulated.basis).toBe('estimated');
    expect(report.totals).toHaveProperty('tokensAfterPipeline');
    expect(report.totals).not.toHaveProperty('tokensOut');
    // every request with usage reports its output and its dollars; they add up to the session's
    let sum = 0;
    for (const q of report.requests) {
      expect(q).not.toHaveProperty('tokensOut');
      if (!q.observed) continue;
      expect(q.observed.output).toBeGreaterThan(0);
      expect(q.costUsd.recorded).not.toBeNull();
      sum += q.costUsd.recorded ?? 0;
    }
    expect(sum).toBeCloseTo(rec.requestsUsd, 9);
    expect(rec.usd).toBeCloseTo(rec.requestsUsd + rec.abandonedUsd + rec.noRequestUsd, 9);
    // the main conversation on Sonnet 4 and the side calls (titles, quota probes) on Haiku 3.5
    expect(rec.byModel.map((m) => m.model).sort()).toEqual(['claude-3-5-haiku-20241022', 'claude-sonnet-4-20250514']);
    const haiku = rec.byModel.find((m) => m.model.includes('haiku'));
    expect(haiku?.requests).toBe(47);
    expect(report.totals.cost.withoutPipeline?.basis).toBe('estimated');
  });

  it('the summary prints dollars: recorded → simulated, then a row per model', async () => {
    const r = await run(['analyze', trace]);
    expect(r.out).toMatch(/^cost \(USD, list prices of @pydantic\/genai-prices 0\.1\.8\): recorded \$0\.3798/m);
    expect(r.out).toMatch(/^ {2}claude-sonnet-4-20250514 +17 req +\$0\.3739/m);
    expect(r.out).toMatch(/^ {2}claude-3-5-haiku-20241022 +47 req +\$0\.0059/m);
    expect(r.out).not.toMatch(/input-token units/);
  });
});

describe('a model without a price', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tierscope-cost-'));
  const file = join(dir, 'acme.jsonl');
  const answer = asst('a1', 'u1', 'msg_1', [text('hello')]);
  (answer.message as Record<string, unknown>).model = 'acme-llm-7';
  writeFileSync(file, jsonl(user('u1', null, 'hi'), answer));

  it('says "price unknown" and how to give one, and leaves it out of the dollars', async () => {
    const r = await run(['analyze', file]);
    expect(r.out).toMatch(/acme-llm-7 .*price unknown/);
    expect(r.out).toMatch(/--set 'prices=\{"acme-llm-7"/);
    const report = JSON.parse((await run(['analyze', file, '--json'])).out) as Report;
    expect(report.totals.cost.recorded?.usd).toBe(0);
    expect(report.totals.cost.recorded?.unpriced).toEqual({ entries: 1, models: ['acme-llm-7'] });
    expect(report.requests[0].costUsd).toEqual({ recorded: null, simulated: null });
  });

  it('is priced at the prices the user gives, marked as theirs', async () => {
    const price = '{"acme-llm-7":{"input":2,"output":8,"cacheRead":0.2,"cacheWrite5m":2.5}}';
    const report = JSON.parse((await run(['analyze', file, '--json', '--set', `prices=${price}`])).out) as Report;
    const m = report.totals.cost.recorded?.byModel[0];
    expect(m).toMatchObject({ model: 'acme-llm-7', pricing: 'user' });
    // usage of the helper line: 3 input, 1000 cache read, 10 cache write, 5 output
    expect(report.totals.cost.recorded?.usd).toBeCloseTo((3 * 2 + 5 * 8 + 1000 * 0.2 + 10 * 2.5) / 1e6, 12);
    expect((await run(['analyze', file, '--set', 'prices={"acme-llm-7":{"input":-1,"output":1}}'])).code).toBe(2);
  });
});
