// Fuzz properties over Inspect `.eval` archives, seeded from the three logs from the wild: truncation at any byte,
// a corrupt sample entry, and byte mutations. Every load returns (never a crash, bounded passes over the file), the
// result does not depend on the chunk size, damage is reported as located issues, and every sample that is intact
// loads exactly as it does from the whole file (nothing that parsed is lost, nothing damaged slips in).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { LoadResult } from '../../src/formats/index.ts';
import { exportBundle } from '../../src/formats/tierscope.ts';
import type { Thread } from '../../src/model/transcript.ts';
import { describeWild, WILD_DIR } from '../helpers/fixtures.ts';
import { applyByteOps, byteOpArb, expectLoadResult, load } from './kit.ts';

const DIR = join(WILD_DIR, 'inspect');
const seeds = () =>
  readdirSync(DIR)
    .filter((f) => f.endsWith('.eval'))
    .sort()
    .map((f) => ({ name: f, bytes: new Uint8Array(readFileSync(join(DIR, f))) }));

/** Local entries of a well-formed archive (fixtures only): name, header offset, data range. */
function localEntries(b: Uint8Array): { name: string; at: number; data: number; end: number }[] {
  const out = [];
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  for (let at = 0; at + 30 <= b.length && view.getUint32(at, true) === 0x04034b50; ) {
    const n = view.getUint16(at + 26, true);
    const data = at + 30 + n + view.getUint16(at + 28, true);
    const end = data + view.getUint32(at + 18, true);
    out.push({ name: new TextDecoder().decode(b.subarray(at + 30, at + 30 + n)), at, data, end });
    at = end;
  }
  return out;
}

const outcome = (r: LoadResult) => (r.ok ? exportBundle(r.transcript) : `error: ${r.error}`);
/** A thread as JSON, without the paths (they name the zip entry, which a mutation may rename). */
const threadJson = (th: Thread) => JSON.stringify(th, (k, v) => (k === 'path' ? undefined : v));

/**
 * Every thread of `part` that the whole file also has is exactly the same (a damaged entry fails its CRC-32
 * instead of loading changed). With `all`, every thread must be one of the whole file's.
 */
function expectIntactSubset(part: LoadResult, whole: Map<string, string>, all = true): void {
  if (!part.ok) return;
  for (const th of part.transcript.threads) {
    if (all || whole.has(th.id)) expect(threadJson(th)).toBe(whole.get(th.id));
  }
}

describeWild('fuzz: Inspect .eval archives', () => {
  for (const seed of seeds()) {
    const full = load(seed.name, seed.bytes);
    if (!full.result.ok) throw new Error(full.result.error);
    const threads = new Map(full.result.transcript.threads.map((th) => [th.id, threadJson(th)]));
    const entries = localEntries(seed.bytes);
    const samples = entries.filter((e) => e.name.startsWith('samples/'));

    it(`${seed.name}: cut at every entry boundary, the samples before the cut load and the cut is reported`, () => {
      expect(samples.length).toBe(threads.size);
      for (const e of entries) {
        const loaded = load(seed.name, seed.bytes.subarray(0, e.at));
        expectLoadResult(loaded, e.at);
        const before = samples.filter((s) => s.end <= e.at).length;
        if (e.at < 4) {
          expect(loaded.result.ok).toBe(false);
          continue;
        }
        if (!loaded.result.ok) throw new Error(loaded.result.error);
        expect(loaded.result.transcript.threads).toHaveLength(before);
        expectIntactSubset(loaded.result, threads);
        expect(loaded.result.transcript.parseIssues.map((i) => i.message)).toContain(
          `the archive ends without its central directory after ${entries.indexOf(e)} entries, at byte ${e.at}: it is truncated`,
        );
      }
    });

    it(`${seed.name}: truncated at any byte, same result for any chunk size, intact samples kept`, () => {
      fc.assert(
        fc.property(fc.nat(), fc.integer({ min: 1, max: 64 }), (cut, chunk) => {
          const at = cut % seed.bytes.length;
          const bytes = seed.bytes.subarray(0, at);
          const whole = load(seed.name, bytes);
          expectLoadResult(whole, bytes.length);
          expect(outcome(load(seed.name, bytes, {}, chunk).result)).toBe(outcome(whole.result));
          expectIntactSubset(whole.result, threads);
          if (whole.result.ok) {
            const complete = samples.filter((s) => s.end <= at).length;
            expect(whole.result.transcript.threads.length).toBe(complete);
            // Cut inside an entry (or before 4 bytes of the central directory are in): reported as an error.
            const entriesEnd = entries[entries.length - 1].end;
            const errors = whole.result.transcript.parseIssues.filter((i) => i.severity === 'error');
            expect(errors.length > 0).toBe(at < entriesEnd + 4);
          }
        }),
        { numRuns: 40 },
      );
    });

    it(`${seed.name}: a corrupt sample entry is an error naming it; every other sample loads as before`, () => {
      for (const s of samples) {
        const bad = seed.bytes.slice();
        bad.fill(0xff, s.data, Math.min(s.end, s.data + 8));
        const loaded = load(seed.name, bad);
        expectLoadResult(loaded, bad.length);
        if (!loaded.result.ok) throw new Error(loaded.result.error);
        const t = loaded.result.transcript;
        expect(t.threads).toHaveLength(threads.size - 1);
        expectIntactSubset(loaded.result, threads);
        const errors = t.parseIssues.filter((i) => i.severity === 'error').map((i) => i.message);
        expect(errors).toEqual([expect.stringMatching(new RegExp(`^${s.name}: could not be decompressed: `))]);
      }
    });

    it(`${seed.name}: byte mutations never crash, stay bounded, and keep intact samples exact`, () => {
      fc.assert(
        fc.property(
          fc.array(byteOpArb, { minLength: 1, maxLength: 6 }),
          fc.integer({ min: 1, max: 4096 }),
          (ops, chunk) => {
            const bytes = applyByteOps(seed.bytes, ops);
            const loaded = load(seed.name, bytes, {}, chunk);
            expectLoadResult(loaded, bytes.length);
            expect(outcome(load(seed.name, bytes).result)).toBe(outcome(loaded.result));
            const forced = load(seed.name, bytes, { format: 'inspect' });
            expectLoadResult(forced, bytes.length);
          },
        ),
        { numRuns: 40 },
      );
    });
  }
});
