// The share dialog asks the engine for the re-fetches a view names (the run's reply carries only the trade-off's
// count and tokens): on a real session replayed raw in a 60k window, where the pipeline's tiers make calls be
// fetched again, the listed ones come back by either call's id, in the report's order, and only those.
import { expect, it } from 'vitest';
import { fileFromPath } from '../../src/cli/node-input.ts';
import { mergeConfig } from '../../src/pipeline/config.ts';
import { presetConfig } from '../../src/pipeline/presets.ts';
import type { RunResult } from '../../worker/api.ts';
import { createEngine } from '../../worker/create-engine.ts';
import { describeWild, wildPath } from '../helpers/fixtures.ts';

const CC =
  'claude-code/projects/paismart--Users-pretor-Documents-PAI---TPOS/24a90d02-9724-4548-9f4f-97bcb9f93ef3.jsonl';

describeWild('refetchesOf', () => {
  it('answers the listed re-fetches named by their first or repeated call, and the risk matches them', async () => {
    const engine = createEngine({ openPath: (p) => fileFromPath(p) });
    expect(await engine.refetchesOf(['x'])).toBeNull(); // nothing has run
    const loaded = await engine.load([{ name: 'cc.jsonl', path: wildPath(CC) }], undefined);
    expect(loaded.ok).toBe(true);
    const config = mergeConfig(presetConfig('seeds'), { contextWindow: 60000 });
    const r = (await engine.run(1, {
      preset: 'seeds',
      config,
      mode: 'raw',
      provider: 'anthropic',
      encoding: 'o200k_base',
    })) as RunResult;
    const all = (await engine.report())?.refetches ?? [];
    const listed = all.filter((f) => f.kind === 'after-pipeline' || f.kind === 'after-agent-compaction');
    const after = all.filter((f) => f.kind === 'after-pipeline');
    expect(after.length).toBeGreaterThan(0);
    expect(all.length).toBeGreaterThan(listed.length); // plain repeats are never listed
    expect(r.refetchRisk).toEqual({ count: after.length, tokens: after.reduce((n, f) => n + f.tokens, 0) });
    expect(await engine.refetchesOf(all.map((f) => f.firstToolUseId))).toEqual(listed);
    for (const f of listed.slice(0, 5)) {
      expect(await engine.refetchesOf([f.repeatToolUseId])).toContainEqual(f);
      expect(await engine.refetchesOf([f.firstToolUseId])).toContainEqual(f);
    }
    expect(await engine.refetchesOf(['toolu_none'])).toEqual([]);
  });
});
