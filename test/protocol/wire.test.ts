import { describe, expect, it } from 'vitest';
import { itemsOf, madeOnRead } from '../../src/lib/made-on-read.ts';
import { FLOAT_COLUMNS, INT_COLUMNS } from '../../src/projections/timeline-bytes.ts';
import { cutParts, HeldReplies, partValue, RUN_ARRAYS } from '../../src/protocol/held-replies.ts';
import { fetchHeld, mergePart, PART_CHARS, unpackJson } from '../../src/protocol/wire.ts';
import { type JsonChunk, typed } from '../helpers/timeline-chunks.ts';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

function roundTrip(value: unknown, keys: readonly string[], budget?: number): unknown {
  const { plan, parts } = cutParts(value, keys, budget);
  let acc: unknown;
  for (let k = 0; k < plan.length; k++) acc = mergePart(acc, plan, k, unpackJson({ bytes: parts[k] }));
  return acc;
}

describe('worker replies in parts', () => {
  it('reassembles an array split into parts of bounded JSON size', () => {
    const rows = Array.from({ length: 5000 }, (_, i) => ({ index: i, preview: `row ${i} 日本 ${'x'.repeat(i % 97)}` }));
    const { plan, parts } = cutParts(rows, []);
    expect(plan.length).toBeGreaterThan(1);
    for (const p of parts) expect(text(p).length).toBeLessThanOrEqual(PART_CHARS + 2);
    expect(plan.map((p) => p.from)).toEqual([0, ...plan.slice(0, -1).map((p) => p.to)]);
    expect(plan.at(-1)?.to).toBe(rows.length);
    expect(roundTrip(rows, [])).toEqual(rows);
    expect(roundTrip([], [])).toEqual([]);
  });

  it('cuts by size, not count: big items make more parts; one item larger than the budget is a part alone', () => {
    const small = Array.from({ length: 100 }, (_, i) => ({ i }));
    const big = Array.from({ length: 100 }, (_, i) => ({ i, text: 'y'.repeat(1000) }));
    expect(cutParts(small, [], 5000).plan).toHaveLength(1);
    expect(cutParts(big, [], 5000).plan.length).toBeGreaterThanOrEqual(20);
    const huge = [{ a: 1 }, { text: 'z'.repeat(20_000) }, { b: 2 }];
    const { plan } = cutParts(huge, [], 5000);
    expect(plan.map((p) => [p.from, p.to])).toEqual([
      [0, 1],
      [1, 2],
      [2, 3],
    ]);
    expect(roundTrip(huge, [], 5000)).toEqual(huge);
  });

  it("each part's bytes are the UTF-8 JSON of its part value (non-ASCII, astral and lone surrogates included)", () => {
    const note = (i: number) => `${'n'.repeat(i)} 日本語 😀 \ud800 "q" ${'é'.repeat(i % 7)}`;
    const run = { runId: 1, timeline: Array.from({ length: 300 }, (_, i) => ({ index: i, note: note(i) })) };
    const { plan, parts } = cutParts(run, ['timeline'], 4000);
    expect(plan.length).toBeGreaterThan(2);
    const encoder = new TextEncoder();
    for (let k = 0; k < plan.length; k++)
      expect(parts[k]).toEqual(encoder.encode(JSON.stringify(partValue(run, plan, k, ['timeline']))));
    // exact size: each part owns a buffer of its own length (it is transferred whole)
    for (const p of parts) expect(p.buffer.byteLength).toBe(p.length);
    // one item far over the scratch buffer's start size
    const huge = [{ text: '字'.repeat(100_000) }];
    expect(roundTrip(huge, [], 5000)).toEqual(huge);
  });

  it('reassembles an object whose big arrays are split, other fields in the first part', () => {
    const run = {
      runId: 3,
      totals: { tokensIn: 10 },
      timeline: Array.from({ length: 2000 }, (_, i) => ({ index: i, label: `point ${i}` })),
      events: [],
      pairing: [{ rule: 'orphan-result' }],
    };
    const { plan } = cutParts(run, ['timeline', 'events', 'pairing', 'missing'], 10_000);
    const keys = plan.map((p) => p.key);
    expect(keys[0]).toBeNull();
    expect(keys.filter((k) => k === 'timeline').length).toBeGreaterThan(1);
    expect(keys.slice(-2)).toEqual(['events', 'pairing']);
    expect(roundTrip(run, ['timeline', 'events', 'pairing', 'missing'], 10_000)).toEqual(run);
  });

  it('passes a stale-run reply (no arrays) through as one part', () => {
    expect(roundTrip({ runId: 2, stale: true }, ['timeline'])).toEqual({ runId: 2, stale: true });
  });
});

