// The replay checks a stage's single splice with a window around the junction (pairing-window.ts): when the
// window is clean, the full check must find nothing the splice introduced — for every provider, for valid
// and broken inputs, for any cut (not only valid ones) with or without an inserted summary.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newViolations, PROVIDERS, validatePairing } from '../../src/pairing/validate.ts';
import { summaryMessage } from '../../src/pipeline/stages/summarize.ts';
import { spliceMayBreak } from '../../src/replay/pairing-window.ts';
import { sessionArb, sessionTranscript } from '../helpers/arbitrary.ts';

const summary = summaryMessage('summary of earlier turns');

describe('splice window', () => {
  it('a clean window means the splice introduced no violation', () => {
    fc.assert(
      fc.property(
        sessionArb(16),
        fc.nat(),
        fc.nat(),
        fc.integer({ min: 0, max: 8 }),
        fc.boolean(),
        fc.option(fc.nat(), { nil: undefined }),
        (session, corrupt, at, count, withSummary, swap) => {
          let before = sessionTranscript(session).threads[0].messages.slice();
          // Some inputs are broken already: a message dropped, or two neighbours swapped.
          if (corrupt % 3 === 1 && before.length > 2) before.splice(corrupt % before.length, 1);
          if (swap !== undefined && before.length > 2) {
            const i = swap % (before.length - 1);
            [before[i], before[i + 1]] = [before[i + 1], before[i]];
          }
          before = before.slice();
          const start = at % before.length;
          const removed = Math.min(count, before.length - start);
          const inserted = withSummary ? [summary] : [];
          const after = [...before.slice(0, start), ...inserted, ...before.slice(start + removed)];
          for (const provider of PROVIDERS) {
            const ctx = { thread: 'main', request: 0, stage: 'summarize', provider };
            if (spliceMayBreak(after, start, inserted.length, { ...ctx, before })) continue;
            const introduced = newViolations(validatePairing(before, ctx), validatePairing(after, { ...ctx, before }));
            expect(introduced, `${provider}: cut ${start}+${removed}`).toEqual([]);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
