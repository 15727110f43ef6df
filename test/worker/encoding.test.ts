// One encoding everywhere it is chosen: a real log loaded under each encoding shows rows counted in it, and a
// tool-result message's row says what the run says of that result (under cl100k_base a row once showed 655 tokens
// where the run said 648: load-time counting and rows were hard-coded to o200k_base). Switching the encoding after
// a load (the page's setEncoding) gives the same rows as loading under it.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { presetConfig } from '../../src/pipeline/presets.ts';
import { ENCODINGS, type EncodingName } from '../../src/tokens/encodings.ts';
import type { EngineApi, Row, RunResult, RunSettings, ToolResultRow } from '../../worker/api.ts';
import { createEngine } from '../../worker/create-engine.ts';
import { describeReal, realPath } from '../helpers/fixtures.ts';

const settings = (encoding: EncodingName): RunSettings => ({
  preset: 'seeds',
  config: presetConfig('seeds'),
  mode: 'recorded',
  provider: 'anthropic',
  encoding,
});

function fixture() {
  const bytes = readFileSync(realPath('claude-code/ccviewer-5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl'));
  return [{ name: 'session.jsonl', buffer: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) }];
}

/** The run's tool results of the main thread as the transcript gets them (a window of every message). */
async function shownResults(engine: EngineApi, run: RunResult, rows: Row[]): Promise<ToolResultRow[]> {
  const w = await engine.notes(run.runId, 'main', 0, rows.length);
  if (!w) throw new Error('stale run');
  return w.results;
}

/** Each single-block tool-result message: its row's tokens beside the run's tokens for that result. */
function pairs(rows: Row[], toolResults: ToolResultRow[]): [number, number][] {
  const byMessage = new Map(toolResults.filter((r) => r.thread === 'main').map((r) => [r.messageIndex, r]));
  return rows
    .filter((row) => row.blockTypes.length === 1 && row.blockTypes[0] === 'tool_result' && byMessage.has(row.index))
    .map((row) => [row.tokens, byMessage.get(row.index)?.tokens ?? -1]);
}

describeReal('the chosen encoding, from load to rows to run', () => {
  const loaded = async (encoding?: EncodingName) => {
    const engine = createEngine();
    const s = await engine.load(fixture(), undefined, undefined, undefined, undefined, undefined, encoding);
    if (!s.ok) throw new Error(s.error);
    return engine;
  };

  it('rows and the run agree under each encoding, and the encodings differ', async () => {
    const byEncoding = new Map<EncodingName, Row[]>();
    for (const encoding of ENCODINGS) {
      const engine = await loaded(encoding);
      expect(await engine.counted()).toMatchObject({ done: true });
      const run = (await engine.run(1, settings(encoding))) as RunResult;
      expect(run.settings.encoding).toBe(encoding);
      const rows = await engine.rows('main');
      expect(rows.every((r) => r.exact !== false)).toBe(true);
      const compared = pairs(rows, await shownResults(engine, run, rows));
      expect(compared.length).toBeGreaterThan(5);
      expect(compared.filter(([row, ran]) => row !== ran)).toEqual([]);
      byEncoding.set(encoding, rows);
    }
    const o200k = byEncoding.get('o200k_base') ?? [];
    const cl100k = byEncoding.get('cl100k_base') ?? [];
    expect(o200k.filter((r, i) => r.tokens !== cl100k[i]?.tokens).length).toBeGreaterThan(10);
  });

  it('a run in another encoding than the load counted makes rows in it equal to loading under it', async () => {
    const engine = await loaded(); // counts o200k_base, as a page that has not chosen yet
    const run = (await engine.run(1, settings('cl100k_base'))) as RunResult;
    const rows = await engine.rows('main', 'cl100k_base');
    expect(rows.every((r) => r.exact !== false)).toBe(true);
    expect(pairs(rows, await shownResults(engine, run, rows)).filter(([row, ran]) => row !== ran)).toEqual([]);
    const direct = await (await loaded('cl100k_base')).rows('main');
    expect(rows.map((r) => r.tokens)).toEqual(direct.map((r) => r.tokens));
  });
});
