// Invariants of the whole pipeline (SPEC §4, STYLE.md testing habit 3) over random valid agent sessions,
// for every preset with windows small enough that its stages fire, in both replay modes and with a
// calibration factor ≠ 1: pairing stays valid after every stage, no stage adds tokens, the request always
// fits under the hard cap when hardcap is on, and a second pass over the same input (a retry) changes nothing.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../../src/model/transcript.ts';
import type { Provider } from '../../src/pairing/validate.ts';
import { PRESET_IDS } from '../../src/pipeline/presets.ts';
import { TokenMeter } from '../../src/tokens/meter.ts';
import type { CachedTokenizer } from '../../src/tokens/tokenizer.ts';
import {
  configArb,
  type GenConfig,
  type GenSession,
  sessionArb,
  sessionTranscript,
  withCalibration,
} from '../helpers/arbitrary.ts';
import { withRetries } from '../helpers/loop.ts';
import { configOf, replayFirst, tokenizer } from '../helpers/replay.ts';

let tk: CachedTokenizer;
beforeAll(async () => {
  tk = await tokenizer();
});

type Mode = 'recorded' | 'raw';
type Case = [GenSession, GenConfig, Mode, number];
const cases: fc.Arbitrary<Case> = fc.tuple(
  sessionArb(),
  configArb(PRESET_IDS),
  fc.constantFrom<Mode>('recorded', 'raw'),
  fc.constantFrom(1, 1, 0.7, 1.4),
);
/** Generous: fast-check runs are CPU-bound and CI machines are shared (not a timing assertion). */
const TIMEOUT = 300_000;
const RUNS = Number(process.env.FC_RUNS ?? 60);
/** A block cut down to nothing but `[... truncated N chars ...]` (or a tiny text hardcap cannot shrink). */
const MARKER_TOKENS = 16;

const build = ([s, , , factor]: Case) => withCalibration(sessionTranscript(s), tk, factor);

describe('pipeline invariants (property)', () => {
  it.each<[Provider, number]>([
    ['anthropic', RUNS],
    ['openai-chat', RUNS],
    ['gemini', Math.ceil(RUNS / 2)],
    ['bedrock', Math.ceil(RUNS / 2)],
    ['openai-responses', Math.ceil(RUNS / 2)],
  ])(
    'no stage introduces a pairing error (%s)',
    (provider, numRuns) => {
      fc.assert(
        fc.property(cases, (c) => {
          const r = replayFirst(tk, build(c), { ...c[1], mode: c[2], provider });
          for (const q of r.requests) {
            expect(q.pairing.filter((v) => v.stage === 'input')).toEqual([]); // the generator makes valid inputs
            expect(q.pairing.filter((v) => v.severity === 'error')).toEqual([]);
          }
        }),
        { numRuns },
      );
    },
    TIMEOUT,
  );

  it(
    'no stage adds tokens: each event has tokensAfter ≤ tokensBefore and stage totals never rise',
    () => {
      fc.assert(
        fc.property(cases, (c) => {
          const r = replayFirst(tk, build(c), { ...c[1], mode: c[2] });
          for (const q of r.requests) {
            for (const e of q.events)
              expect(e.tokensAfter, `${e.stage}/${e.action}`).toBeLessThanOrEqual(e.tokensBefore);
            for (let i = 1; i < q.stageTokens.length; i++)
              expect(q.stageTokens[i]).toBeLessThanOrEqual(q.stageTokens[i - 1]);
          }
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    'with hardcap on, every request fits under contextWindow − outputReserve, or only the uncuttable is left',
    () => {
      fc.assert(
        fc.property(cases, (c) => {
          const cfg = configOf(c[1]);
          fc.pre(cfg.hardcap.enabled);
          const meter = new TokenMeter(tk);
          const outs: (readonly Message[])[] = [];
          const r = replayFirst(tk, build(c), {
            ...c[1],
            mode: c[2],
            observe: (k, out) => {
              outs[k] = out;
            },
          });
          for (const q of r.requests) {
            if (q.estimateOut <= cfg.contextWindow - cfg.outputReserve) continue;
            // Over the cap only when tool calls, thinking and the static prefix alone are too big: every text and
            // tool result is then down to its truncation marker.
            for (const m of outs[q.index])
              for (const b of m.blocks)
                if (b.type === 'text' || b.type === 'tool_result')
                  expect(meter.block(b)).toBeLessThanOrEqual(MARKER_TOKENS);
          }
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    'is idempotent: a retry of a request (same input, second pass) emits nothing and sends the same bytes',
    () => {
      fc.assert(
        fc.property(cases, (c) => {
          const outs: unknown[] = [];
          const r = replayFirst(tk, withRetries(build(c)), {
            ...c[1],
            mode: c[2],
            observe: (k, out) => {
              outs[k] = out;
            },
          });
          for (let k = 1; k < r.requests.length; k += 2) {
            expect(r.requests[k].events).toEqual([]);
            expect(outs[k]).toEqual(outs[k - 1]);
          }
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );
});
