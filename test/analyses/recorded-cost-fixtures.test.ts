// Recorded dollars on every Claude Code and Codex fixture (real and wild, each session with its sub-agent files)
// against an independent computation from the raw lines at the catalog's prices (helpers/independent-cost.ts):
// within 1%, and every billed response counted once — rewound branches and sub-agents included.
import { expect, it } from 'vitest';
import { recordedCost } from '../../src/analyses/recorded-cost.ts';
import { companionFiles, fileFromPath } from '../../src/cli/node-input.ts';
import { parseTranscript } from '../../src/formats/index.ts';
import type { Transcript } from '../../src/model/transcript.ts';
import { describeReal, fixtureInputs } from '../helpers/fixtures.ts';
import { claudeCodeDollars, codexDollars } from '../helpers/independent-cost.ts';

function load(path: string): Transcript {
  const r = parseTranscript(fileFromPath(path), companionFiles(path));
  if (!r.ok) throw new Error(r.error);
  return r.transcript;
}

/** Relative difference, 0 when both are 0. */
const diff = (a: number, b: number) => (a === b ? 0 : Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b)));

describeReal('recorded cost equals the raw lines at the catalog prices', () => {
  const inputs = fixtureInputs().filter((f) => f.format === 'claude-code' || f.format === 'codex');
  it('covers the Claude Code and Codex fixtures of real/ and wild/', () => {
    expect(inputs.filter((f) => f.format === 'claude-code' && f.rel.startsWith('wild/')).length).toBeGreaterThan(20);
    expect(inputs.filter((f) => f.format === 'codex').length).toBeGreaterThanOrEqual(5);
  });
  for (const f of inputs) {
    it(`${f.rel}: within 1%, each billed response once`, () => {
      const t = load(f.path);
      const ours = recordedCost(t, {}).totals;
      const theirs = f.format === 'codex' ? codexDollars(f.path) : claudeCodeDollars(f.path);
      expect(theirs.unpriced).toEqual([]);
      if (theirs.responses === 0) {
        expect(ours).toBeNull();
        return;
      }
      expect(ours).not.toBeNull();
      if (!ours) return;
      expect(ours.unpriced.entries).toBe(0);
      expect(ours.priced).toBe(theirs.responses);
      expect(diff(ours.usd, theirs.usd)).toBeLessThanOrEqual(0.01);
      // the parts add up to the whole, per model too
      const parts = ours.input + ours.output + ours.cacheRead + ours.cacheWrite5m + ours.cacheWrite1h;
      expect(parts).toBeCloseTo(ours.usd, 9);
      expect(ours.byModel.reduce((s, m) => s + (m.usd?.usd ?? 0), 0)).toBeCloseTo(ours.usd, 9);
      expect(ours.byThread.reduce((s, th) => s + th.usd, 0)).toBeCloseTo(ours.usd, 9);
    });
  }
});
