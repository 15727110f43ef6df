// Estimate accuracy (SPEC §9, issue 26), on every fixture with usage (real, wild, wild2 and the repo's own): over all
// of them at least 95% of the requests whose billed prompt is ≥ 2,000 tokens have estimateIn within ±3% of it, every
// file with 10 or more such requests at least 90%; no request is off by more than 50%; every request more than 10%
// off is flagged by the self-check (report.selfCheck) and says why (the estimate's note, or a parse issue at its
// line).
import { beforeAll, expect, it } from 'vitest';
import { analyze } from '../../src/analyses/analyze.ts';
import { companionFiles, fileFromPath } from '../../src/cli/node-input.ts';
import { parseTranscript } from '../../src/formats/index.ts';
import { presetConfig } from '../../src/pipeline/presets.ts';
import type { CachedTokenizer } from '../../src/tokens/tokenizer.ts';
import { describeReal, fixtureInputs } from '../helpers/fixtures.ts';
import { tokenizer } from '../helpers/replay.ts';

describeReal('estimate accuracy on every fixture with usage', () => {
  let tok: CachedTokenizer;
  beforeAll(async () => {
    tok = await tokenizer();
  });
  const all = { n: 0, within: 0 };
  for (const f of fixtureInputs()) {
    it(`${f.rel}: within ±3% (≥ 90% of 10 or more), none over 50%, every miss over 10% flagged and explained`, () => {
      const r = parseTranscript(fileFromPath(f.path), companionFiles(f.path));
      if (!r.ok) throw new Error(r.error);
      const t = r.transcript;
      const report = analyze(t, {
        config: presetConfig('seeds'),
        preset: 'seeds',
        mode: 'recorded',
        provider: 'anthropic',
        tokenizer: tok,
      }).report;
      let n = 0;
      let within = 0;
      const unexplained: string[] = [];
      const wild: string[] = [];
      const flagged = new Set(report.selfCheck.flagged.map((c) => `${c.thread}#${c.request}`));
      for (const q of report.requests) {
        if (!q.observed) continue;
        const observed = q.observed.input + q.observed.cacheRead + q.observed.cacheWrite;
        const miss = Math.abs(q.estimateIn - observed) / observed;
        if (observed >= 2000) {
          n++;
          if (miss <= 0.03) within++;
          if (miss > 0.5) wild.push(`${q.thread} #${q.index}: ${(miss * 100).toFixed(0)}%`);
        }
        const line = t.threads.find((th) => th.id === q.thread)?.requests[q.index]?.line;
        const issue = t.parseIssues.some((i) => i.line === line);
        if (miss > 0.1 && ((!q.estimate.note && !issue) || !flagged.has(`${q.thread}#${q.index}`)))
          unexplained.push(`${q.thread} #${q.index}`);
      }
      all.n += n;
      all.within += within;
      if (n >= 10) expect(within / n).toBeGreaterThanOrEqual(0.9);
      expect(wild).toEqual([]);
      expect(unexplained).toEqual([]);
      expect(report.selfCheck.requests).toBe(n);
    });
  }
  it('over every fixture: at least 95% within ±3%', () => {
    expect(all.n).toBeGreaterThan(1500);
    expect(all.within / all.n).toBeGreaterThanOrEqual(0.95);
  });
});
