// The counting pool returns a long text's line-unit counts beside its count, and a head/tail cut of such a block
// (meter.primeCut) is counted exactly while tokenizing only the lines at the cut — and a cut of that cut the same
// way — what keeps a window or tier2Cap drag from re-tokenizing every truncated result on the engine's thread.
// cutUnits is checked against the tokenizer on generated texts dense in the characters that decide the cuts, alone
// and with a sequence of cuts of one text whose units at the cut are counted from the last cut's anchors.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ToolResultBlock } from '../../src/model/transcript.ts';
import { applyCut, headTailCut, truncateHeadTail } from '../../src/pipeline/markers.ts';
import type { BpeCounter } from '../../src/tokens/bpe.ts';
import { countAll, countPacked, inlineEndpoint } from '../../src/tokens/count-pool.ts';
import { type CutAnchors, cutCounter } from '../../src/tokens/cut-count.ts';
import { cutUnits, forEachLineUnit } from '../../src/tokens/line-units.ts';
import { TokenMeter } from '../../src/tokens/meter.ts';
import { packTexts } from '../../src/tokens/pack.ts';
import { CachedTokenizer, loadCounter } from '../../src/tokens/tokenizer.ts';
import { lineTextArb } from '../helpers/line-pieces.ts';

let counter: BpeCounter;
beforeAll(async () => {
  counter = await loadCounter('o200k_base');
});

/** A tool result of `n` numbered source lines (Read-tool style), long enough to be counted by lines. */
function longResult(n: number): string {
  const lines: string[] = [];
  for (let i = 1; i <= n; i++)
    lines.push(`${String(i).padStart(6)}\tconst value${i} = compute(input[${i}], "field_${i % 17}") // step ${i}`);
  return lines.join('\n');
}

/** A tokenizer over `counter` that records how many characters it tokenized. */
function recording(): { tok: CachedTokenizer; chars: () => number } {
  let chars = 0;
  const tok = new CachedTokenizer('o200k_base', {
    count(text: string) {
      chars += text.length;
      return counter.count(text);
    },
  });
  return { tok, chars: () => chars };
}

