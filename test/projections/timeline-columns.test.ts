// The timeline crosses to the page as typed column chunks packed into bytes (projections/timeline-columns.ts,
// timeline-bytes.ts): on real fixtures (one thread, sub-agents) and on the bench's 2k thread, the columns the page
// decodes from the wire's parts are the JSON columns it read before (values, nulls, thread, model and category
// tables), and each point read back from them has the drawn fields TimelinePoints.at(k) gives; a point in full
// with its rewrites' rows is the point and the rows of its event ids.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { claudeCodeLines } from '../../bench/generate.ts';
import { analyze } from '../../src/analyses/analyze.ts';
import { companionFiles, fileFromPath } from '../../src/cli/node-input.ts';
import { fileFromText, parseTranscript } from '../../src/formats/index.ts';
import { madeOnRead } from '../../src/lib/made-on-read.ts';
import type { Transcript } from '../../src/model/transcript.ts';
import type { PipelineConfig } from '../../src/pipeline/config.ts';
import { presetConfig } from '../../src/pipeline/presets.ts';
import { runTimeline, type TimelinePoint, type TimelinePoints } from '../../src/projections/timeline.ts';
import { FLOAT_COLUMNS, unpackTimeline } from '../../src/projections/timeline-bytes.ts';
import type { TimelineChunk } from '../../src/projections/timeline-chunk.ts';
import { packTimeline, pointDetail, timelineChunks } from '../../src/projections/timeline-columns.ts';
import { cutParts, RUN_ARRAYS } from '../../src/protocol/held-replies.ts';
import { mergePart, unpackPart } from '../../src/protocol/wire.ts';
import type { CachedTokenizer } from '../../src/tokens/tokenizer.ts';
import { drawnPoint, drawnPoints, pointCount, responseMessageAt } from '../../src/views/timeline/points.ts';
import { describeReal, realPath } from '../helpers/fixtures.ts';
import { tokenizer } from '../helpers/replay.ts';
import { type JsonChunk, jsonChunksOf, typed } from '../helpers/timeline-chunks.ts';

let tok: CachedTokenizer;
beforeAll(async () => {
  tok = await tokenizer();
});

/** The fields the chart draws, as the JSON of the whole point had them. */
function drawnOf(p: TimelinePoint, k: number): unknown {
  const { estimate, observedBreak, cacheBreak, eventIds, ...drawn } = p;
  return JSON.parse(JSON.stringify({ k, ...drawn }));
}

/** The number columns that are never absent: every value finite (the JSON had no null there either). */
const DENSE_FLOATS = FLOAT_COLUMNS.filter(
  (k) => !['time', 'usdRecorded', 'usdSimulated'].includes(k) && !/^obs/.test(k),
);

/** The timeline as the page gets it: the run's field made on read, cut by the worker, each part unpacked. */
function overTheWire(pts: TimelinePoints, size: number): TimelineChunk[] {
  const run = { runId: 1, timeline: [] as TimelineChunk[] };
  madeOnRead(run, 'timeline', timelineChunks(pts, size));
  const { plan, parts } = cutParts(run, RUN_ARRAYS);
  expect(plan.slice(1).every((p) => p.codec === 'timeline')).toBe(true);
  let acc: unknown;
  for (let k = 0; k < plan.length; k++) acc = mergePart(acc, plan, k, unpackPart(plan, k, { bytes: parts[k] }));
  return (acc as typeof run).timeline;
}

/** Decoded columns equal what the JSON wire gave of the points made whole, its nulls read as NaN (compared as typed
 *  arrays: NaN equals NaN, −0 is not 0, Infinity is not null); dense columns hold no NaN. */
function expectJsonColumns(pts: TimelinePoints, size: number): TimelineChunk[] {
  const chunks = overTheWire(pts, size);
  const points = pts.toArray();
  const json = JSON.parse(JSON.stringify(jsonChunksOf(points, size))) as JsonChunk[];
  expect(chunks).toEqual(json.map(typed));
  for (const c of chunks) for (const k of DENSE_FLOATS) expect(c[k].every(Number.isFinite)).toBe(true);
  return chunks;
}

function run(t: Transcript, config: PipelineConfig) {
  const a = analyze(t, { config, preset: 'seeds', mode: 'recorded', provider: 'anthropic', tokenizer: tok });
  return runTimeline(t, a);
}

const FILES = [
  'claude-code/ccviewer-1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl',
  'claude-code/synthetic-agentsessions-subagent/0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f.jsonl',
  'codex/synthetic-agentsessions-codex-itemtypes.jsonl',
];

