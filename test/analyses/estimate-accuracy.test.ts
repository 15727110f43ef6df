// SPEC §9 accuracy, on every fixture of fixtures/real and fixtures/wild with observed usage: at least 90% of the
// requests whose observed prompt is ≥ 2,000 tokens have estimateIn within ±3% of it, and every request off by
// more than 10% says why (the estimate's note, or a parse issue at its line).
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
  for (const f of fixtureInputs()) {
    it(`${f.rel}: ≥ 90% of requests ≥ 2,000 tokens within ±3%; every miss over 10% says why`, () => {
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
      for (const q of report.requests) {
        if (!q.observed) continue;
        const observed = q.observed.input + q.observed.cacheRead + q.observed.cacheWrite;
        const miss = Math.abs(q.estimateIn - observed) / observed;
        if (observed >= 2000) {
          n++;
          if (miss <= 0.03) within++;
        }
        const line = t.threads.find((th) => th.id === q.thread)?.requests[q.index]?.line;
        const issue = t.parseIssues.some((i) => i.line === line);
        if (miss > 0.1 && !q.estimate.note && !issue) unexplained.push(`${q.thread} #${q.index}`);
      }
      if (n > 0) expect(within / n).toBeGreaterThanOrEqual(0.9);
      expect(unexplained).toEqual([]);
    });
  }
});
