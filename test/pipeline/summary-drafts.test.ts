// A summary's tokens are made from its parts' counts (summary-drafts.ts): the header from its fixed texts and its
// numbers, the sections from their lines. Each must equal counting the whole text, in both encodings, for numbers of
// every length, with and without prose (prose that starts with "/" is counted with the header).
import { beforeAll, describe, expect, it } from 'vitest';
import { type ArtifactIndex, renderSections } from '../../src/pipeline/artifacts.ts';
import { SummaryDrafts, summaryHeader } from '../../src/pipeline/summary-drafts.ts';
import { TokenMeter } from '../../src/tokens/meter.ts';
import { type CachedTokenizer, createTokenizer, ENCODINGS } from '../../src/tokens/tokenizer.ts';

const tokenizers: Partial<Record<(typeof ENCODINGS)[number], CachedTokenizer>> = {};
beforeAll(async () => {
  for (const e of ENCODINGS) tokenizers[e] = await createTokenizer(e);
});

const NUMBERS = [0, 1, 7, 10, 42, 99, 100, 512, 999, 1000, 1234, 9999, 10000, 20000, 123456, 1234567];
const PROSE = ['', 'Earlier summary merged below.', '/src/a.ts was read', 'two\nlines: 12 and 345', '## Heading', '-x'];

const item = (text: string, request: number) => ({ text, request });
const INDEX: ArtifactIndex = {
  intent: [item('Refactor internal/auth/session.go to use the new cache API', 0)],
  filesModified: [item('/repo/internal/auth/session.go', 12), item('C:\\work\\a b.ts', 1234)],
  filesRead: [],
  decisions: [item("I'll keep the tests green — 日本語のテキスト", 7), item('   spaced   out  ', 99)],
  errors: [item('Error: ENOENT: no such file or directory, open /x/y', 1000)],
  state: [item('Working on the cache: 12345 entries', 20000)],
  next: [item('/slash first', 3)],
};
const EMPTY: ArtifactIndex = {
  intent: [],
  filesModified: [],
  filesRead: [],
  decisions: [],
  errors: [],
  state: [],
  next: [],
};

describe('summary tokens from their parts', () => {
  for (const encoding of ENCODINGS) {
    it(`header and prose sum to the whole head's count (${encoding})`, () => {
      const tk = tokenizers[encoding] as CachedTokenizer;
      const drafts = new SummaryDrafts();
      const meter = new TokenMeter(tk);
      for (const summarizer of ['extractive', 'fail', 'http'])
        for (const n of NUMBERS.filter((x) => x > 0))
          for (const first of NUMBERS)
            for (const last of [first, first + 1, first * 10 + 3])
              for (const prose of PROSE) {
                const head = `${summaryHeader(n, first, last, summarizer)}\n${prose ? `${prose}\n` : ''}`;
                expect(drafts.headTokens(meter, n, first, last, summarizer, prose)).toBe(tk.count(head));
              }
    });

    it(`a draft's count is the count of its text (${encoding})`, () => {
      const tk = tokenizers[encoding] as CachedTokenizer;
      const drafts = new SummaryDrafts();
      const meter = new TokenMeter(tk);
      for (const index of [INDEX, EMPTY, { ...INDEX, next: [] }]) {
        const text = `${summaryHeader(3, 10, 2000, 'extractive')}\n${renderSections(index)}`;
        expect(drafts.draft(meter, 3, 10, 2000, 'extractive', index)).toBe(tk.count(text));
        // Again: the items' lines come from the memo.
        expect(drafts.draft(meter, 3, 10, 2000, 'extractive', index)).toBe(tk.count(text));
      }
    });
  }
});

describe('the drafts a thread keeps (summary-drafts.ts nextRound)', () => {
  it("keeps the buckets of a thread's last three replays, apart from other threads'", () => {
    const drafts = new SummaryDrafts();
    const a = drafts.bucket('t1', 'extractive|1|');
    const other = drafts.bucket('t2', 'extractive|1|');
    expect(drafts.bucket('t1', 'extractive|1|')).toBe(a);
    expect(other).not.toBe(a);
    drafts.nextRound('t1');
    expect(drafts.bucket('t1', 'extractive|1|')).toBe(a); // the replay before's: reused and carried on
    const b = drafts.bucket('t1', 'extractive|2|~0');
    drafts.nextRound('t1');
    drafts.nextRound('t1');
    expect(drafts.bucket('t1', 'extractive|2|~0')).toBe(b); // two replays back (a drag back and forth)
    for (let i = 0; i < 3; i++) drafts.nextRound('t1');
    expect(drafts.bucket('t1', 'extractive|2|~0')).not.toBe(b); // unused for three replays: dropped
    expect(drafts.bucket('t2', 'extractive|1|')).toBe(other); // another thread's replays start its own rounds
  });
});
