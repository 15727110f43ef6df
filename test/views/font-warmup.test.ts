// warmGlyphs lays out only characters beyond Latin, each once, a bounded number per task, and calls that
// overlap run in order: a later call never finishes before characters an earlier call claimed are laid out.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { warmGlyphs } from '../../src/views/app/font-warmup.ts';

type Box = { className: string; textContent: string; laid: boolean };
let laid: Box[];

beforeEach(() => {
  laid = [];
  const body = {
    append(box: Box) {
      laid.push(box);
    },
  };
  const doc = {
    body,
    createElement() {
      const box = {
        className: '',
        textContent: '',
        laid: false,
        style: {},
        ownerDocument: doc,
        setAttribute() {},
        remove() {},
        get offsetWidth() {
          box.laid = true;
          return 0;
        },
      };
      return box;
    },
  };
  (globalThis as { document?: unknown }).document = doc;
});
afterEach(() => {
  delete (globalThis as { document?: unknown }).document;
});

const chars = (boxes: Box[]) => boxes.flatMap((b) => b.textContent.split(' ').filter(Boolean));

describe('warmGlyphs', () => {
  it('lays out characters beyond Latin once each, a bounded number per box, in the class asked for', async () => {
    await warmGlyphs(['plain ascii only é', '日本語の文 日本', 'Ωж 😀'], 'c-preview', 3);
    expect(chars(laid)).toEqual(['日', '本', '語', 'の', '文', 'Ω', 'ж', '😀']);
    expect(laid.every((b) => b.laid && b.className === 'c-preview')).toBe(true);
    expect(laid.map((b) => b.textContent.split(' ').length)).toEqual([3, 3, 2]);
    await warmGlyphs(['日本 Ω 新'], 'c-preview', 3);
    expect(chars(laid).slice(8)).toEqual(['新']);
  });

  it('runs overlapping calls in order, so the second ends after the first has laid out its characters', async () => {
    const seenAtSecondEnd: string[][] = [];
    const first = warmGlyphs(['一二三四五六七八'], 'c-preview', 2);
    const second = warmGlyphs(['一二九'], 'c-preview', 2).then(() => seenAtSecondEnd.push(chars(laid)));
    await Promise.all([first, second]);
    expect(seenAtSecondEnd[0]).toEqual(['一', '二', '三', '四', '五', '六', '七', '八', '九']);
  });
});
