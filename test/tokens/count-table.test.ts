import { describe, expect, it } from 'vitest';
import { hash53 } from '../../src/lib/hash.ts';
import { CountTable } from '../../src/tokens/count-table.ts';

describe('CountTable (the tokenizer cache in typed arrays)', () => {
  it('holds what a Map keyed by hash and length holds, through growth', () => {
    const t = new CountTable(16);
    const want = new Map<string, number>();
    for (let i = 0; i < 5000; i++) {
      const text = `text number ${i} ${'x'.repeat(i % 37)}`;
      t.set(hash53(text), text.length, i * 3);
      want.set(text, i * 3);
    }
    expect(t.size).toBe(want.size);
    for (const [text, n] of want) expect(t.get(hash53(text), text.length)).toBe(n);
    expect(t.get(hash53('never set, long enough'), 22)).toBeUndefined();
  });

  it('keeps one entry per key: a second set overwrites', () => {
    const t = new CountTable();
    t.set(12345, 30, 7);
    t.set(12345, 30, 9);
    expect(t.size).toBe(1);
    expect(t.get(12345, 30)).toBe(9);
  });

  it('tells apart equal hashes of different lengths and slots that collide', () => {
    const t = new CountTable(16);
    // 2**40 + 5 and 5 land in the same slot of a 16-slot table (as every multiple of 16 apart does).
    t.set(5, 24, 1);
    t.set(2 ** 40 + 5, 24, 2);
    t.set(5, 25, 3);
    t.set(21, 24, 4);
    expect([t.get(5, 24), t.get(2 ** 40 + 5, 24), t.get(5, 25), t.get(21, 24), t.get(37, 24)]).toEqual([
      1,
      2,
      3,
      4,
      undefined,
    ]);
  });

  it('forgets everything on clear', () => {
    const t = new CountTable();
    t.set(1, 24, 1);
    t.clear();
    expect(t.size).toBe(0);
    expect(t.get(1, 24)).toBeUndefined();
  });
});