describeReal('timeline columns', () => {
  for (const rel of FILES)
    it(`the page's columns are the JSON columns, and read back every point's drawn fields: ${rel}`, () => {
      const r = parseTranscript(fileFromPath(realPath(rel)), companionFiles(realPath(rel)));
      if (!r.ok) throw new Error(r.error);
      const t = r.transcript;
      const shown = run(t, presetConfig('seeds'));
      const pts = shown.timeline;
      expect(pts.length).toBeGreaterThan(1);
      for (const size of [1, 3, 512]) {
        const chunks = expectJsonColumns(pts, size);
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

describe('a value past what a number holds', () => {
  it('an OTLP start time of 331 digits is no time, on the wire as over JSON (the chart keeps its index axis)', () => {
    let text = readFileSync('test/fixtures/otel-genai/pomodoro-genai-spans.json', 'utf8');
    const huge = `"startTimeUnixNano":"1${'0'.repeat(330)}"`;
    expect(text).toContain('"startTimeUnixNano":"1761077094195000000"');
    text = text.replace('"startTimeUnixNano":"1761077094195000000"', huge);
    const r = parseTranscript(fileFromText('spans.json', text), []);
    if (!r.ok) throw new Error(r.error);
    const shown = run(r.transcript, presetConfig('seeds'));
    const chunks = expectJsonColumns(shown.timeline, 512);
    const times = drawnPoints(chunks, null).map((p) => p.time);
    expect(times).toContain(undefined);
    expect(times.every((x) => x === undefined || Number.isFinite(x))).toBe(true);
  });
});

describe('timeline columns on the bench’s 2k thread', () => {
  it('the page’s columns are the JSON columns (bench/out/thread-2k.jsonl, made as bench/run.ts makes it)', () => {
    const lines = claudeCodeLines(400 << 20, 17, {
      singleThread: true,
      count: (s) => tok.count(s),
      maxRequests: 2000,
      resultScale: 0.08,
    });
    const r = parseTranscript(fileFromText('thread-2k.jsonl', `${[...lines].join('\n')}\n`), []);
    if (!r.ok) throw new Error(r.error);
    const shown = run(r.transcript, { ...presetConfig('seeds'), triggerRatio: 0.6 });
    expect(shown.timeline.length).toBe(2000);
    expect(shown.events.length).toBeGreaterThan(0);
    const chunks = expectJsonColumns(shown.timeline, 512);
    expect(chunks).toHaveLength(4);
    // The nullable columns and the tables are exercised: categories absent at some points, one model, one thread.
    expect(chunks[0].threads).toHaveLength(1);
    expect(chunks.some((c) => c.catValues.some((v) => v.some(Number.isNaN)))).toBe(true);
  }, 60_000);
});

describe('timeline bytes', () => {
  /** A chunk of `n` points from `from` with `cats` categories, some values absent in every nullable column. */
  const chunk = (from: number, n: number, cats: number): TimelineChunk => {
    const col = (f: (i: number) => number | null) => Array.from({ length: n }, (_, i) => f(i));
    const c = {
      from,
      threads: ['main', 'agent-1'],
      models: ['m'],
      cats: Array.from({ length: cats }, (_, j) => `c${j}`),
      catValues: Array.from({ length: cats }, (_, j) => col((i) => ((i + j) % 3 ? i * 0.5 : null))),
      thread: col((i) => i % 2),
      index: col((i) => from + i),
      model: col((i) => (i % 5 ? 0 : -1)),
      responseMessage: col((i) => 2 * (from + i) + 1),
    } as Record<string, unknown>;
    FLOAT_COLUMNS.forEach((k, f) => {
      c[k] = col((i) => (i % 4 === f % 4 ? null : from + i + f / 7));
    });
    return typed(c as JsonChunk);
  };

  it('a part reads back the chunks packed into it (odd sizes, no categories, none at all)', () => {
    for (const chunks of [[], [chunk(0, 1, 0)], [chunk(0, 3, 2), chunk(3, 5, 0), chunk(8, 7, 5)]]) {
      const bytes = packTimeline(chunks);
      expect(bytes.buffer.byteLength).toBe(bytes.length);
      expect(unpackTimeline(bytes)).toEqual(chunks);
      // Bytes that do not start at a multiple of 8 (a part inside a larger buffer) read the same.
      const shifted = new Uint8Array(bytes.length + 3);
      shifted.set(bytes, 3);
      expect(unpackTimeline(shifted.subarray(3))).toEqual(chunks);
    }
  });
});
