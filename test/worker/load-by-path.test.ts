// A Node host names files on disk by path (`{ path }` LoadFile, the engine's `openPath`): the engine reads them
// slice by slice as the worker reads a picked File, and a load, a run and the raw source lines come out as from the
// same bytes handed over whole. `fileFromPath` reads any range and any offset as the bytes read whole do.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { fileFromPath } from '../../src/cli/node-input.ts';
import { presetConfig } from '../../src/pipeline/presets.ts';
import type { EngineApi, LoadFile, RunResult } from '../../worker/api.ts';
import { createEngine } from '../../worker/create-engine.ts';
import { describeReal, realPath } from '../helpers/fixtures.ts';

const tmp = mkdtempSync(join(tmpdir(), 'tierscope-by-path-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const LINE =
  '{"type":"user","message":{"role":"user","content":"héllo 🙂"},"uuid":"u1","parentUuid":null,"sessionId":"s"}\n';
const byPath = () => createEngine({ openPath: (p) => fileFromPath(p) });
const asBytes = (name: string, path: string): LoadFile => {
  const b = readFileSync(path);
  return { name, buffer: b.buffer.slice(b.byteOffset, b.byteOffset + b.length) as ArrayBuffer };
};
const concat = (chunks: Iterable<Uint8Array>) => Buffer.concat([...chunks]);

describe('fileFromPath', () => {
  it('reads any byte range, and the chunks from any offset, as the whole bytes hold them', () => {
    const p = join(tmp, 'ranges.jsonl');
    writeFileSync(p, LINE.repeat(50));
    const whole = readFileSync(p);
    const f = fileFromPath(p, 97); // chunks that cut lines and characters anywhere
    expect(f.size).toBe(whole.length);
    expect(concat(f.chunks())).toEqual(whole);
    for (const offset of [0, 1, 96, 97, 98, 1000, whole.length - 1, whole.length])
      expect(concat(f.chunksFrom?.(offset) ?? [])).toEqual(whole.subarray(offset));
    for (const [a, b] of [
      [0, 3],
      [5, 5],
      [10, 400],
      [whole.length - 7, whole.length],
      [whole.length - 7, whole.length + 100], // past the end: what there is, as a Blob's slice
    ])
      expect(Buffer.from(f.read(a, b))).toEqual(whole.subarray(a, b));
  });
});

describe('the engine loads a file named by path', () => {
  it('refuses a path without a reader, a missing file and an over-limit file; undoes gzip', async () => {
    const p = join(tmp, 'small.jsonl');
    writeFileSync(p, LINE.repeat(200));
    expect(await createEngine().load([{ name: 'small.jsonl', path: p }], undefined)).toEqual({
      ok: false,
      error: 'Could not open small.jsonl: this engine reads no files by path.',
      issues: [],
    });
    const missing = await byPath().load([{ name: 'gone.jsonl', path: join(tmp, 'gone.jsonl') }], undefined);
    expect(missing).toMatchObject({ ok: false, error: expect.stringMatching(/^Could not open gone\.jsonl: /) });
    const over = await byPath().load([{ name: 'small.jsonl', path: p }], undefined, undefined, { maxFileBytes: 1000 });
    expect(over).toMatchObject({ ok: false, error: expect.stringMatching(/over the 1000 bytes file-size limit\.$/) });
    const gz = join(tmp, 'small.jsonl.gz');
    writeFileSync(gz, gzipSync(LINE.repeat(200)));
    const plain = await byPath().load([{ name: 'small.jsonl', path: p }], undefined);
    const unzipped = await byPath().load([{ name: 'small.jsonl.gz', path: gz }], undefined);
    expect(plain.ok && unzipped.ok).toBe(true);
    if (!plain.ok || !unzipped.ok) return;
    // The page's name is the one the reply gives (as for a picked .gz File); the rest is the plain file's.
    expect(unzipped.fileName).toBe('small.jsonl.gz');
    expect({ ...unzipped, loadMs: 0, fileName: '' }).toEqual({ ...plain, loadMs: 0, fileName: '' });
  });
});

/** Everything a load and a run show, the run's and load's own timings left out, and every message's raw lines. */
async function shown(engine: EngineApi, files: LoadFile[]) {
  const s = await engine.load(files, undefined);
  if (!s.ok) throw new Error(s.error);
  await engine.counted();
  const r = (await engine.run(1, {
    preset: 'seeds',
    config: { ...presetConfig('seeds'), contextWindow: 24_000, outputReserve: 2000 },
    mode: 'recorded',
    provider: 'anthropic',
    encoding: 'o200k_base',
  })) as RunResult;
  const raw: (string | null | undefined)[] = [];
  for (const th of s.threads) {
    const rows = await engine.rows(th.id);
    for (const row of rows) raw.push((await engine.detail(th.id, row.index))?.raw);
  }
  return { summary: { ...s, loadMs: 0 }, run: { ...r, ms: 0 }, raw };
}

describeReal('a real session with its sub-agent file, by path and as bytes', () => {
  it('gives the same load summary, run and raw source lines', async () => {
    const main = realPath('claude-code/synthetic-agentsessions-subagent/0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f.jsonl');
    const agent = realPath(
      'claude-code/synthetic-agentsessions-subagent/0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f/subagents/agent-a0ad4f44468bdf20d.jsonl',
    );
    const agentName = `0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f/subagents/${basename(agent)}`;
    const paths = await shown(byPath(), [
      { name: basename(main), path: main },
      { name: agentName, path: agent },
    ]);
    const bytes = await shown(createEngine(), [asBytes(basename(main), main), asBytes(agentName, agent)]);
    expect(paths.summary.counts.threads).toBeGreaterThan(1);
    expect(paths.raw.filter((x) => x).length).toBeGreaterThan(3);
    expect(paths).toEqual(bytes);
  });

  it('reads the raw lines of a longer session the same way', async () => {
    const p = realPath('claude-code/ccviewer-1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl');
    const paths = await shown(byPath(), [{ name: 'session.jsonl', path: p }]);
    const bytes = await shown(createEngine(), [asBytes('session.jsonl', p)]);
    expect(paths.raw.filter((x) => x).length).toBeGreaterThan(10);
    expect(paths).toEqual(bytes);
  });
});
