// The breaks table's order (observed apart from simulated, each sorted by the chosen column, filtered to the zoomed
// range), the transcript's rows for a zoomed range (the messages those requests read and answered, the selection
// kept), and the config contradictions warned about before a run.
import { describe, expect, it } from 'vitest';
import { configConflicts } from '../../src/pipeline/config-conflicts.ts';
import { presetConfig } from '../../src/pipeline/presets.ts';
import { breakItems } from '../../src/views/breaks/break-sort.ts';
import { rangeSpan, withinSpan } from '../../src/views/transcript/range-rows.ts';
import type { BreakRow, TimelinePoint } from '../../worker/api.ts';
import { chunksOf } from '../helpers/timeline-chunks.ts';

const row = (o: Partial<BreakRow>): BreakRow => ({
  source: 'observed',
  thread: 'main',
  request: 0,
  point: 0,
  cause: 'ttl-expired',
  detail: '',
  tokens: 1000,
  usd: 0.01,
  messageIndex: 0,
  unlogged: false,
  evidence: [],
  ...o,
});

describe('breaks table order', () => {
  const rows = [
    row({ request: 5, tokens: 9000, usd: 0.09 }),
    row({ request: 2, tokens: 3000, usd: null }),
    row({ source: 'simulated', request: 7, tokens: 20_000, usd: 0.2 }),
    row({ request: 9, thread: 'side', tokens: 4000, usd: 0.04, cause: 'sidechain' }),
  ];
  const rank = new Map([
    ['main', 0],
    ['side', 1],
  ]);
  const all = { sources: new Set(['observed', 'simulated'] as const), has: null };
  const list = (items: ReturnType<typeof breakItems>) =>
    items.map((i) => (i.kind === 'group' ? `${i.source}:${i.count}` : `${i.row.thread}#${i.row.request}`));

  it('lists observed before simulated, each by dollars with unpriced last', () => {
    expect(list(breakItems(rows, 'usd', 'desc', rank, all))).toEqual([
      'observed:3',
      'main#5',
      'side#9',
      'main#2',
      'simulated:1',
      'main#7',
    ]);
  });

  it('sorts by place (thread order, then request) and by cause', () => {
    expect(list(breakItems(rows, 'request', 'asc', rank, all))).toEqual([
      'observed:3',
      'main#2',
      'main#5',
      'side#9',
      'simulated:1',
      'main#7',
    ]);
    expect(list(breakItems(rows, 'cause', 'asc', rank, all)).slice(0, 2)).toEqual(['observed:3', 'side#9']);
  });

  it('keeps what is in view and the sources shown; a source with nothing has no heading', () => {
    const has = (t: string, r: number) => t === 'main' && r >= 4 && r <= 8;
    expect(list(breakItems(rows, 'usd', 'desc', rank, { ...all, has }))).toEqual([
      'observed:1',
      'main#5',
      'simulated:1',
      'main#7',
    ]);
    expect(
      list(breakItems(rows, 'usd', 'desc', rank, { sources: new Set(['simulated'] as const), has: null })),
    ).toEqual(['simulated:1', 'main#7']);
  });
});

describe('transcript rows of a zoomed range', () => {
  // Two points a chunk: the span reads across chunks.
  const pts = chunksOf(
    [3, 7, 12, 20].map(
      (responseMessage, index) =>
        ({
          thread: 'main',
          index,
          responseMessage,
          categories: {},
          observed: null,
          simulated: { cacheRead: 0, cacheWrite: 0, prompt: 0 },
          costUsd: { recorded: null, simulated: null },
        }) as unknown as TimelinePoint,
    ),
    2,
  );
  it('are the messages from after the previous response to the last request’s response', () => {
    expect(rangeSpan(pts, 'main', { from: 1, to: 2 })).toEqual({ from: 4, to: 12 });
    expect(rangeSpan(pts, 'main', { from: 0, to: 1 })).toEqual({ from: 0, to: 7 });
    expect(rangeSpan(pts, 'main', null)).toBeNull();
    expect(rangeSpan(pts, 'other', { from: 0, to: 1 })).toBeNull();
  });
  it('keep a search filter’s matches in the span, and the selected message where it is', () => {
    expect(withinSpan(null, 30, { from: 4, to: 7 })).toEqual([4, 5, 6, 7]);
    expect(withinSpan([1, 5, 9], 30, { from: 4, to: 12 })).toEqual([5, 9]);
    // A break's divergence point can lie before the range: it stays shown, in order.
    expect(withinSpan(null, 30, { from: 4, to: 6 }, 0)).toEqual([0, 4, 5, 6]);
    expect(withinSpan(null, 30, null, 0)).toBeNull();
  });
});

describe('config contradictions', () => {
  const seeds = presetConfig('seeds');
  it('names a hard cap under the trigger with its numbers', () => {
    const c = configConflicts({ ...seeds, contextWindow: 100_000 });
    expect(c.map((x) => x.id)).toEqual(['hardcap-under-trigger']);
    expect(c[0].text).toMatch(/^The hard cap \(68k = window 100k − reserve 32k\) is under the trigger \(80k\)/);
    expect(configConflicts(seeds)).toEqual([]);
  });
  it('names a landing above the trigger, no room at all, and a Tier 1 inside the Tier-3 window', () => {
    expect(configConflicts({ ...seeds, landingRatio: 0.9 }).map((x) => x.id)).toEqual(['landing-above-trigger']);
    expect(configConflicts({ ...seeds, outputReserve: 200_000 }).map((x) => x.id)).toEqual(['no-room']);
    expect(configConflicts({ ...seeds, tier1Distance: 8 }).map((x) => x.id)).toEqual(['no-tier-2']);
    // A stage turned off cannot contradict: no hard cap, no summaries.
    expect(
      configConflicts({ ...seeds, contextWindow: 100_000, hardcap: { ...seeds.hardcap, enabled: false } }),
    ).toEqual([]);
  });
});
