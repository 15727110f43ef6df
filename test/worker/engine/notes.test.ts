// The last run's notes by window (worker/engine/notes.ts, projections/run-notes.ts): a window of a thread's
// messages holds exactly the tool-result and event rows that filtering the run's whole arrays gives (a real
// fixture where every stage acts, windows at the thread's edges, empty and past the end, a search filter's rows far
// apart), event rows by id, an
// event followed into the next run, and null for a run that is no longer the last.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import type { ToolResultRow } from '../../../src/analyses/report.ts';
import { presetConfig } from '../../../src/pipeline/presets.ts';
import type { WindowNotes } from '../../../src/projections/run-notes.ts';
import type { EventRow, RunResult, RunSettings } from '../../../worker/api.ts';
import { createEngine } from '../../../worker/create-engine.ts';
import { describeReal, realPath } from '../../helpers/fixtures.ts';

const FE = 'claude-code/ccviewer-fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl';
const settings = (over: Record<string, number> = {}): RunSettings => ({
  preset: 'seeds',
  config: { ...presetConfig('seeds'), contextWindow: 30_000, outputReserve: 2000, tier3Window: 8, ...over },
  mode: 'recorded',
  provider: 'anthropic',
  encoding: 'o200k_base',
});

/** The window as filtering the whole arrays gives it. */
function filtered(
  rows: ToolResultRow[],
  events: EventRow[],
  thread: string,
  from: number,
  to: number,
): Omit<WindowNotes, 'runId'> {
  const inside = (i: number) => i >= from && i < to;
  return {
    thread,
    from,
    to,
    results: rows.filter((r) => r.thread === thread && inside(r.messageIndex)),
    events: events
      .filter((e) => e.thread === thread && e.messageIndex >= 0 && inside(e.messageIndex))
      .sort((a, b) => a.messageIndex - b.messageIndex || a.id - b.id),
    drops: events.filter(
      (e) =>
        e.thread === thread &&
        e.action === 'drop' &&
        e.messageIndex < from &&
        (e.lastMessageIndex ?? e.messageIndex) >= from,
    ),
  };
}

/** A search filter's rows: just the messages `only` lists, as filtering the whole arrays gives them; a drop is the
 *  Diff of the first listed message after its start when it reaches it and does not start at a listed one. */
function filteredOnly(
  rows: ToolResultRow[],
  events: EventRow[],
  thread: string,
  only: number[],
): Omit<WindowNotes, 'runId'> {
  const set = new Set(only);
  return {
    thread,
    from: only[0],
    to: only[only.length - 1] + 1,
    only,
    results: rows.filter((r) => r.thread === thread && set.has(r.messageIndex)),
    events: events
      .filter((e) => e.thread === thread && set.has(e.messageIndex))
      .sort((a, b) => a.messageIndex - b.messageIndex || a.id - b.id),
    drops: events.filter((e) => {
      if (e.thread !== thread || e.action !== 'drop' || set.has(e.messageIndex)) return false;
      const next = only.find((m) => m > e.messageIndex);
      return next !== undefined && (e.lastMessageIndex ?? e.messageIndex) >= next;
    }),
  };
}

