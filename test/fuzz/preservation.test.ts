// "Never lose what parsed" (SPEC §1.3) as a property over every JSON-lines seed: corrupt one line k (cut it
// short, possibly mid-UTF-8; splice control bytes into it), delete it, or duplicate it, and every message the
// original built from lines other than k is still there — same role, its blocks intact and in order, inside a
// message built from the same (renumbered) source line — and a corrupted line is reported at its own number.
// Messages may merge with neighbours (a deleted turn marker joins two tool batches) or move to another
// thread (request logs regroup), so the check searches the whole transcript, exact inputs included.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LoadResult } from '../../src/formats/index.ts';
import type { Message, Transcript } from '../../src/model/transcript.ts';
import { describeReal } from '../helpers/fixtures.ts';
import { expectLoadResult, inlineSeeds, joinLines, load, realSeeds, type Seed, splitLines, windowOf } from './kit.ts';

type Mutation =
  | { kind: 'cut'; at: number }
  | { kind: 'splice'; at: number; bytes: number[] }
  | { kind: 'delete' }
  | { kind: 'duplicate' };

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('splice' as const),
    at: fc.nat(),
    // Control bytes are invalid anywhere in JSON text (and 0x01–0x08 are not NUL: the file stays text).
    bytes: fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 4 }),
  }),
  fc.constant({ kind: 'delete' as const }),
  fc.constant({ kind: 'duplicate' as const }),
);

/** Apply the mutation to line index `k`; returns the bytes and the map from old to new 1-based line numbers. */
function mutate(lines: Uint8Array[], k: number, m: Mutation): { bytes: Uint8Array; lineOf: (no: number) => number } {
  const out = lines.slice();
  const line = lines[k];
  if (m.kind === 'cut') out[k] = line.subarray(0, 1 + (m.at % Math.max(1, line.length - 1)));
  else if (m.kind === 'splice') {
    const at = m.at % (line.length + 1);
    out[k] = Uint8Array.from([...line.subarray(0, at), ...m.bytes, ...line.subarray(at)]);
  } else if (m.kind === 'delete') out.splice(k, 1);
  else out.splice(k, 0, line);
  const shift = m.kind === 'delete' ? -1 : m.kind === 'duplicate' ? 1 : 0;
  return { bytes: joinLines(out), lineOf: (no) => (no > k + 1 ? no + shift : no) };
}

const linesOf = (m: Message) => m.source.lines ?? [m.source.line];
const json = (x: unknown) => JSON.stringify(x);

/** Every message of a transcript: thread messages and the messages of exact inputs (a rewritten history). */
function allMessages(t: Transcript): Message[] {
  return t.threads.flatMap((th) => [...th.messages, ...th.requests.flatMap((r) => r.exactInput ?? [])]);
}

/** True when `part` occurs in order inside `whole` (not necessarily contiguous: when a corrupted line was the
 *  parent of a side branch, that branch's attachments can no longer be told apart and join the batch in file
 *  order, between blocks that were adjacent before). */
function containsInOrder(whole: string[], part: string[]): boolean {
  let j = 0;
  for (const w of whole) if (j < part.length && w === part[j]) j++;
  return j === part.length;
}

/** Messages of `before` not built from line `k1` (1-based) that `after` lost or changed. */
function lostMessages(before: Transcript, after: LoadResult, k1: number, lineOf: (no: number) => number): string[] {
  // Exact inputs of the original are left out: a compaction's replacement history lives only in the exact
  // inputs of the requests after it, so it has nowhere to be once the only such request is the corrupted line.
  const kept = before.threads.flatMap((th) => th.messages).filter((m) => !linesOf(m).includes(k1));
  if (kept.length === 0) return [];
  if (!after.ok) return [`the load failed (${after.error}) but ${kept.length} messages came from other lines`];
  const index = new Map<string, { role: string; blocks: string[] }[]>();
  for (const m of allMessages(after.transcript)) {
    for (const no of linesOf(m)) {
      const key = `${m.source.file ?? ''}:${no}`;
      const list = index.get(key) ?? [];
      list.push({ role: m.role, blocks: m.blocks.map(json) });
      index.set(key, list);
    }
  }
  const lost: string[] = [];
  for (const m of kept) {
    const want = m.blocks.map(json);
    const candidates = index.get(`${m.source.file ?? ''}:${lineOf(m.source.line)}`) ?? [];
    if (!candidates.some((c) => c.role === m.role && containsInOrder(c.blocks, want))) {
      lost.push(`line ${m.source.line} ${m.role} message: ${json(m.blocks).slice(0, 120)}`);
    }
  }
  return lost;
}

