// Why the pipeline did nothing, and the what-ifs: from plain inputs (each rule), and on a real Claude Code 2.0
// session where the agent compacts below the default trigger — the line names the compaction and the trigger,
// and each what-if, applied through the engine, makes the pipeline tier results.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type IdleInput, idleReason, windowForTrigger } from '../../src/analyses/idle-reason.ts';
import { withLogDefaults } from '../../src/analyses/settings-origin.ts';
import { triggerTokens } from '../../src/pipeline/config.ts';
import { presetConfig } from '../../src/pipeline/presets.ts';
import type { RunResult, RunSettings } from '../../worker/api.ts';
import { createEngine } from '../../worker/create-engine.ts';
import { describeWild, wildPath } from '../helpers/fixtures.ts';
import { runRows } from '../helpers/run-rows.ts';

const seeds = presetConfig('seeds');
const input = (over: Partial<IdleInput> = {}): IdleInput => ({
  config: seeds,
  mode: 'recorded',
  requests: [
    { thread: 'main', index: 0, estimateIn: 20_000 },
    { thread: 'main', index: 1, estimateIn: 95_400 },
    { thread: 'main', index: 2, estimateIn: 60_000 },
  ],
  eventStages: [],
  agentCompactions: [],
  resultMessages: () => new Map([['main', 30]]),
  ...over,
});

describe('idle reason', () => {
  it('names the largest request and the trigger, and offers a window that makes the pipeline act', () => {
    const r = idleReason(input());
    expect(r?.text).toBe(
      "The largest request is ≈95k (request 1), below this preset's trigger of 160k (80% of 200k): the pipeline never ran.",
    );
    expect(r?.peak).toEqual({ thread: 'main', request: 1, tokens: 95_400 });
    const act = r?.actions[0];
    expect(act?.kind).toBe('set');
    if (act?.kind !== 'set') return;
    // The trigger lands at or under ¾ of the largest request, and the hard cap stays above the trigger.
    const c = { ...seeds, ...act.values };
    expect(c.contextWindow % 1000).toBe(0);
    expect(triggerTokens(c)).toBeLessThanOrEqual(95_400 * 0.75);
    expect(triggerTokens({ ...c, contextWindow: c.contextWindow + 1000 })).toBeGreaterThan(95_400 * 0.75);
    expect(c.contextWindow - c.outputReserve).toBeGreaterThan(triggerTokens(c));
  });

  it('says the agent compacted below the trigger, with raw mode and the agent’s own point as what-ifs', () => {
    const r = idleReason(
      input({
        agentCompactions: [
          { thread: 'main', request: 3, preTokens: 155_000 },
          { thread: 'main', request: 9, preTokens: 118_000 },
        ],
      }),
    );
    expect(r?.text).toBe(
      "The agent compacted 2 times at 118k–155k, below this preset's trigger of 160k (80% of 200k): the pipeline never ran (largest request ≈95k).",
    );
    expect(r?.actions.map((a) => a.kind)).toEqual(['mode', 'set']);
    const set = r?.actions[1];
    if (set?.kind !== 'set') throw new Error('no window what-if');
    expect(triggerTokens({ ...seeds, ...set.values })).toBeLessThanOrEqual(118_000);
  });

  it('is null once a lossy stage ran, when every such stage is off, or without requests', () => {
    expect(idleReason(input({ eventStages: ['spill', 'tiers'] }))).toBeNull();
    expect(idleReason(input({ eventStages: ['spill'] }))).not.toBeNull();
    expect(idleReason(input({ config: presetConfig('none') }))).toBeNull();
    expect(idleReason(input({ requests: [] }))).toBeNull();
  });

  it('explains a trigger reached with too few tool results to tier', () => {
    const r = idleReason(
      input({
        requests: [{ thread: 'main', index: 4, estimateIn: 170_000 }],
        resultMessages: () => new Map([['main', 5]]),
      }),
    );
    expect(r?.text).toMatch(/reached at request 4, but no thread has more than 5 tool-result messages/);
    expect(r?.actions).toEqual([]);
  });

  it('finds the largest window whose trigger is under a target, with a buffer trigger too', () => {
    expect(windowForTrigger(seeds, 126_400)).toEqual({ contextWindow: 158_000, outputReserve: 15_000 });
    const kocoro = { ...seeds, triggerRatio: 0.9, triggerBufferTokens: 60_000 };
    const w = windowForTrigger(kocoro, 100_000).contextWindow;
    expect(triggerTokens({ ...kocoro, contextWindow: w })).toBeLessThanOrEqual(100_000);
    expect(triggerTokens({ ...kocoro, contextWindow: w + 1000 })).toBeGreaterThan(100_000);
  });
});

const CC20 =
  'claude-code/projects/paismart--Users-pretor-Documents-PAI---TPOS/24a90d02-9724-4548-9f4f-97bcb9f93ef3.jsonl';

describeWild('idle reason on a Claude Code 2.0 session with the agent’s compaction', () => {
  it('explains the empty tier column and each what-if tiers results', async () => {
    const engine = createEngine();
    const summary = await engine.load(
      [{ name: 'session.jsonl', buffer: new Uint8Array(readFileSync(wildPath(CC20))).buffer }],
      undefined,
    );
    if (!summary.ok) throw new Error(summary.error);
    const base: RunSettings = {
      preset: 'seeds',
      config: withLogDefaults(seeds, summary.defaults),
      mode: 'recorded',
      provider: 'anthropic',
      encoding: 'o200k_base',
    };
    const r = (await engine.run(1, base)) as RunResult;
    expect((await runRows(engine, r)).toolResults.filter((x) => x.tier !== null)).toHaveLength(0);
    expect(r.notes.tiers).toEqual([]);
    expect(r.idle?.text).toMatch(/^The agent compacted once at 126k, below this preset's trigger of 160k/);
    let id = 2;
    for (const a of r.idle?.actions ?? []) {
      const s = a.kind === 'mode' ? { ...base, mode: a.mode } : { ...base, config: { ...base.config, ...a.values } };
      const after = (await engine.run(id++, s)) as RunResult;
      expect(after.idle, a.label).toBeNull();
      const rows = (await runRows(engine, after)).toolResults;
      expect(rows.filter((x) => x.tier === 1 || x.tier === 2).length, a.label).toBeGreaterThan(0);
    }
    expect(id).toBe(4);
  }, 60_000);
});
