import { describe, expect, it } from 'vitest';
import { CLIP_CHARS, CLIP_ITEMS, clippedJson, clipText } from '../../worker/clip.ts';

describe('detail clipping', () => {
  it('leaves text up to the limit alone', () => {
    const s = 'x'.repeat(CLIP_CHARS);
    expect(clipText(s)).toBe(s);
  });

  it('keeps the head of longer text and says how much is not shown', () => {
    const s = 'a'.repeat(CLIP_CHARS + 1);
    const out = clipText(s);
    expect(out.startsWith('a'.repeat(100_000))).toBe(true);
    expect(out).toContain('… [100,001 more characters not shown in the viewer; the transcript keeps them]');
    expect(out.length).toBeLessThan(100_200);
  });

  it('never cuts a surrogate pair', () => {
    const s = `${'a'.repeat(99_999)}${'😀'.repeat(60_000)}`;
    const out = clipText(s);
    expect(out.slice(0, 99_999)).toBe('a'.repeat(99_999));
    expect(out.charAt(99_999)).toBe(' '); // the emoji that would straddle the cut is left out whole
    expect(out).toContain('120,000 more characters');
  });

  it('clips only long strings inside JSON and keeps its structure', () => {
    const v = { uuid: 'u1', content: [{ type: 'tool_result', content: 't'.repeat(300_000) }], after: 'kept' };
    const out = clippedJson(v);
    const back = JSON.parse(out) as typeof v;
    expect(back.uuid).toBe('u1');
    expect(back.after).toBe('kept');
    expect(back.content[0].content).toMatch(/^t{100000} … \[200,000 more characters/);
    expect(v.content[0].content).toHaveLength(300_000);
  });
});

describe('detail clipping of long arrays', () => {
  it('keeps the first items of a long array and says how many are not shown', () => {
    const v = { edits: Array.from({ length: CLIP_ITEMS + 500 }, (_, i) => ({ n: i })), small: [1, 2, 3] };
    const back = JSON.parse(clippedJson(v)) as { edits: unknown[]; small: number[] };
    expect(back.edits).toHaveLength(CLIP_ITEMS + 1);
    expect(back.edits[CLIP_ITEMS - 1]).toEqual({ n: CLIP_ITEMS - 1 });
    expect(back.edits[CLIP_ITEMS]).toBe('… [500 more items not shown in the viewer; the transcript keeps them]');
    expect(back.small).toEqual([1, 2, 3]);
    expect(v.edits).toHaveLength(CLIP_ITEMS + 500);
  });
});
