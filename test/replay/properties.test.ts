// Replay invariants (SPEC §3) over random valid agent sessions and every preset: the replay is
// deterministic, never mutates the transcript it reads, and the incremental driver gives request k the same
// output whether it stops at k (`until`) or runs on, and the same as a replay of the transcript cut at k.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Message, Transcript } from '../../src/model/transcript.ts';
import { PRESET_IDS } from '../../src/pipeline/presets.ts';
import type { CachedTokenizer } from '../../src/tokens/tokenizer.ts';
import { configArb, sessionArb, sessionTranscript, withCalibration } from '../helpers/arbitrary.ts';
import { outputsOf, replayFirst, tokenizer, withoutBlocks } from '../helpers/replay.ts';

let tk: CachedTokenizer;
beforeAll(async () => {
  tk = await tokenizer();
});

/** Generous: fast-check runs are CPU-bound and CI machines are shared (not a timing assertion). */
const TIMEOUT = 300_000;
const RUNS = Number(process.env.FC_RUNS ?? 40);
const modes = fc.constantFrom<'recorded' | 'raw'>('recorded', 'raw');
const cases = fc.tuple(sessionArb(), configArb(PRESET_IDS), modes, fc.constantFrom(1, 1, 0.7, 1.4));

function deepFreeze<T>(o: T): T {
  if (typeof o === 'object' && o !== null && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
}

/** The transcript as it was when request k was sent: messages before its input end, requests 0..k. */
function cutAt(t: Transcript, k: number): Transcript {
  const th = t.threads[0];
  const end = th.requests[k].inputEnd;
  return { ...t, threads: [{ ...th, messages: th.messages.slice(0, end), requests: th.requests.slice(0, k + 1) }] };
}

describe('replay invariants (property)', () => {
  it(
    'is deterministic: two runs give deep-equal request results',
    () => {
      fc.assert(
        fc.property(cases, ([s, c, mode, f]) => {
          const t = withCalibration(sessionTranscript(s), tk, f);
          const a = replayFirst(tk, t, { ...c, mode });
          const b = replayFirst(tk, t, { ...c, mode });
          expect(withoutBlocks(b.requests)).toEqual(withoutBlocks(a.requests));
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    'never mutates the transcript (deep-frozen input, same JSON afterwards)',
    () => {
      fc.assert(
        fc.property(cases, ([s, c, mode, f]) => {
          const t = withCalibration(sessionTranscript(s), tk, f);
          const before = JSON.stringify(t);
          deepFreeze(t);
          replayFirst(tk, t, { ...c, mode });
          expect(JSON.stringify(t)).toBe(before);
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    'incremental = from scratch: request k gets the same output with until=k, in the full run, and cut at k',
    () => {
      fc.assert(
        fc.property(cases, fc.nat(), ([s, c, mode, f], pick) => {
          const t = withCalibration(sessionTranscript(s), tk, f);
          const full = outputsOf(tk, t, { ...c, mode });
          const k = pick % full.length;
          const upTo = replayFirst(tk, t, { ...c, mode, until: k, capture: true });
          expect(upTo.output).toEqual(full[k]);
          const cut = replayFirst(tk, cutAt(t, k), { ...c, mode, capture: true });
          expect(cut.output as Message[]).toEqual(full[k]);
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );
});
