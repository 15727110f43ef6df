// Codex writes its own running usage totals (token_count `total_token_usage`): on every Codex fixture the billed
// responses Tierscope reads (requests with usage and usage-only calls) add up to them — prompt, cached and output
// tokens — for a fork, to its final total minus the total it inherited from its parent's replay (issue 26).
import { describe, expect, it } from 'vitest';
import { totalsCheck } from '../../src/analyses/self-check.ts';
import { companionFiles, fileFromPath } from '../../src/cli/node-input.ts';
import { parseTranscript } from '../../src/formats/index.ts';
import { describeReal, fixtureInputs } from '../helpers/fixtures.ts';

describeReal('Codex: billed responses equal the log’s own running totals', () => {
  const codex = fixtureInputs().filter((f) => f.format === 'codex');
  let checked = 0;
  for (const f of codex) {
    it(`${f.rel}: every thread's responses add up to its totals (a fork: final − inherited)`, () => {
      const r = parseTranscript(fileFromPath(f.path), companionFiles(f.path));
      if (!r.ok) throw new Error(r.error);
      const totals = totalsCheck(r.transcript);
      checked += totals.length;
      for (const x of totals) expect({ thread: x.thread, ...x.billed }).toEqual({ thread: x.thread, ...x.log });
      for (const th of r.transcript.threads.filter((x) => x.fork && x.fork.inheritedRequests > 0))
        expect(th.logTotals?.inherited, `${th.id} names what it inherited`).toBeDefined();
    });
  }
  describe('the fork family', () => {
    it('is read as one session: three forks, each billed after its fork only', () => {
      const parent = codex.find((f) => f.rel.includes('codex-fork/'));
      if (!parent) throw new Error('the codex-fork fixture is not among the inputs');
      const r = parseTranscript(fileFromPath(parent.path), companionFiles(parent.path));
      if (!r.ok) throw new Error(r.error);
      const forks = r.transcript.threads.filter((th) => th.fork);
      expect(forks.map((th) => th.fork?.nickname).sort()).toEqual(['Kepler', 'Locke', 'Wegener']);
      for (const th of forks) {
        expect(th.kind).toBe('sidechain');
        expect(th.fork?.inheritedRequests).toBeGreaterThan(80);
        expect(th.requests.length).toBeGreaterThan(0);
        // The first own request's input holds the whole replayed history as context.
        expect(th.requests[0].inputEnd).toBeGreaterThan(th.fork?.inheritedEnd ?? 0);
      }
    });
  });
  it('checked the totals of real rollouts', () => {
    expect(checked).toBeGreaterThanOrEqual(12);
  });
});
