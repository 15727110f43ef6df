// The counting pool returns a long text's line-unit counts beside its count, and a block cut after those are
// handed to the tokenizer (meter.seedLines) is counted exactly while tokenizing only the lines at the cut — what
// keeps a window or tier2Cap drag from re-tokenizing every truncated result on the engine's thread.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ToolResultBlock } from '../../src/model/transcript.ts';
import { truncateHeadTail } from '../../src/pipeline/markers.ts';
import type { BpeCounter } from '../../src/tokens/bpe.ts';
import { countAll, countPacked, inlineEndpoint } from '../../src/tokens/count-pool.ts';
import { TokenMeter } from '../../src/tokens/meter.ts';
import { packTexts } from '../../src/tokens/pack.ts';
import { CachedTokenizer, loadCounter } from '../../src/tokens/tokenizer.ts';

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

  it('a primed block cut at any cap is counted exactly, tokenizing only the lines at the cut', async () => {
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
    meter.seedLines(block);
    const fresh = new CachedTokenizer('o200k_base', counter);
    for (const cap of [500, 2_000, 10_000, 40_000]) {
      const before = chars();
      const cut: ToolResultBlock = { ...block, content: truncateHeadTail(text, cap) };
      expect(meter.block(cut)).toBe(fresh.count(cut.content as string));
      // The kept lines are looked up: what is tokenized is the line at each cut and the marker.
      expect(chars() - before).toBeLessThan(1_000);
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
});
