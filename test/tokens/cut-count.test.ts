// A head/tail cut counted from the last cut of the same text (cut-count.ts) equals counting the cut text whole, in
// both encodings, for every sequence of caps (growing, shrinking, repeated, far jumps) on texts dense in what decides
// piece boundaries: single and double spaces, tabs and newlines, punctuation, contractions, digits, CJK runs without
// spaces, emoji and lone surrogates — and texts without a space (CJK prose, base64-like runs), cut at the boundaries
// between letters, numbers and punctuation.
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { describe, expect, it } from 'vitest';
import { applyCut, headTailCut } from '../../src/pipeline/markers.ts';
import { BpeCounter } from '../../src/tokens/bpe.ts';
import { type CutAnchors, cutCounter } from '../../src/tokens/cut-count.ts';

/** Words, and a whitespace-dense alphabet (runs of mixed whitespace are where a space is no boundary). */
const WORDS = [
  ' ',
  ' ',
  '  ',
  '\t',
  '\n',
  ' \n ',
  'the',
  'Word',
  "'s",
  "don't",
  'x.y',
  '...',
  '123',
  '4567',
  '日本語の',
  'テキスト',
  '、',
  '😀',
  '\ud800',
  '\u00a0',
  '/',
  '->',
  '(a)',
  'éa',
];
/** No spaces: letters, numbers, punctuation, marks and apostrophes side by side. */
const UNSPACED = [
  'キャッシュ',
  'の',
  'ヒット率',
  '、',
  '。',
  'ー',
  'abc',
  'XYZ',
  'Ab',
  '0',
  '12',
  '3456',
  '+',
  '/',
  '=',
  "'",
  "'s",
  'é',
  'e\u0301',
  '\u0301',
  '😀',
  '\ud800',
  '\n',
  '_',
  '٣',
  'Ⅻ',
  'हिंदी',
  'किताब',
  'ภาษาไทย',
  'ที่',
];
const DENSE = [' ', ' ', ' ', '  ', '\t', '\n', '\r\n', 'a', 'B', '.', '日', '\u00a0', '\u3000', "'s", '1'];

describe('cutCounter', () => {
  for (const [name, ranks] of [
    ['o200k_base', o200k],
    ['cl100k_base', cl100k],
  ] as const)
    it(`${name}: every cut of a sequence equals the cut text counted whole`, () => {
      const counter = new BpeCounter(ranks);
      const count = (s: string) => counter.count(s);
      let seed = 3;
      const rnd = (n: number) => {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        return seed % n;
      };
      let used = 0;
      let unspaced = 0;
      for (let k = 0; k < 900; k++) {
        const alphabet = k % 3 === 0 ? WORDS : k % 3 === 1 ? DENSE : UNSPACED;
        let text = '';
        for (let i = 40 + rnd(400); i > 0; i--) text += alphabet[rnd(alphabet.length)];
        let prev: CutAnchors | undefined;
        for (let step = 0; step < 16; step++) {
          const cap = rnd(5) === 0 ? rnd(text.length) : 10 + rnd(120);
          const c = headTailCut(text, cap);
          if (!c) continue;
          const cut = applyCut(text, c);
          const counter = cutCounter(text, cut, c.head, c.tail, count, prev);
          expect(counter.part(cut, 0), JSON.stringify({ text, cap })).toBe(count(cut));
          const anchors = counter.anchors();
          if (prev && anchors.head > 0 && prev.head > 0) {
            used++;
            if (k % 3 === 2) unspaced++;
          }
          prev = anchors;
        }
      }
      // The anchors were carried from cut to cut (not only counted from scratch).
      expect(used).toBeGreaterThan(3000);
      expect(unspaced).toBeGreaterThan(1500);
    });
});
