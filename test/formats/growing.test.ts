// A followed file that grows (formats/index.ts HeldLines): loading it again with the lines held from the last
// load reads and parses only the bytes after them, and gives the transcript a fresh load of the whole file gives —
// over every JSONL fixture, cut at a line end and in the middle of a line (a last line without its end yet).
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { companionFiles } from '../../src/cli/node-input.ts';
import { fileFromBytes, heldLines, type LoadOptions, parseTranscript } from '../../src/formats/index.ts';
import type { SourceFile } from '../../src/formats/types.ts';
import { describeReal, fixtureInputs } from '../helpers/fixtures.ts';

function load(main: SourceFile, extra: SourceFile[], options: LoadOptions = {}) {
  const r = parseTranscript(main, extra, options);
  if (!r.ok) throw new Error(r.error);
  return r.transcript;
}

/** A file over `bytes`, in 4 KB chunks, that counts the bytes it hands out. */
function counted(name: string, bytes: Uint8Array) {
  const f = fileFromBytes(name, bytes, 4096);
  const seen = { bytes: 0 };
  const tally = function* (chunks: Iterable<Uint8Array>) {
    for (const c of chunks) {
      seen.bytes += c.length;
      yield c;
    }
  };
  return {
    seen,
    file: { ...f, chunks: () => tally(f.chunks()), chunksFrom: (o: number) => tally(f.chunksFrom?.(o) ?? []) },
  };
}

describeReal('a growing file loads again from its held lines', () => {
  const inputs = fixtureInputs().filter((f) => f.path.endsWith('.jsonl'));

  it('gives the transcript of a fresh load, cut at a line end or inside a line', () => {
    expect(inputs.length).toBeGreaterThan(10);
    let grew = 0;
    for (const input of inputs) {
      const bytes = new Uint8Array(readFileSync(input.path));
      const name = input.path.slice(input.path.lastIndexOf('/') + 1);
      const extra = companionFiles(input.path);
      const whole = load(fileFromBytes(name, bytes), extra);
      const ends = [...bytes.keys()].filter((i) => bytes[i] === 10);
      const cuts = [ends[Math.floor(ends.length / 3)] + 1, ends[Math.floor((2 * ends.length) / 3)] + 1];
      // A cut inside a line: the held lines stop before it, and the rest is read when it has its end.
      cuts.push(cuts[1] - Math.min(5, cuts[1] - cuts[0] - 1));
      for (const cut of cuts) {
        const held = heldLines();
        const first = parseTranscript(fileFromBytes(name, bytes.subarray(0, cut)), extra, { held });
        if (!first.ok) continue; // a head too short to be recognised
        const grown = load(fileFromBytes(name, bytes), extra, { held });
        expect(grown, `${input.rel} cut at ${cut}`).toEqual(whole);
        expect(held.end).toBe(bytes[bytes.length - 1] === 10 ? bytes.length : ends[ends.length - 1] + 1);
        grew++;
      }
    }
    expect(grew).toBeGreaterThan(2 * inputs.length);
  });

  it('reads only the appended bytes and the head, and parses no held line again', () => {
    const input = inputs.find((f) => f.rel.includes('claude-code') && readFileSync(f.path).length > 100_000);
    if (!input) throw new Error('no Claude Code fixture over 100 KB');
    const bytes = new Uint8Array(readFileSync(input.path));
    const lines = bytes.reduce((n, b) => n + (b === 10 ? 1 : 0), 0);
    let cut = bytes.length - 1;
    while (bytes[cut - 1] !== 10) cut--; // keep the last line out
    const held = heldLines();
    load(fileFromBytes('s.jsonl', bytes.subarray(0, cut)), []);
    load(fileFromBytes('s.jsonl', bytes.subarray(0, cut)), [], { held });
    const value = held.lines[0].parsed;
    expect(held.lines).toHaveLength(lines - 1);
    const { seen, file } = counted('s.jsonl', bytes);
    const t = load(file, [], { held });
    expect(t).toEqual(load(fileFromBytes('s.jsonl', bytes), []));
    // The head (8 KB for the format checks) and the appended line; nothing of the rest is read again.
    expect(seen.bytes).toBeLessThanOrEqual(8192 + (bytes.length - cut) + 4096);
    expect(held.lines[0].parsed).toBe(value);
    expect(held.lines).toHaveLength(lines);
  });
});
