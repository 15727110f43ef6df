import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { beforeAll, describe, expect, it } from 'vitest';
import { BpeCounter } from '../../src/tokens/bpe.ts';
import { createTokenizer } from '../../src/tokens/tokenizer.ts';
import { cpuMs } from '../helpers/cpu-time.ts';

const corpora: Record<string, string> = {
  code: 'export function add(a: number, b: number): number {\n  return a + b; // sum\n}\n\tconst x = [1, 2, 3].map((v) => v * 2);\n',
  json: JSON.stringify({
    id: 'toolu_01ABC',
    input: { file_path: '/src/a.ts', n: 12345.678, ok: true, list: [null, 'x'] },
  }),
  prose: "It's the file we're editing: they'll re-read it. The quick brown fox jumps over the lazy dog. Don't panic!",
  cjk: '階層型圧縮は、古いものを圧縮すればいい——ところが40ステップ前に読んだそのファイルこそ、いま編集しているファイルだ。한국어 텍스트와 中文文本。',
  emoji: 'Deploy 🚀🚀 done ✅ — family 👨‍👩‍👧‍👦, flags 🇯🇵🇺🇸, skin 👍🏽, zwj ‍ end',
  special: 'literal <|endoftext|> and <|endofprompt|> and <|fim_prefix|> in a transcript',
  spaces: `a${' '.repeat(1500)}b`,
  equals: '='.repeat(900),
  aaaa: 'a'.repeat(700),
  lower: 'qwertyuiopasdfghjklzxcvbnm'.repeat(30),
  han: '漢字'.repeat(200),
  base64: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='.repeat(5),
  mixed: '\r\n\r\n  \n\t\t x\u00a0y\u200b z \u202e reversed \ud800 lone',
};

describe('BpeCounter equals js-tiktoken encode on every corpus', () => {
  for (const [name, ranks] of [
    ['o200k_base', o200k],
    ['cl100k_base', cl100k],
  ] as const) {
    const ref = new Tiktoken(ranks);
    const fast = new BpeCounter(ranks);
    for (const [kind, text] of Object.entries(corpora)) {
      it(`${name} ${kind}`, () => {
        expect(fast.count(text)).toBe(ref.encode(text, [], []).length);
      });
    }
    it(`${name} random strings`, () => {
      let seed = 7;
      const rnd = () => {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        return seed / 0x7fffffff;
      };
      const alphabet = 'ab  \n\t.,;:!?()[]{}"\'01239_-=+/*日本語テキスト한글😀é';
      for (let k = 0; k < 200; k++) {
        const len = Math.floor(rnd() * 120);
        let s = '';
        for (let i = 0; i < len; i++) s += [...alphabet][Math.floor(rnd() * [...alphabet].length)];
        expect(fast.count(s), JSON.stringify(s)).toBe(ref.encode(s, [], []).length);
      }
    });
    it(`${name} single pieces of 20–300 bytes (letter runs: the short-piece merge's range and past it)`, () => {
      let seed = 11;
      const rnd = () => {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        return seed / 0x7fffffff;
      };
      const scripts = [
        'abcdefghijklmnopqrstuvwxyz',
        'aeiouxyzAEIOUXYZ',
        'ぁあいうえおかきくけこさしアイウエオ日本語漢字',
        '한국어텍스트',
        'абвгдежзий',
        'éèêàç',
      ];
      for (let k = 0; k < 300; k++) {
        const letters = [...scripts[k % scripts.length]];
        const len = 7 + Math.floor(rnd() * 100);
        let s = ' ';
        for (let i = 0; i < len; i++) s += letters[Math.floor(rnd() * letters.length)];
        expect(fast.count(s), JSON.stringify(s)).toBe(ref.encode(s, [], []).length);
      }
    });
    it(`${name} runs of one or two repeated characters up to 256 bytes (ties everywhere: the leftmost pair first)`, () => {
      for (const unit of ['a', 'ab', 'é', 'あ', 'あい', '語', 'ы', '한'])
        for (let k = 1; (k + 1) * new TextEncoder().encode(unit).length <= 256; k++) {
          const s = ` ${unit.repeat(k)}`;
          expect(fast.count(s), JSON.stringify(s)).toBe(ref.encode(s, [], []).length);
        }
    });
  }
});

describe('long pieces are memoised by content (issue 30: a "=====" rule in every cut of a result)', () => {
  for (const [name, ranks] of [
    ['o200k_base', o200k],
    ['cl100k_base', cl100k],
  ] as const) {
    it(`${name}: runs and unspaced texts of 65–1,000 characters, counted again from the memo, equal js-tiktoken`, () => {
      const ref = new Tiktoken(ranks);
      const fast = new BpeCounter(ranks);
      const texts: string[] = [];
      // Up to 1,000 characters: js-tiktoken's merge of one piece is quadratic (2,000 took ~9 s a text list here,
      // past the test timeout on a busy machine), and a piece is memoised past 64 characters whatever its length.
      for (const n of [65, 66, 100, 243, 256, 257, 700, 1000])
        texts.push('='.repeat(n), '-'.repeat(n), 'a'.repeat(n), 'テキスト'.repeat(Math.ceil(n / 4)).slice(0, n));
      // Pieces that differ only in length or in one character: a memo keyed loosely would mix them up.
      texts.push(`${'='.repeat(120)}\n\n`, `${'='.repeat(119)}-`, `${'='.repeat(118)}--`);
      const expected = texts.map((t) => ref.encode(t, [], []).length);
      for (let round = 0; round < 2; round++)
        for (const [i, t] of texts.entries())
          expect(fast.count(t), `${round} ${JSON.stringify(t.slice(0, 12))} ×${t.length}`).toBe(expected[i]);
    });
  }
});

