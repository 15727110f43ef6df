// A log where every request breaks the cache is analysed in work proportional to the log (issue 29, item 5: each
// break re-placed its whole input, rebuilt the thread's input index, re-filtered every request for the TTL and scanned
// back for the last summary, so 10k requests took 5.8 s, 20k 27 s, 40k 202 s). Work is counted, not timed: every read
// of a thread's message or request list by the analysis goes through a counting proxy, and doubling the log may
// double the reads, not quadruple them. The bench generator's every-break session is the input.
import { beforeAll, describe, expect, it } from 'vitest';
import { claudeCodeEveryBreak } from '../../bench/generate-hostile.ts';
import { analyze } from '../../src/analyses/analyze.ts';
import { fileFromText, parseTranscript } from '../../src/formats/index.ts';
import type { Transcript } from '../../src/model/transcript.ts';
import { presetConfig } from '../../src/pipeline/presets.ts';
import type { CachedTokenizer } from '../../src/tokens/tokenizer.ts';
import { tokenizer } from '../helpers/replay.ts';

let tok: CachedTokenizer;
beforeAll(async () => {
  tok = await tokenizer();
});

/** The every-break session of `n` requests, its threads' message and request lists counting element reads. */
function counted(n: number): { t: Transcript; reads: () => number } {
  const parsed = parseTranscript(fileFromText('breaks.jsonl', `${[...claudeCodeEveryBreak(n)].join('\n')}\n`));
  if (!parsed.ok) throw new Error(parsed.error);
  let reads = 0;
  const watch = <T>(xs: T[]): T[] =>
    new Proxy(xs, {
      get(target, key, receiver) {
        if (typeof key === 'string' && key.length > 0 && key.charCodeAt(0) <= 57) reads++;
        return Reflect.get(target, key, receiver);
      },
    });
  for (const th of parsed.transcript.threads) {
    th.messages = watch(th.messages);
    th.requests = watch(th.requests);
  }
  return { t: parsed.transcript, reads: () => reads };
}

describe('every request breaks the cache', () => {
  it('twice the requests cost about twice the reads, not four times', () => {
    const work = (n: number) => {
      const { t, reads } = counted(n);
      const r = analyze(t, {
        config: presetConfig('seeds'),
        preset: 'seeds',
        mode: 'recorded',
        provider: 'anthropic',
        tokenizer: tok,
      });
      // Every request after the first breaks (nothing is ever read back).
      expect(r.report.totals.cacheBreaksObserved).toBe(n - 1);
      return reads();
    };
    const small = work(600);
    const large = work(1200);
    expect(large / small).toBeLessThan(2.6);
  });
});