describeReal('notes by window', () => {
  it('equal the run’s rows filtered, at every edge; stale runs answer null', async () => {
    const engine = createEngine();
    const bytes = readFileSync(realPath(FE));
    const loaded = await engine.load(
      [{ name: 'f.jsonl', buffer: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) }],
      undefined,
    );
    if (!loaded.ok) throw new Error(loaded.error);
    const stages = new Set<string>();
    let drops = 0;
    let windows = 0;
    let onlyDrops = 0;
    let onlyEvents = 0;
    let events: EventRow[] = [];
    // Tiers and summaries act at 30k; the hard cap drops spans of messages at 12k.
    for (const [runId, over] of [
      [1, {}],
      [2, { contextWindow: 12_000, outputReserve: 1000 }],
    ] as const) {
      const r = (await engine.run(runId, settings(over))) as RunResult;
      const report = await engine.report();
      if (!report) throw new Error('no report');
      const rows = report.toolResults;
      const count = r.notes.events;
      events = (await engine.eventRows(
        runId,
        Array.from({ length: count }, (_, i) => i),
      )) as EventRow[];
      expect(events.map((e) => e.id)).toEqual(Array.from({ length: count }, (_, i) => i));
      expect(await engine.eventRows(runId, [count, -1, 0.5])).toEqual([null, null, null]);
      for (const e of events) stages.add(e.action);
      // The legend's summary, read from the fates' columns, is what the rows show.
      expect(r.notes).toEqual({
        tiers: [...new Set(rows.flatMap((x) => (x.tier === null ? [] : [x.tier])))].sort(),
        spilled: rows.some((x) => x.spilled),
        cleared: rows.some((x) => x.cleared),
        summarised: rows.some((x) => x.inSummary),
        dropped: rows.some((x) => x.dropped),
        error: rows.some((x) => x.isError),
        results: rows.length,
        events: count,
      });
      for (const th of loaded.threads) {
        const n = th.messages;
        const cuts = [
          [0, n],
          [0, 1],
          [0, 60],
          [Math.max(0, n - 60), n],
          [n - 1, n],
          [n, n + 10],
          [5, 5],
          [Math.floor(n / 3), Math.floor(n / 3) + 37],
        ];
        for (let a = 0; a < n; a += 23) cuts.push([a, a + 41]);
        for (const [from, to] of cuts) {
          const w = await engine.notes(runId, th.id, from, to);
          expect(w, `${th.id} [${from}, ${to})`).toEqual({ runId, ...filtered(rows, events, th.id, from, to) });
          drops += w?.drops.length ?? 0;
          windows++;
        }
        // A search filter's rows on screen, far apart: just their messages.
        const picks: number[][] = [];
        for (const [start, step] of [
          [0, 7],
          [3, 13],
          [1, 2],
          [Math.floor(n / 2), 31],
        ]) {
          const only = Array.from({ length: Math.ceil((n - start) / step) }, (_, i) => start + i * step).slice(0, 60);
          picks.push(only);
        }
        // A drop's own message with a later one it reaches (its events, not a drop again), and the message before.
        for (const e of events.filter((x) => x.thread === th.id && x.action === 'drop').slice(0, 20)) {
          const last = Math.min(n - 1, e.lastMessageIndex ?? e.messageIndex);
          if (last > e.messageIndex) picks.push([e.messageIndex, last]);
          if (e.messageIndex > 0) picks.push([e.messageIndex - 1, last]);
        }
        for (const only of picks) {
          if (only.length === 0) continue;
          const w = await engine.notes(runId, th.id, only[0], only[only.length - 1] + 1, only);
          expect(w, `${th.id} only ${only.slice(0, 3)}…`).toEqual({
            runId,
            ...filteredOnly(rows, events, th.id, only),
          });
          onlyDrops += w?.drops.length ?? 0;
          onlyEvents += w?.events.length ?? 0;
        }
      }
    }
    expect(windows).toBeGreaterThan(40);
    expect(drops).toBeGreaterThan(0);
    expect(onlyDrops).toBeGreaterThan(0);
    expect(onlyEvents).toBeGreaterThan(0);
    expect(stages).toEqual(new Set(['tier1', 'tier2-truncate', 'tier2-summary', 'summarize', 'truncate', 'drop']));
    expect(await engine.notes(2, 'no such thread', 0, 10)).toEqual({
      runId: 2,
      thread: 'no such thread',
      from: 0,
      to: 10,
      results: [],
      events: [],
      drops: [],
    });

    // A selected event followed into the next run; the first run's calls are stale now.
    const picked = events.filter((e) => e.action === 'drop')[5];
    const { id: _id, ...like } = picked;
    const r3 = (await engine.run(3, settings({ contextWindow: 12_500, outputReserve: 1000 }))) as RunResult;
    const found = await engine.findEvent(3, like);
    const all3 = (await engine.eventRows(
      3,
      Array.from({ length: r3.notes.events }, (_, i) => i),
    )) as EventRow[];
    // What the event did, as the test names it (not the engine's own comparison).
    const did = ['thread', 'request', 'stage', 'action', 'messageIndex', 'blockIndex', 'toolUseId'] as const;
    const same = all3.find((e) => did.every((k) => e[k] === like[k]));
    expect(same).toBeDefined();
    expect(found).toEqual({ id: same?.id ?? null });
    expect(await engine.notes(2, loaded.threads[0].id, 0, 10)).toBeNull();
    expect(await engine.eventRows(2, [0])).toBeNull();
    expect(await engine.findEvent(2, like)).toBeNull();
    expect(await engine.notes(3, loaded.threads[0].id, 0, 10)).not.toBeNull();
  });
});
