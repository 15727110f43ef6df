// Counting a long text line by line (src/tokens/line-units.ts) gives exactly the count of the whole text, in both
// encodings: on generated texts dense in the characters that decide piece boundaries (newlines, spaces, "/",
// punctuation, digits, apostrophes, CJK, emoji, lone surrogates, Unicode spaces), and on every text of the
// real fixtures.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Block } from '../../src/model/transcript.ts';
import { blockText } from '../../src/tokens/block-text.ts';
import type { BpeCounter } from '../../src/tokens/bpe.ts';
import { forEachLineUnit } from '../../src/tokens/line-units.ts';
import { CachedTokenizer, type EncodingName, loadCounter } from '../../src/tokens/tokenizer.ts';
import { describeReal, fixtureInputs, loadAt } from '../helpers/fixtures.ts';
import { lineTextArb } from '../helpers/line-pieces.ts';

const counters = new Map<EncodingName, BpeCounter>();
beforeAll(async () => {
  for (const e of ['o200k_base', 'cl100k_base'] as const) counters.set(e, await loadCounter(e));
});

const textArb = lineTextArb(0, 400);

function byLines(counter: BpeCounter, text: string): number {
  let n = 0;
  forEachLineUnit(text, (part) => {
    n += counter.count(part);
  });
  return n;
}

describe('line units', () => {
  it('concatenate back to the text', () => {
    fc.assert(
      fc.property(textArb, (text) => {
        const parts: string[] = [];
        forEachLineUnit(text, (p) => parts.push(p));
        expect(parts.join('')).toBe(text);
      }),
    );
  });

  it('cut before an indented line (a numbered file listing) but never inside a run holding a line break', () => {
    const parts: string[] = [];
    forEachLineUnit('     1\tconst a = 1;\n     2\tconst b = 2;\n  \n     4\tx', (p) => parts.push(p));
    // Not after "b = 2;\n": the whitespace after it holds another "\n" (one newline-run piece spans both).
    expect(parts).toEqual(['     1\tconst a = 1;\n', '     2\tconst b = 2;\n  \n', '     4\tx']);
  });

  for (const enc of ['o200k_base', 'cl100k_base'] as const) {
    it(`${enc}: the sum of the units' counts is the text's count`, () => {
      const counter = counters.get(enc) as BpeCounter;
      fc.assert(
        fc.property(textArb, (text) => {
          expect(byLines(counter, text)).toBe(counter.count(text));
        }),
        { numRuns: 2000 },
      );
    });
  }

  it('the tokenizer counts a long text line by line and gets its exact count, also a second time', () => {
    const counter = counters.get('o200k_base') as BpeCounter;
    const tok = new CachedTokenizer('o200k_base', counter);
    const text = Array.from({ length: 400 }, (_, i) => `line ${i}: /path/to/file_${i % 7}.ts -> ok\n`).join('');
    expect(tok.count(text)).toBe(counter.count(text));
    const head = text.slice(0, 5000);
    expect(tok.count(head)).toBe(counter.count(head));
  });
});

describeReal('line units on every fixture text', () => {
  for (const f of fixtureInputs()) {
    it(f.rel, () => {
      const t = loadAt(f.path, f.rel);
      const counter = counters.get('o200k_base') as BpeCounter;
      const texts = new Set<string>();
      const add = (b: Block) => {
        const s = blockText(b);
        if (s.includes('\n')) texts.add(s);
      };
      for (const th of t.threads) for (const m of th.messages) for (const b of m.blocks) add(b);
      let checked = 0;
      for (const s of texts) {
        if (byLines(counter, s) !== counter.count(s)) throw new Error(`mismatch on a text of ${s.length} chars`);
        checked++;
      }
      expect(checked).toBe(texts.size);
    });
  }
});
