// The cache timeline's data shaping: scope, category grouping, folding into pixel columns (the tallest
// request stands for a column, cache sums are pooled; evenly or at a time scale's x), the column under an x,
// y range and ticks, break listing and cause words, and that shaping 20,000 requests is linear and quick (it
// runs once per run result, not per frame).
import { describe, expect, it } from 'vitest';
import { BREAK_CAUSES } from '../../../src/analyses/break-causes.ts';
import { columnAtX, columnsAt, columnsOf } from '../../../src/views/timeline/columns.ts';
import { drawnPoints } from '../../../src/views/timeline/points.ts';
import {
  breaksOf,
  causeWords,
  groupCategories,
  niceTicks,
  OTHER_RESULTS,
  shownPoints,
  stackOf,
  yRange,
} from '../../../src/views/timeline/timeline-model.ts';
import type { TimelinePoint } from '../../../worker/api.ts';
import { breakRowsOf, chunksOf } from '../../helpers/timeline-chunks.ts';

/** The points as the chart gets them (through the wire's columns). */
const drawn = (pts: TimelinePoint[]) => drawnPoints(chunksOf(pts), null);

function point(i: number, o: Partial<TimelinePoint> = {}): TimelinePoint {
  const categories = o.categories ?? { system: 1000, tools: 500, user: 100 + i, 'result:Bash': 200 * i };
  const out = Object.values(categories).reduce((a, b) => a + b, 0);
  return {
    thread: 'main',
    index: i,
    time: 1000 * i,
    inputTokens: out,
    outputTokens: out,
    estimateIn: out * 1.1,
    estimateOut: out * 1.1,
    estimate: { basis: 'anchored', anchor: Math.max(0, i - 1), note: null },
    categories,
    observed: null,
    simulated: { cacheRead: out * 0.9, cacheWrite: out * 0.1, prompt: out * 1.1 },
    costUsd: { recorded: null, simulated: null },
    observedBreak: null,
    cacheBreak: null,
    eventIds: [],
    responseMessage: 2 * i + 1,
    ...o,
  };
}

