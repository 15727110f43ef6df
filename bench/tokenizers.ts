// Tokenizer comparison on the same blocks in the same run (issue 5): naive per-block js-tiktoken encode,
// the fastest exact JS tokenizer on the registry we found (ai-tokenizer, also gpt-tokenizer), and
// Tierscope's BpeCounter; counts must be identical.
import Tokenizer from 'ai-tokenizer';
import * as aiEnc from 'ai-tokenizer/encoding';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { BpeCounter } from '../src/tokens/bpe.ts';

export type TokenizerRun = { name: string; ms: number; tokens: number };

export function blocksTimer(blocks: readonly string[]) {
  const time = (name: string, count: (s: string) => number): TokenizerRun => {
    const t0 = performance.now();
    let tokens = 0;
    for (const b of blocks) tokens += count(b);
    return { name, ms: performance.now() - t0, tokens };
  };
  return {
    naiveJsTiktoken(limitMs = Number.POSITIVE_INFINITY): TokenizerRun & { partial?: number } {
      const enc = new Tiktoken(o200k);
      const t0 = performance.now();
      let tokens = 0;
      let i = 0;
      for (; i < blocks.length; i++) {
        tokens += enc.encode(blocks[i], [], []).length;
        if (performance.now() - t0 > limitMs) break;
      }
      const ms = performance.now() - t0;
      if (i < blocks.length) {
        // Extrapolate by bytes processed (reported as partial).
        const done = blocks.slice(0, i + 1).reduce((n, b) => n + b.length, 0);
        const all = blocks.reduce((n, b) => n + b.length, 0);
        return { name: 'js-tiktoken (naive, per block)', ms: (ms * all) / done, tokens, partial: done / all };
      }
      return { name: 'js-tiktoken (naive, per block)', ms, tokens };
    },
    aiTokenizer(): TokenizerRun {
      const tok = new Tokenizer(aiEnc.o200k_base);
      return time('ai-tokenizer', (s) => tok.encode(s, [], []).length);
    },
    bpeCounter(): TokenizerRun {
      const c = new BpeCounter(o200k);
      return time('tierscope BpeCounter', (s) => c.count(s));
    },
  };
}