describe('pieces are stepped through contiguously, and a pattern that skips text still counts as js-tiktoken', () => {
  // The encodings' patterns match every character, so the counter steps from piece to piece with a sticky regex;
  // where nothing matches (a pattern of letters only) it falls back to searching, as matchAll does.
  const letters = { ...o200k, pat_str: String.raw`\p{L}+| ?\p{N}+` };
  it('a letters-only pattern: spaces, punctuation and lone surrogates between pieces are skipped', () => {
    const ref = new Tiktoken(letters);
    const fast = new BpeCounter(letters);
    for (const t of [
      'hello, world!',
      '  lead and trail  ',
      'a1 22 333 x',
      '\ud800abc\udc00 def',
      '...',
      '',
      'Ünïcödé テキスト',
    ])
      expect(fast.count(t), JSON.stringify(t)).toBe(ref.encode(t, [], []).length);
  });
});

describe('CachedTokenizer', () => {
  let tok: Awaited<ReturnType<typeof createTokenizer>>;
  beforeAll(async () => {
    tok = await createTokenizer('o200k_base');
  });
  it('counts hello world as 2 tokens and caches long texts by hash', () => {
    expect(tok.count('hello world')).toBe(2);
    const long = 'The same paragraph, counted twice. '.repeat(10);
    const first = tok.count(long);
    const misses = tok.misses;
    expect(tok.count(long)).toBe(first);
    expect(tok.misses).toBe(misses);
    expect(tok.hits).toBeGreaterThan(0);
  });
  it('never throws on special-token text', () => {
    expect(() => tok.count('<|endoftext|>'.repeat(50))).not.toThrow();
  });
  it('handles a long pathological run quickly and exactly (heap merge)', () => {
    const ref = new Tiktoken(o200k);
    const run = ' '.repeat(3000);
    expect(tok.count(`x${run}y`)).toBe(ref.encode(`x${run}y`, [], []).length);
    // 200k spaces: js-tiktoken would take hours (quadratic); the heap merge finishes within the test timeout.
    expect(tok.count(' '.repeat(200_000))).toBeGreaterThan(1000);
  });
});

describe('long texts and long runs of one character (issue 19, item 5)', () => {
  const counter = new BpeCounter(o200k);
  const ref = new Tiktoken(o200k);

  it('a text over the 64 K window, cut at spaces, counts exactly as js-tiktoken', () => {
    const words = ['alpha', 'βήτα', '漢字', 'x=1;', '  ', 'naïve', '\n', 'https://a.b/c', '42', 'ok'];
    const parts: string[] = [];
    for (let i = 0, len = 0; len < 140_000; i++) {
      parts.push(words[(i * 7) % words.length]);
      len += parts[i].length + 1;
    }
    const text = parts.join(' ');
    expect(counter.count(text)).toBe(ref.encode(text, [], []).length);
  });

  it('a window is not cut at a space between two ideographic spaces (one piece, `\\s+(?!\\S)`)', () => {
    // The last space before the window's end sits in "　 　's"; the run after it has none.
    const text = `${'ab '.repeat(21_000)}.\u3000 \u3000's${'y'.repeat(3_000)} tail`;
    expect(counter.count(text)).toBe(ref.encode(text, [], []).length);
  });

  it('a window with no space to cut at is cut between pieces: unspaced blobs over 64 K count exactly', () => {
    // Minified code, base64, hex dumps, URLs run together: no " " between two non-spaces for 32 K characters.
    const kinds = [
      (i: number) => `var_${i}=f(${i % 97});if(x>${i}){y+=${i}}else{z.push("k${i}")};`,
      (i: number) => btoa(String.fromCharCode(...Array.from({ length: 48 }, (_, k) => (i * 31 + k * 7) % 256))),
      (i: number) => `0x${((i * 2654435761) >>> 0).toString(16)}ABCdef${i}`,
      (i: number) => `https://example.org/${i}/%E6%BC%A2?q=${i}&漢字${i}`,
    ];
    for (const kind of kinds) {
      const parts: string[] = [];
      for (let i = 0, len = 0; len < 150_000; i++) {
        parts.push(kind(i));
        len += parts[i].length;
      }
      const text = parts.join('');
      expect(counter.count(text)).toBe(ref.encode(text, [], []).length);
    }
  });

  it('five million non-ASCII letters in a row: no stack overflow, linear time, within one token per 4 KB', async () => {
    const { result: n, ms } = await cpuMs(() => counter.count('é'.repeat(5_000_000)));
    expect(ms, 'CPU ms').toBeLessThan(5_000);
    // Each é is its own token in o200k (checked on a short run); the chunk cuts cost nothing here.
    expect(ref.encode('é'.repeat(4000), [], []).length).toBe(4000);
    expect(n).toBe(5_000_000);
  });

  it('a megabyte of one ASCII letter counts in well under the 1.5 s/MB of one long merge', async () => {
    const { result: n, ms } = await cpuMs(() => counter.count('a'.repeat(1 << 20)));
    expect(ms, 'CPU ms').toBeLessThan(1_500);
    // Merged in 256 chunks of 4 KB: each as js-tiktoken counts 4 KB of it (off by at most one per cut).
    expect(n).toBe(ref.encode('a'.repeat(4096), [], []).length * 256);
  });
});
