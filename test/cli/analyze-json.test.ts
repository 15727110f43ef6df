// `tierscope analyze --json` on every real fixture: the SPEC §8 fields are present and a small summary
// of each report is snapshotted (counts, token totals, tiers, breaks, pairing, re-fetches).
import { expect, it } from 'vitest';
import type { Report } from '../../src/analyses/report.ts';
import { runCli } from '../../src/cli/main.ts';
import { describeReal, realPath } from '../helpers/fixtures.ts';

const FIXTURES = [
  'claude-code/ccviewer-fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl',
  'claude-code/ccviewer-5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl',
  'claude-code/ccviewer-1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl',
  'claude-code/synthetic-agentsessions-subagent/0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f.jsonl',
  'claude-trace/lemmy-test-traffic.redacted.jsonl',
  'codex/synthetic-agentsessions-codex-itemtypes.jsonl',
  'inspect/inspect-browser-gpt4o-mini.json',
  'openai-chat/inspect-browser-gpt4o-mini.chat-completions.jsonl',
  'swe-agent/swe-agent-marshmallow-1867-function-calling-replace.traj',
];

async function json(args: string[]): Promise<Report> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (s) => out.push(s), err: (s) => err.push(s) });
  if (code !== 0) throw new Error(err.join('\n'));
  return JSON.parse(out.join('\n')) as Report;
}

function histogram(xs: (string | number | null)[]): Record<string, number> {
  const h: Record<string, number> = {};
  for (const x of xs) h[String(x)] = (h[String(x)] ?? 0) + 1;
  return h;
}

function summary(r: Report) {
  return {
    format: r.format,
    counts: r.counts,
    errors: r.parseIssues.filter((i) => i.severity === 'error').length,
    tokensIn: r.totals.tokensIn,
    tokensAfterPipeline: r.totals.tokensAfterPipeline,
    observedHitRate: r.totals.observed ? Number(r.totals.observed.hitRate?.toFixed(3)) : null,
    simulatedHitRate: Number(r.totals.simulated.hitRate.toFixed(3)),
    // Dollars at the pinned catalog's prices: recorded (observed usage) and simulated, per model.
    recordedUsd: r.totals.cost.recorded ? Number(r.totals.cost.recorded.usd.toFixed(4)) : null,
    simulatedUsd: Number(r.totals.cost.simulated.usd.toFixed(4)),
    models: (r.totals.cost.recorded ?? r.totals.cost.simulated).byModel.map(
      (m) => `${m.model}: ${m.usd === null ? 'price unknown' : m.usd.usd.toFixed(4)} (${m.requests} req)`,
    ),
    tiers: histogram(r.toolResults.map((x) => x.tier)),
    observedBreaks: histogram(r.requests.map((q) => q.observedBreak?.cause ?? null).filter(Boolean)),
    simulatedBreaks: histogram(r.requests.map((q) => q.cacheBreak?.cause ?? null).filter(Boolean)),
    pairing: histogram(r.pairing.map((v) => `${v.stage}:${v.rule}:${v.severity}`)),
    refetches: histogram(r.refetches.map((x) => x.kind)),
    firstToolUseId: r.toolResults[0]?.toolUseId ?? null,
    lastToolUseId: r.toolResults.at(-1)?.toolUseId ?? null,
  };
}

describeReal('analyze --json on the real fixtures', () => {
  for (const f of FIXTURES) {
    it(`${f}: SPEC §8 fields and summary`, async () => {
      const r = await json(['analyze', realPath(f), '--json']);
      for (const k of [
        'format',
        'parseIssues',
        'counts',
        'pairing',
        'toolResults',
        'requests',
        'refetches',
        'totals',
      ]) {
        expect(r).toHaveProperty(k);
      }
      for (const q of r.requests) {
        expect(Object.keys(q)).toEqual(
          expect.arrayContaining([
            'thread',
            'index',
            'tokensIn',
            'estimateIn',
            'tokensAfterPipeline',
            'observed',
            'costUsd',
            'simulated',
            'events',
            'cacheBreak',
            'observedBreak',
          ]),
        );
      }
      for (const x of r.toolResults) {
        expect(Object.keys(x)).toEqual(
          expect.arrayContaining([
            'thread',
            'toolUseId',
            'tool',
            'messageIndex',
            'chars',
            'tokens',
            'tier',
            'firstTouchRequest',
            'distanceAtFirstTouch',
            'floor',
            'spilled',
            'summarized',
            'cleared',
            'inSummary',
            'dropped',
            'finalChars',
          ]),
        );
      }
      expect(summary(r)).toMatchSnapshot();
    });
  }

  it('a small window makes the fe5e1c67 sub-agents tier and the CLI reports tiers and breaks', async () => {
    const r = await json([
      'analyze',
      realPath(FIXTURES[0]),
      '--json',
      '--set',
      'contextWindow=30000',
      '--set',
      'outputReserve=2000',
      '--mode',
      'raw',
    ]);
    expect(r.settings.mode).toBe('raw');
    expect(r.toolResults.some((x) => x.tier === 1)).toBe(true);
    expect(r.toolResults.some((x) => x.tier === 2)).toBe(true);
    expect(r.requests.some((q) => q.cacheBreak !== null)).toBe(true);
  });
});