describe('held replies', () => {
  const run = (runId: number) => ({
    runId,
    rows: Array.from({ length: 12_000 }, (_, i) => ({ index: i, label: `point ${i} of run ${runId}` })),
  });
  /** The page's calls to the worker's store, counted. */
  const remoteOf = (replies: HeldReplies) => {
    const calls = { part: 0, drop: 0 };
    return {
      calls,
      part: async (id: number, k: number) => {
        calls.part++;
        return replies.part(id, k);
      },
      drop: async (id: number) => {
        calls.drop++;
        replies.drop(id);
      },
    };
  };

  it('a wanted reply is fetched whole, each part once, and then no longer held', async () => {
    const replies = new HeldReplies();
    const remote = remoteOf(replies);
    const held = replies.hold(run(1), ['rows']);
    expect(held.plan.length).toBeGreaterThan(2);
    expect(await fetchHeld(remote, held)).toEqual(run(1));
    expect(remote.calls).toEqual({ part: held.plan.length, drop: 0 });
    expect(replies.size).toBe(0);
    await expect(remote.part(held.id, 0)).rejects.toThrow(`reply ${held.id} is gone`);
  });

  it('a reply overtaken before or while it is fetched is dropped in the worker, the rest of it unfetched', async () => {
    const replies = new HeldReplies();
    const remote = remoteOf(replies);
    // Overtaken before its first part: nothing of it is fetched.
    const first = replies.hold(run(1), ['rows']);
    const second = replies.hold(run(2), ['rows']);
    expect(replies.size).toBe(2);
    expect(await fetchHeld(remote, first, () => false)).toBeUndefined();
    expect(remote.calls).toEqual({ part: 0, drop: 1 });
    expect(replies.size).toBe(1);
    // Overtaken after its first part (a newer run asked for while it arrives): the other parts are never sent.
    let newest = 2;
    const wanted = () => 2 >= newest;
    const fetching = fetchHeld(remote, second, wanted);
    newest = 3;
    expect(await fetching).toBeUndefined();
    expect(remote.calls).toEqual({ part: 1, drop: 2 });
    expect(replies.size).toBe(0);
    // A newer reply is still fetched whole.
    const third = replies.hold(run(3), ['rows']);
    expect(await fetchHeld(remote, third, () => 3 >= newest)).toEqual(run(3));
  });

  it('writes an array made on read item by item, unmade, with the bytes of the plain array', () => {
    const point = (i: number) => ({ index: i, note: `p${i} 日本 ${'x'.repeat(i % 50)}`, ids: [i, i + 1] });
    const plain = { runId: 7, timeline: Array.from({ length: 400 }, (_, i) => point(i)), events: [{ a: 1 }], z: 'end' };
    let made = 0;
    let whole = 0;
    const items = {
      length: 400,
      at: (i: number) => {
        made++;
        return point(i);
      },
      toArray: () => {
        whole++;
        return Array.from({ length: 400 }, (_, i) => point(i));
      },
    };
    const lazy: Record<string, unknown> = { runId: 7, timeline: [], events: [{ a: 1 }], z: 'end' };
    madeOnRead(lazy, 'timeline', items);
    const keys = ['timeline', 'events'];
    const a = cutParts(plain, keys, 3000);
    const b = cutParts(lazy, keys, 3000);
    expect(b.plan).toEqual(a.plan);
    expect(b.parts).toEqual(a.parts);
    for (let k = 0; k < a.plan.length; k++)
      expect(partValue(lazy, b.plan, k, keys)).toEqual(partValue(plain, a.plan, k, keys));
    expect(whole).toBe(0);
    expect(made).toBeGreaterThanOrEqual(400);
    expect(itemsOf(lazy, 'timeline')).toBe(items);
    // read: the plain array, in the field's place, made once; the wire then writes it as any array
    expect(Object.keys(lazy)).toEqual(Object.keys(plain));
    expect(JSON.stringify(lazy)).toBe(JSON.stringify(plain));
    expect(lazy.timeline).toBe(lazy.timeline);
    expect(whole).toBe(1);
    expect(itemsOf(lazy, 'timeline')).toBeUndefined();
    expect(cutParts(lazy, keys, 3000).parts).toEqual(a.parts);
    // written over before a read: the new value, no longer made on read
    const other: Record<string, unknown> = { timeline: [] };
    madeOnRead(other, 'timeline', items);
    other.timeline = [1];
    expect(other.timeline).toEqual([1]);
    expect(itemsOf(other, 'timeline')).toBeUndefined();
    expect(whole).toBe(1);
    // a reply that is not an object: its head as before (a spread of null is {})
    expect(text(cutParts(null, keys).parts[0])).toBe('{}');
  });
});

describe('a run reply as the page fetches it (RUN_ARRAYS: the timeline packed as bytes)', () => {
  /** A typed chunk of `n` points from `from`, some values absent. */
  const chunk = (from: number, n: number): ReturnType<typeof typed> => {
    const col = (f: (i: number) => number | null) => Array.from({ length: n }, (_, i) => f(i));
    const c = { from, threads: ['main'], models: ['m'], cats: ['c0'], catValues: [col((i) => (i % 2 ? i : null))] };
    const j = c as Record<string, unknown>;
    for (const k of FLOAT_COLUMNS) j[k] = col((i) => (i % 3 ? from + i : null));
    for (const k of INT_COLUMNS) j[k] = col((i) => from + i);
    return typed(c as JsonChunk);
  };
  const run = (runId: number, chunks: number) => ({
    runId,
    timeline: Array.from({ length: chunks }, (_, n) => chunk(3 * n, 3)),
    breaks: [{ point: 1 }],
    pairing: [],
  });
  const remoteOf = (replies: HeldReplies) => ({
    part: async (id: number, k: number) => replies.part(id, k),
    drop: async (id: number) => replies.drop(id),
  });

  it('is fetched whole through fetchHeld: several packed parts, an empty timeline, one overtaken mid-way', async () => {
    const replies = new HeldReplies();
    const remote = remoteOf(replies);
    const whole = replies.hold(run(1, 20), RUN_ARRAYS);
    expect(whole.plan.filter((p) => p.codec === 'timeline').length).toBeGreaterThan(2);
    expect(await fetchHeld(remote, whole)).toEqual(run(1, 20));
    const empty = replies.hold(run(2, 0), RUN_ARRAYS);
    expect(await fetchHeld(remote, empty)).toEqual(run(2, 0));
    // Overtaken after its first packed part: dropped in the worker, nothing answered.
    const third = replies.hold(run(3, 20), RUN_ARRAYS);
    let asked = 0;
    const wanted = () => asked++ < 2;
    expect(await fetchHeld(remote, third, wanted)).toBeUndefined();
    expect(replies.size).toBe(0);
  });
});
