// Fuzz properties over every parser (SPEC §1.3, §10), seeded from each real fixture and each inline sample:
// truncation at any byte (mid-UTF-8 included), byte flips/sets/inserts/deletes, line reordering, duplication
// and deletion, binary garbage and mixed formats. For every input the load returns (detected and with a forced
// format), never through a parser exception; issues are located; the work is bounded (passes and bytes read);
// and the result does not depend on the chunk size the file is streamed in.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LoadResult } from '../../src/formats/index.ts';
import { exportBundle } from '../../src/formats/tierscope.ts';
import type { Transcript } from '../../src/model/transcript.ts';
import { describeReal } from '../helpers/fixtures.ts';
import {
  applyByteOps,
  applyLineOps,
  byteOpArb,
  formatArb,
  fuzzLoad,
  inlineSeeds,
  interleave,
  lineOpArb,
  load,
  realSeeds,
  type Seed,
  windowOf,
} from './kit.ts';

const RUNS = 8;
const TIMEOUT = 30_000;

/** What a load gave, comparable across chunk sizes. */
function outcome(r: LoadResult): string {
  return r.ok ? exportBundle(r.transcript) : `error: ${r.error}`;
}

function seedProperties(seed: Seed): void {
  const windowArb = fc.nat();

  it(
    `${seed.name}: truncated at any byte, same result for any chunk size`,
    () => {
      fc.assert(
        fc.property(windowArb, fc.nat(), fc.integer({ min: 1, max: 64 }), formatArb, (w, cut, chunk, forced) => {
          const bytes = windowOf(seed, w);
          const cutAt = bytes.length === 0 ? 0 : cut % bytes.length;
          const truncated = bytes.subarray(0, cutAt);
          const whole = fuzzLoad(truncated, forced);
          const small = load('input.jsonl', truncated, {}, chunk).result;
          expect(outcome(small)).toBe(outcome(whole));
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    `${seed.name}: byte mutations (flip, set, insert, delete)`,
    () => {
      fc.assert(
        fc.property(windowArb, fc.array(byteOpArb, { minLength: 1, maxLength: 6 }), formatArb, (w, ops, forced) => {
          fuzzLoad(applyByteOps(windowOf(seed, w), ops), forced);
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    `${seed.name}: lines reordered, duplicated and deleted`,
    () => {
      fc.assert(
        fc.property(windowArb, fc.array(lineOpArb, { minLength: 1, maxLength: 4 }), formatArb, (w, ops, forced) => {
          fuzzLoad(applyLineOps(windowOf(seed, w), ops), forced);
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );
}

describe('fuzz: inline samples of every format', () => {
  for (const seed of inlineSeeds()) seedProperties(seed);
});

describeReal('fuzz: real fixtures as seeds', () => {
  for (const seed of realSeeds()) seedProperties(seed);
});

describe('fuzz: garbage and mixed inputs', () => {
  const seeds = [...inlineSeeds(), ...realSeeds()];
  const seedArb = fc.constantFrom(...seeds);

  it(
    'random bytes never crash detection or any parser, whatever the chunk size',
    () => {
      const mostlyText = fc
        .array(fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0, max: 255 })), { maxLength: 2048 })
        .map((a) => Uint8Array.from(a));
      fc.assert(
        fc.property(
          fc.oneof(fc.uint8Array({ maxLength: 2048 }), mostlyText),
          formatArb,
          fc.integer({ min: 1, max: 64 }),
          (bytes, forced, chunk) => {
            const whole = fuzzLoad(bytes, forced);
            expect(outcome(load('input.jsonl', bytes, {}, chunk).result)).toBe(outcome(whole));
          },
        ),
        { numRuns: 80 },
      );
    },
    TIMEOUT,
  );

  it(
    'random printable text and random JSON values, one per line',
    () => {
      const lineArb = fc.oneof(fc.string({ maxLength: 80 }), fc.json({ maxDepth: 4 }));
      fc.assert(
        fc.property(fc.array(lineArb, { minLength: 1, maxLength: 12 }), formatArb, (lines, forced) => {
          fuzzLoad(new TextEncoder().encode(lines.join('\n')), forced);
        }),
        { numRuns: 60 },
      );
    },
    TIMEOUT,
  );

  it(
    'binary garbage spliced into a seed',
    () => {
      fc.assert(
        fc.property(
          seedArb,
          fc.nat(),
          fc.nat(),
          fc.uint8Array({ minLength: 1, maxLength: 512 }),
          formatArb,
          (seed, w, at, garbage, forced) => {
            const bytes = windowOf(seed, w);
            const p = at % (bytes.length + 1);
            const out = new Uint8Array(bytes.length + garbage.length);
            out.set(bytes.subarray(0, p));
            out.set(garbage, p);
            out.set(bytes.subarray(p), p + garbage.length);
            fuzzLoad(out, forced);
          },
        ),
        { numRuns: 30 },
      );
    },
    TIMEOUT,
  );

  it(
    'lines of two formats mixed in one file (e.g. Claude Code lines among Codex lines)',
    () => {
      const jsonlSeeds = seeds.filter((s) => s.jsonl);
      const jsonlArb = fc.constantFrom(...jsonlSeeds);
      fc.assert(
        fc.property(
          jsonlArb,
          jsonlArb,
          fc.nat(),
          fc.nat(),
          fc.array(fc.boolean()),
          formatArb,
          (a, b, wa, wb, picks, f) => {
            const mixed = interleave(windowOf(a, wa, 24 * 1024), windowOf(b, wb, 24 * 1024), picks);
            const r = fuzzLoad(mixed, f);
            // Two windows of one format still make a file of that format.
            if (a.format === b.format) expect(r.ok).toBe(true);
          },
        ),
        { numRuns: 30 },
      );
    },
    TIMEOUT,
  );
});

describe('mixed formats: what did parse stays the same', () => {
  it('Claude Code lines among Codex lines: the rollout reads as it does alone, the other lines are counted', () => {
    const [cc, codex] = ['claude-code', 'codex'].map((f) => inlineSeeds().find((x) => x.format === f));
    if (!cc || !codex) throw new Error('samples missing');
    const picks = Array.from({ length: 64 }, (_, i) => i % 3 === 1);
    const mixed = interleave(cc.bytes, codex.bytes, picks);
    const r = fuzzLoad(mixed, 'claude-code');
    const alone = load('input.jsonl', codex.bytes).result;
    if (!r.ok || !alone.ok) throw new Error('did not load');
    // Detection is ordered most specific first (formats.md §0): one rollout line makes a rollout.
    expect(r.transcript.format).toBe('codex');
    const shape = (t: Transcript) =>
      t.threads.map((th) => [th.messages.map((m) => [m.role, m.blocks]), th.requests.map((q) => q.observed)]);
    expect(shape(r.transcript)).toEqual(shape(alone.transcript));
    const ccLines = new TextDecoder().decode(cc.bytes).trim().split('\n').length;
    const foreign = Object.entries(r.transcript.meta.skipped ?? {}).filter(([k]) => k.startsWith('foreign:'));
    expect(foreign.reduce((n, [, c]) => n + c, 0)).toBe(ccLines);
    expect(r.transcript.parseIssues.some((i) => /are not rollout lines/.test(i.message) && i.line > 0)).toBe(true);
  });
});