describe('counting pool line units', () => {
  it('returns each long text’s line counts, summing to the count the engine’s tokenizer gives', () => {
    const texts = ['short text', longResult(300), `${longResult(40)}\n\n  indented tail\n/path/next`];
    const reply = countPacked(counter, { id: 0, encoding: 'o200k_base', packed: packTexts(texts) });
    const fresh = new CachedTokenizer('o200k_base', counter);
    texts.forEach((t, i) => {
      expect(reply.counts[i]).toBe(fresh.count(t));
      const units = reply.units.subarray(reply.unitStarts[i], reply.unitStarts[i + 1]);
      if (t.length < 1024) expect(units.length).toBe(0);
      else {
        expect(units.length).toBeGreaterThan(1);
        expect(units.reduce((a, b) => a + b, 0)).toBe(reply.counts[i]);
      }
    });
  });

  it('a primed block cut at any cap, and a cut of that cut, is counted exactly, tokenizing only the lines at the cut', async () => {
    const text = longResult(2000);
    const block: ToolResultBlock = { type: 'tool_result', toolUseId: 'toolu_1', content: text, isError: false };
    const units: Uint32Array[] = [];
    const [count] = await countAll(
      [text],
      'o200k_base',
      [inlineEndpoint(async () => counter)],
      undefined,
      undefined,
      (i, u) => {
        units[i] = u;
      },
    );
    const { tok, chars } = recording();
    const meter = new TokenMeter(tok);
    meter.primeBlock(block, count, units[0]);
    const fresh = new CachedTokenizer('o200k_base', counter);
    for (const cap of [500, 2_000, 10_000, 40_000]) {
      const before = chars();
      const c = headTailCut(text, cap);
      if (!c) throw new Error('fits');
      const cut: ToolResultBlock = { ...block, content: applyCut(text, c) };
      meter.primeCut(block, cut, c);
      expect(meter.block(cut)).toBe(fresh.count(cut.content as string));
      // The kept lines are not tokenized again: only the line at each cut and the marker.
      expect(chars() - before).toBeLessThan(1_000);
      const again = headTailCut(cut.content as string, Math.floor(cap / 3));
      if (!again) throw new Error('fits');
      const cut2: ToolResultBlock = { ...block, content: applyCut(cut.content as string, again) };
      meter.primeCut(cut, cut2, again);
      expect(meter.block(cut2)).toBe(fresh.count(cut2.content as string));
    }
  });

  it('without the pool’s lines the same cut tokenizes everything it keeps', () => {
    const text = longResult(2000);
    const { tok, chars } = recording();
    const meter = new TokenMeter(tok);
    const cut: ToolResultBlock = {
      type: 'tool_result',
      toolUseId: 'toolu_1',
      content: truncateHeadTail(text, 40_000),
      isError: false,
    };
    meter.block(cut);
    expect(chars()).toBeGreaterThan(39_000);
  });

  it('a cut of a block without line units is counted on the block, not hashed into the tokenizer’s cache', () => {
    const text = `${'日本語のテキストと English words, '.repeat(30)}end`;
    const block: ToolResultBlock = { type: 'tool_result', toolUseId: 'toolu_1', content: text, isError: false };
    const tok = new CachedTokenizer('o200k_base', counter);
    const meter = new TokenMeter(tok);
    meter.block(block);
    const fresh = new CachedTokenizer('o200k_base', counter);
    for (const cap of [40, 300, 700]) {
      const c = headTailCut(text, cap);
      if (!c) throw new Error('fits');
      const cut: ToolResultBlock = { ...block, content: applyCut(text, c) };
      const size = tok.size;
      meter.primeCut(block, cut, c);
      expect(meter.hasBlock(cut)).toBe(true);
      expect(meter.block(cut)).toBe(fresh.count(cut.content as string));
      expect(tok.size).toBe(size);
    }
  });

  it('cutUnits: the cut text’s count at any head and tail, on texts dense in line breaks and indentation', () => {
    const textArb = lineTextArb(1, 300);
    const markers = ['\n\n[... truncated 5 chars ...]\n\n', '', ' x ', '\n'];
    fc.assert(
      fc.property(textArb, fc.nat(), fc.nat(), fc.constantFrom(...markers), (text, x, y, marker) => {
        const head = x % (text.length + 1);
        const tail = head + (y % (text.length - head + 1));
        const units: number[] = [];
        forEachLineUnit(text, (p) => units.push(counter.count(p)));
        const cut = text.slice(0, head) + marker + text.slice(tail);
        const made = cutUnits(text, units, head, tail, cut, (p) => counter.count(p));
        expect(made?.reduce((a, b) => a + b, 0)).toBe(counter.count(cut));
        const own: number[] = [];
        forEachLineUnit(cut, (p) => own.push(counter.count(p)));
        expect([...(made ?? [])]).toEqual(own);
      }),
      { numRuns: 3000 },
    );
  });

  it('cutUnits with anchors: every cut of a sequence of caps gives the cut text’s own units, tokenizing less', () => {
    // Long lines without many breaks (prose, CJK, code): the unit at each cut is long, what the anchors are for.
    const WORDS = ['the', ' ', 'Word', '、', 'キャッシュの', '123', '.', "'s", '\n', '\n  ', '(x)', 'é', '/', 'ab9'];
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    let anchored = 0;
    let plain = 0;
    let counted = 0;
    for (let k = 0; k < 300; k++) {
      let text = '';
      for (let i = 200 + rnd(800); i > 0; i--) text += WORDS[rnd(rnd(12) === 0 ? WORDS.length : 8)];
      const units: number[] = [];
      forEachLineUnit(text, (p) => units.push(counter.count(p)));
      let prev: CutAnchors | undefined;
      let cap = 40 + rnd(300);
      for (let step = 0; step < 12; step++) {
        cap = rnd(6) === 0 ? 10 + rnd(text.length) : Math.max(4, cap + rnd(60) - 20);
        const c = headTailCut(text, cap);
        if (!c) continue;
        const cut = applyCut(text, c);
        const counting = (s: string) => {
          counted += s.length;
          return counter.count(s);
        };
        const cc = cutCounter(text, cut, c.head, c.tail, counting, prev);
        const made = cutUnits(text, units, c.head, c.tail, cut, cc.part);
        const own: number[] = [];
        forEachLineUnit(cut, (p) => own.push(counter.count(p)));
        expect([...(made ?? [])], JSON.stringify({ text, cap })).toEqual(own);
        const plainMade = cutUnits(text, units, c.head, c.tail, cut, (p) => {
          plain += p.length;
          return counter.count(p);
        });
        expect(plainMade).toEqual(made);
        const next = cc.anchors();
        if (prev && next.head > next.from && prev.from === next.from && prev.head > prev.from) anchored++;
        prev = next;
      }
    }
    // The anchors were carried from cut to cut, and less text was tokenized than counting each unit at the cut.
    expect(anchored).toBeGreaterThan(1000);
    // (A first cut of a text, and a far jump to another line, count the unit at the cut whole: ~1 step in 4.)
    expect(counted).toBeLessThan(plain * 0.8);
  });
});
