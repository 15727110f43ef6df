// The timeline crosses to the page as column chunks (projections/timeline-columns.ts): on real fixtures (one
// thread, sub-agents) each point read back from the chunks, after JSON, has the drawn fields TimelinePoints.at(k)
// gives; a point in full with its rewrites' rows is the point and the rows of its event ids.
import { beforeAll, expect, it } from 'vitest';
import { analyze } from '../../src/analyses/analyze.ts';
import { companionFiles, fileFromPath } from '../../src/cli/node-input.ts';
import { parseTranscript } from '../../src/formats/index.ts';
import { presetConfig } from '../../src/pipeline/presets.ts';
import { runTimeline, type TimelinePoint } from '../../src/projections/timeline.ts';
import { pointDetail, timelineChunks } from '../../src/projections/timeline-columns.ts';
import type { CachedTokenizer } from '../../src/tokens/tokenizer.ts';
import { drawnPoint, drawnPoints, pointCount, responseMessageAt } from '../../src/views/timeline/points.ts';
import { describeReal, realPath } from '../helpers/fixtures.ts';
import { tokenizer } from '../helpers/replay.ts';

let tok: CachedTokenizer;
beforeAll(async () => {
  tok = await tokenizer();
});

/** The fields the chart draws, as the JSON of the whole point had them. */
function drawnOf(p: TimelinePoint, k: number): unknown {
  const { estimate, observedBreak, cacheBreak, eventIds, ...drawn } = p;
  return JSON.parse(JSON.stringify({ k, ...drawn }));
}

const FILES = [
  'claude-code/ccviewer-1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl',
  'claude-code/synthetic-agentsessions-subagent/0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f.jsonl',
  'codex/synthetic-agentsessions-codex-itemtypes.jsonl',
];

describeReal('timeline columns', () => {
  for (const rel of FILES)
    it(`read back every point's drawn fields: ${rel}`, () => {
      const r = parseTranscript(fileFromPath(realPath(rel)), companionFiles(realPath(rel)));
      if (!r.ok) throw new Error(r.error);
      const t = r.transcript;
      const a = analyze(t, {
        config: presetConfig('seeds'),
        preset: 'seeds',
        mode: 'recorded',
        provider: 'anthropic',
        tokenizer: tok,
      });
      const shown = runTimeline(t, a);
      const pts = shown.timeline;
      expect(pts.length).toBeGreaterThan(1);
      for (const size of [1, 3, 512]) {
        const chunks = JSON.parse(JSON.stringify(timelineChunks(pts, size).toArray()));
        expect(pointCount(chunks)).toBe(pts.length);
        const all = drawnPoints(chunks, null);
        for (let k = 0; k < pts.length; k++) {
          const p = pts.at(k);
          expect(drawnPoint(chunks, k)).toEqual(drawnOf(p, k));
          expect(all[k]).toEqual(drawnOf(p, k));
          expect(responseMessageAt(chunks, k)).toBe(p.responseMessage);
        }
        const main = t.threads[0].id;
        expect(drawnPoints(chunks, main).map((p) => p.k)).toEqual(all.filter((p) => p.thread === main).map((p) => p.k));
      }
      for (let k = 0; k < pts.length; k++) {
        const d = pointDetail(pts, shown.full, k);
        expect(d?.point).toEqual(pts.at(k));
        expect(d?.events.map((e) => e.id)).toEqual(pts.at(k).eventIds);
      }
      expect(pointDetail(pts, shown.full, pts.length)).toBeNull();
    });
});