describe('timeline model', () => {
  it('shows one thread in order, or every thread by time', () => {
    const pts = [point(0), point(1, { time: 5000 }), point(0, { thread: 'side', time: 2500 })];
    expect(shownPoints(chunksOf(pts), 'thread', 'main').map((p) => p.thread)).toEqual(['main', 'main']);
    expect(shownPoints(chunksOf(pts), 'all', 'main').map((p) => `${p.thread}:${p.index}`)).toEqual([
      'main:0',
      'side:0',
      'main:1',
    ]);
  });

  it('stacks the static prefix first and merges small tools into one band', () => {
    const pts = drawn([
      point(0, {
        categories: { system: 5000, tools: 3000, 'result:Read': 4000, 'result:Bash': 2000, 'result:LS': 10 },
      }),
    ]);
    const { order, map } = groupCategories(pts);
    expect(order).toEqual(['tools', 'system', 'result:Read', 'result:Bash', OTHER_RESULTS]);
    expect(map.get('result:LS')).toBe(OTHER_RESULTS);
    const stack = stackOf(pts[0], map);
    const sum = [...stack.values()].reduce((a, b) => a + b, 0);
    expect(sum).toBeCloseTo(pts[0].estimateOut);
  });

  it('folds requests into pixel columns when there are more requests than pixels', () => {
    const pts = drawn(Array.from({ length: 1000 }, (_, i) => point(i)));
    const { cols, colOf } = columnsOf(pts, 10, 100);
    expect(cols).toHaveLength(100);
    expect(cols[0]).toMatchObject({ from: 0, to: 10, rep: 9, x: 10 });
    expect(cols.at(-1)?.to).toBe(1000);
    expect(cols[0].sim.read).toBeCloseTo(pts.slice(0, 10).reduce((a, p) => a + p.simulated.cacheRead, 0));
    expect(colOf[9]).toBe(0);
    expect(colOf[10]).toBe(1);
    expect(columnAtX(cols, 10.5)).toBe(0);
    expect(columnAtX(cols, 109.9)).toBe(99);
    expect(columnAtX(cols, 200)).toBeNull();
    // Fewer requests than pixels: one column each.
    expect(columnsOf(pts.slice(0, 5), 0, 100).cols.map((c) => c.w)).toEqual([20, 20, 20, 20, 20]);
  });

  it('places requests at their own x, folding those that share a pixel', () => {
    const pts = drawn(Array.from({ length: 5 }, (_, i) => point(i)));
    const { cols, colOf } = columnsAt(pts, Float64Array.from([0, 0.4, 10, 50, 52]), 100, 8);
    expect(cols.map((c) => [c.from, c.to, c.x, c.w])).toEqual([
      [0, 2, 0, 8],
      [2, 3, 10, 8],
      [3, 4, 50, 2],
      [4, 5, 52, 8],
    ]);
    expect([...colOf]).toEqual([0, 0, 1, 2, 3]);
    // Between two bars, the pointer names the nearer one only within a few pixels.
    expect(columnAtX(cols, 30)).toBeNull();
    expect(columnAtX(cols, 9.5)).toBe(1);
    expect(columnAtX(cols, 8.5)).toBe(0);
  });

  it('takes lines near the data into the range, not a window far above', () => {
    const pts = drawn([point(0, { estimateOut: 30_000, outputTokens: 30_000 })]);
    expect(yRange(pts, { window: 200_000, trigger: 160_000, landing: 120_000, hardcap: 168_000 })).toBeCloseTo(32_400);
    expect(yRange(pts, { window: 44_000, trigger: 35_200, landing: 26_400, hardcap: 36_000 })).toBeCloseTo(45_760);
    expect(niceTicks(45_760)).toEqual({ top: 50_000, ticks: [0, 10_000, 20_000, 30_000, 40_000, 50_000] });
    // A 208k range ends at 250k, not 300k: the chart's height goes to the data.
    expect(niceTicks(208_000).top).toBe(250_000);
  });

  it('lists observed and simulated breaks with their causes in words', () => {
    const pts = [
      point(0),
      point(1, {
        observedBreak: {
          cause: 'ttl-expired',
          tokensLost: 9000,
          detail: 'cache expired: 7 min 12 s …',
          divergence: {
            messageIndex: 3,
            blockIndex: 0,
            tokens: 1200,
            uncertaintyTokens: 40,
            region: 'messages',
            unloggedTokens: 900,
          },
          evidence: [],
          usd: null,
        },
        cacheBreak: { cause: 'tiers', tokensLost: 8000, detail: 'tiers …', messageIndex: 4, events: [], usd: 0.02 },
      }),
    ];
    // Each selects its message: the observed break where its cached prefix ended, the simulated its rewrite.
    expect(
      breaksOf(drawn(pts), breakRowsOf(pts)).map((b) => [b.source, b.pos, b.cause, b.messageIndex, b.usd]),
    ).toEqual([
      ['observed', 1, 'ttl-expired', 3, null],
      ['simulated', 1, 'tiers', 4, 0.02],
    ]);
    expect(causeWords('ttl-expired')).toBe('cache expired');
    expect(causeWords('history-rewritten@12')).toBe('history rewritten at message 12');
    expect(causeWords('sidechain')).toBe('sub-agent start');
  });

  it('every named cause reads differently (the words are a Record over the vocabulary: tsc fails on a gap)', () => {
    const words = BREAK_CAUSES.map(causeWords);
    expect(words.filter((w, i) => words.indexOf(w) !== i)).toEqual([]);
    expect(causeWords('same-entry')).toBe('same cache entry read again');
    expect(causeWords('reported:messages_changed')).toBe('reported:messages_changed');
  });

  it('shapes 20,000 requests into one column per pixel of a 1,300-pixel chart', () => {
    const pts = Array.from({ length: 20_000 }, (_, i) =>
      point(i, {
        categories: {
          system: 14_000,
          tools: 9000,
          user: 300 + (i % 50),
          assistant: 200 + (i % 70),
          [`result:tool${i % 9}`]: 40 * (i % 300),
        },
        cacheBreak:
          i % 3 === 0
            ? { cause: 'hardcap', tokensLost: 1000, detail: '', messageIndex: 0, events: [], usd: null }
            : null,
      }),
    );
    const shown = shownPoints(chunksOf(pts), 'thread', 'main');
    const { map } = groupCategories(shown);
    const { cols } = columnsOf(shown, 80, 1300);
    for (const c of cols) stackOf(shown[c.rep], map);
    expect(breaksOf(shown, breakRowsOf(pts)).length).toBe(Math.ceil(20_000 / 3));
    expect(cols).toHaveLength(1300);
  });
});