function preservationProperty(seed: Seed): void {
  it(`${seed.name}: corrupting, deleting or duplicating one line keeps every other line's messages`, () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), mutationArb, (w, pick, mutation) => {
        const lines = splitLines(windowOf(seed, w, 24 * 1024));
        const candidates = lines.flatMap((l, i) => (l.length > 2 ? [i] : []));
        if (candidates.length === 0) return;
        const k = candidates[pick % candidates.length];
        const original = load('input.jsonl', joinLines(lines)).result;
        if (!original.ok) return; // a window that does not load alone has nothing to preserve
        const { bytes, lineOf } = mutate(lines, k, mutation);
        const text = new TextDecoder().decode(bytes);
        const corrupted = mutation.kind === 'cut' || mutation.kind === 'splice';
        if (corrupted) {
          const newLine = text.split('\n')[k];
          let valid = true;
          try {
            JSON.parse(newLine);
          } catch {
            valid = false;
          }
          fc.pre(!valid); // a cut that still parses (a trailing-space line) is not a corruption
        }
        const loaded = load('input.jsonl', bytes);
        expectLoadResult(loaded, bytes.length);
        expect(lostMessages(original.transcript, loaded.result, k + 1, lineOf)).toEqual([]);
        if (corrupted && loaded.result.ok) {
          expect(loaded.result.transcript.parseIssues.some((i) => i.line === k + 1)).toBe(true);
        }
      }),
      { numRuns: 12 },
    );
  }, 30_000);
}

describe('never lose what parsed: inline samples', () => {
  for (const seed of inlineSeeds().filter((s) => s.jsonl)) preservationProperty(seed);
});

/** A Claude Code log whose uuids repeat (a fixture trimmed them all to one string; the load warns that each
 *  parentUuid resolves to the nearest earlier use): which branch is active is a guess there, and removing one
 *  line legitimately moves it to another branch, so "every other line's messages stay" does not apply. */
function ambiguousUuids(seed: Seed): boolean {
  const r = load(seed.name, seed.bytes).result;
  return r.ok && r.transcript.parseIssues.some((i) => /^uuid ".*" is used by \d+ lines/.test(i.message));
}

describeReal('never lose what parsed: real fixtures', () => {
  for (const seed of realSeeds().filter((s) => s.jsonl && !ambiguousUuids(s))) preservationProperty(seed);
});

// ---- whole-document formats: one item of the message list replaced by a value of the wrong type ----

type DocSeed = { name: string; text: string; list: (doc: Record<string, unknown>) => unknown[]; base: string };

const docSeeds = (): DocSeed[] => {
  const out: DocSeed[] = [];
  for (const s of [...inlineSeeds(), ...realSeeds()]) {
    const text = new TextDecoder().decode(s.bytes);
    if (s.format === 'swe-agent')
      out.push({ name: s.name, text, list: (d) => d.history as unknown[], base: 'history' });
    if (s.format === 'inspect') {
      const list = (d: Record<string, unknown>) => (d.samples as { messages: unknown[] }[])[0].messages;
      out.push({ name: s.name, text, list, base: 'samples[0].messages' });
    }
  }
  return out;
};

const isTool = (x: unknown) => typeof x === 'object' && x !== null && (x as { role?: unknown }).role === 'tool';

function docProperty(seed: DocSeed): void {
  it(`${seed.name}: one message item of the wrong type keeps every other item's messages`, () => {
    const original = load('input.json', new TextEncoder().encode(seed.text)).result;
    if (!original.ok) throw new Error(original.error);
    const raw = seed.list(JSON.parse(seed.text) as Record<string, unknown>);
    const main = original.transcript.threads[0].messages;
    fc.assert(
      fc.property(
        fc.nat(),
        fc.constantFrom<unknown>(null, 42, 'text', [], {}, { role: 7, content: {} }),
        (pick, wrong) => {
          const i = pick % raw.length;
          const doc = JSON.parse(seed.text) as Record<string, unknown>;
          seed.list(doc)[i] = wrong;
          const bytes = new TextEncoder().encode(JSON.stringify(doc));
          const loaded = load('input.json', bytes);
          expectLoadResult(loaded, bytes.length);
          if (!loaded.result.ok) throw new Error(loaded.result.error);
          const after = new Map<string, string[]>();
          for (const m of loaded.result.transcript.threads[0].messages)
            after.set(m.source.path ?? '', m.blocks.map(json));
          // Affected: item i itself, and a run of tool messages that item i was merged into.
          const at = (m: Message) => Number(/\[(\d+)\]$/.exec(m.source.path ?? '')?.[1] ?? -1);
          const inRun = (p: number) => p < i && isTool(raw[i]) && raw.slice(p, i + 1).every(isTool);
          const lost = main
            .filter((m) => at(m) !== i && !inRun(at(m)))
            .filter((m) => !containsInOrder(after.get(m.source.path ?? '') ?? [], m.blocks.map(json)))
            .map((m) => m.source.path);
          expect(lost).toEqual([]);
          expect(loaded.result.transcript.parseIssues.some((x) => x.message.includes(`${seed.base}[${i}]`))).toBe(true);
        },
      ),
      { numRuns: 10 },
    );
  }, 30_000);
}

describe('never lose what parsed: whole-document formats', () => {
  for (const seed of docSeeds()) docProperty(seed);
});
