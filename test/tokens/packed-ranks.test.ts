// Packed ranks (what the built CLI loads) give every token of both encodings the rank js-tiktoken's base64 file
// gives it, and a counter over them counts exactly as the one over the rank file, on real transcript text.
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { describe, expect, it } from 'vitest';
import { BpeCounter, type RankFile } from '../../src/tokens/bpe.ts';
import { PackedTable, packRanks } from '../../src/tokens/packed-ranks.ts';
import { describeWild, loadWild } from '../helpers/fixtures.ts';

const FILES: [string, RankFile][] = [
  ['o200k_base', o200k as RankFile],
  ['cl100k_base', cl100k as RankFile],
];

describe('packed ranks', () => {
  for (const [name, file] of FILES)
    it(`${name}: every token has its rank, and bytes that are no token have none`, () => {
      const table = new PackedTable(packRanks(file.bpe_ranks));
      const tokens = file.bpe_ranks.split(' ').slice(2);
      const rankOf = (bytes: Uint8Array) => table.rank(bytes, 0, bytes.length);
      for (const [rank, b64] of tokens.entries()) {
        const bytes = Buffer.from(b64, 'base64');
        if (rankOf(bytes) !== rank) expect({ rank, got: rankOf(bytes) }).toEqual({ rank, got: rank });
      }
      expect(rankOf(new Uint8Array(0))).toBe(-1);
      expect(rankOf(Uint8Array.of(0xff, 0xfe, 0xfd, 0xfc, 0xfb))).toBe(-1);
      // A range inside a larger buffer is looked up as those bytes alone.
      const first = Buffer.from(tokens[0], 'base64');
      expect(table.rank(Uint8Array.of(0xff, ...first, 0xfe), 1, 1 + first.length)).toBe(0);
    });

  it('refuses ranks that are not consecutive', () => {
    expect(() => packRanks('! 0 IQ== Ig==\n! 5 Iw==')).toThrow(/not consecutive/);
  });
});

describeWild('a counter over packed ranks counts as one over the rank file', () => {
  it('on every text of a real session, in both encodings', () => {
    const t = loadWild('claude-code/projects/ccl--experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl');
    const texts = t.threads.flatMap((th) => th.messages.flatMap((m) => m.blocks.map((b) => JSON.stringify(b))));
    expect(texts.length).toBeGreaterThan(200);
    for (const [, file] of FILES) {
      const plain = new BpeCounter(file);
      const packed = new BpeCounter({ pat_str: file.pat_str, packed: packRanks(file.bpe_ranks) });
      expect(texts.map((x) => packed.count(x))).toEqual(texts.map((x) => plain.count(x)));
    }
  });
});
