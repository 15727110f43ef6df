// The engine in-thread (the same code the worker runs): load, rows, a run, stale-run dropping, detail,
// diff and the report, on a DSL transcript exported as a bundle and on a real fixture.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyses/analyze.ts';
import { exportBundle } from '../../src/formats/tierscope.ts';
import { itemsOf } from '../../src/lib/made-on-read.ts';
import { presetConfig } from '../../src/pipeline/presets.ts';
import { cutParts, RUN_ARRAYS } from '../../src/protocol/held-replies.ts';
import { createTokenizer } from '../../src/tokens/tokenizer.ts';
import { pointCount } from '../../src/views/timeline/points.ts';
import type { RunResult, RunSettings } from '../../worker/api.ts';
import { createEngine } from '../../worker/create-engine.ts';
import { describeReal, realPath } from '../helpers/fixtures.ts';
import { loop, repeat } from '../helpers/loop.ts';
import { runRows } from '../helpers/run-rows.ts';

const enc = new TextEncoder();
const file = (name: string, text: string) => ({ name, buffer: enc.encode(text).buffer as ArrayBuffer });
const settings = (over: Partial<RunSettings> = {}): RunSettings => ({
  preset: 'seeds',
  config: { ...presetConfig('seeds'), contextWindow: 24_000, outputReserve: 2000 },
  mode: 'recorded',
  provider: 'anthropic',
  encoding: 'o200k_base',
  ...over,
});

describe('engine', () => {
  it('loads a bundle, lists rows, runs the pipeline and explains a rewrite', async () => {
    const engine = createEngine();
    const t = loop(repeat(34, { tool: 'Bash', args: 'go test', result: '3000 chars' }));
    const summary = await engine.load([file('story.tierscope.json', exportBundle(t))], undefined);
    expect(summary.ok).toBe(true);
    if (!summary.ok) return;
    // A bundle names the format its transcript was read from.
    expect(summary.format).toBe(t.format);
    expect(summary.counts.toolResults).toBe(34);
    const rows = await engine.rows('main');
    expect(rows).toHaveLength(t.threads[0].messages.length);
    expect(rows[2].tools).toEqual(['Bash']);
    expect(rows[2].tokens).toBeGreaterThan(600);
    const r = (await engine.run(1, settings())) as RunResult;
    expect(r.stale).toBeFalsy();
    // The worker's wire writes the timeline one chunk at a time unmade (lib/made-on-read.ts): the bytes of the
    // result read whole. The tool-result and event rows are not in the result: asked for by window.
    const unread = cutParts(r, RUN_ARRAYS);
    expect(itemsOf(r, 'timeline')).toBeDefined();
    expect(unread.parts).toEqual(cutParts({ ...r }, RUN_ARRAYS).parts);
    expect(itemsOf(r, 'timeline')).toBeUndefined();
    expect(Object.keys(r)).not.toContain('toolResults');
    expect(Object.keys(r)).not.toContain('events');
    const { toolResults, events } = await runRows(engine, r);
    expect(toolResults.filter((x) => x.tier === 1).length).toBeGreaterThan(0);
    expect(r.notes).toMatchObject({ results: 34, events: events.length, error: false });
    expect(r.notes.tiers).toEqual([...new Set(toolResults.map((x) => x.tier).filter((x) => x !== null))].sort());
    expect(pointCount(r.timeline)).toBe(t.threads[0].requests.length);
    // A point in full is asked for by the run's id and position; an older run's points are gone.
    const points = await Promise.all(
      Array.from({ length: pointCount(r.timeline) }, async (_, k) => (await engine.point(1, k))?.point),
    );
    expect(await engine.point(2, 0)).toBeNull();
    expect(await engine.point(1, points.length)).toBeNull();
    const tier1 = events.find((e) => e.action === 'tier1');
    expect(tier1).toBeDefined();
    const d = await engine.diff(tier1?.id ?? -1);
    expect(d?.after).toMatch(/^\[Bash called with \{"command":"go test"\}\] → \[result: 3000 chars, snipped\]$/);
    expect(d?.before.length).toBe(3000);
    expect(r.lines.trigger).toBe(19_200);
    const detail = await engine.detail('main', 2);
    expect(JSON.parse(detail?.normalized ?? '{}').role).toBe('user');
    const report = await engine.report();
    expect(report?.counts.toolResults).toBe(34);
    // A run skips the report's per-request rows (its timeline carries them); asking for the report makes
    // them, equal to what the CLI's analysis prints, and agreeing with the run's timeline.
    const cli = analyze(t, { ...settings(), tokenizer: await createTokenizer('o200k_base'), reportEvents: false });
    expect(report?.requests).toEqual(cli.report.requests);
    expect(report?.requests.map((q) => q.simulated.cacheRead)).toEqual(points.map((p) => p?.simulated.cacheRead));
    expect(report?.requests.map((q) => q.cacheBreak?.cause ?? null)).toEqual(
      points.map((p) => p?.cacheBreak?.cause ?? null),
    );
    // A run sends the trade-off's risk (the re-fetches after the pipeline); the share dialog asks for the listed
    // ones (after the pipeline or a compaction) by tool id; the totals count every kind.
    const all = report?.refetches ?? [];
    const listed = all.filter((f) => f.kind === 'after-pipeline' || f.kind === 'after-agent-compaction');
    const after = all.filter((f) => f.kind === 'after-pipeline');
    expect(r.refetchRisk).toEqual({ count: after.length, tokens: after.reduce((n, f) => n + f.tokens, 0) });
    expect(await engine.refetchesOf(all.map((f) => f.repeatToolUseId))).toEqual(listed);
    expect(r.totals.refetches).toBe(all.length);
    expect(r.totals.refetches).toBeGreaterThan(listed.length);
  });

  it('drops stale runs: of three runs sent at once only the last is computed', async () => {
    const engine = createEngine();
    await engine.load(
      [file('t.tierscope.json', exportBundle(loop(repeat(10, { tool: 'Bash', args: 'x', result: '100 chars' }))))],
      undefined,
    );
    const results = await Promise.all([
      engine.run(1, settings()),
      engine.run(2, settings()),
      engine.run(3, settings()),
    ]);
    expect(results.map((x) => x.stale === true)).toEqual([true, true, false]);
  });

  it('a load overtaken by a newer one is dropped: the engine holds the newer, whichever finishes reading first', async () => {
    const engine = createEngine();
    const small = exportBundle(loop(repeat(3, { tool: 'Bash', args: 'x', result: '10 chars' })));
    const big = exportBundle(loop(repeat(40, { tool: 'Read', args: 'y', result: '2000 chars' })));
    // The first (a start-up sample, say) is a Blob still being read slice by slice when the second arrives.
    const first = engine.load([{ name: 'sample.tierscope.json', blob: new Blob([big]) }], undefined);
    const second = engine.load([file('mine.tierscope.json', small)], undefined);
    const [a, b] = await Promise.all([first, second]);
    expect(a).toMatchObject({ ok: false, error: 'A newer load replaced this one.' });
    expect(b).toMatchObject({ ok: true, fileName: 'mine.tierscope.json' });
    expect(await engine.rows('main')).toHaveLength(b.ok ? b.threads[0].messages : -1);
  });

  it('reports unusable input with the formats tried', async () => {
    const engine = createEngine();
    const r = await engine.load([file('x.txt', 'hello\n')], undefined);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/tried tierscope, claude-trace/);
  });

  it('a failed or cancelled load leaves the loaded transcript in place', async () => {
    const engine = createEngine();
    const t = loop(repeat(12, { tool: 'Bash', args: 'ls', result: '300 chars' }));
    const first = await engine.load([file('kept.tierscope.json', exportBundle(t))], undefined);
    if (!first.ok) throw new Error(first.error);
    const rows = await engine.rows('main');
    // A PNG is no transcript: refused, and what was loaded is still what the engine answers for.
    const png = await engine.load(
      [{ name: 'shot.png', buffer: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]).buffer }],
      undefined,
    );
    expect(png.ok).toBe(false);
    expect(await engine.rows('main')).toEqual(rows);
    // Cancelled while it is read: the next file never replaces the loaded one.
    const other = loop(repeat(30, { tool: 'Read', args: 'a.ts', result: '900 chars' }));
    const pending = engine.load([file('other.tierscope.json', exportBundle(other))], undefined);
    await engine.cancelLoad();
    const r = await pending;
    expect(r).toEqual({ ok: false, error: 'cancelled, nothing of it was loaded.', issues: [] });
    expect((await engine.rows('main')).length).toBe(rows.length);
    expect((await engine.run(1, settings())).stale).not.toBe(true);
    // A load after the cancel goes through.
    const next = await engine.load([file('other.tierscope.json', exportBundle(other))], undefined);
    expect(next.ok && next.counts.messages).toBe(other.threads[0].messages.length);
  });
});

describeReal('engine on a real fixture', () => {
  it('shows the raw source lines of a merged assistant message', async () => {
    const engine = createEngine();
    const p = realPath('claude-code/ccviewer-1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl');
    const bytes = readFileSync(p);
    const s = await engine.load(
      [{ name: 'session.jsonl', buffer: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) }],
      undefined,
    );
    expect(s.ok).toBe(true);
    // The load names the log's defaults (SPEC §1.1), which the UI starts from.
    if (s.ok)
      expect(s.defaults).toMatchObject({
        format: 'claude-code',
        model: { id: 'claude-sonnet-4-20250514' },
        provider: { value: 'anthropic', from: 'model' },
        contextWindow: { value: 200_000, from: 'catalog', catalogId: 'claude-sonnet-4-0' },
      });
    const rows = await engine.rows('main');
    const a = rows.find((r) => r.role === 'assistant');
    const d = await engine.detail('main', a?.index ?? 0);
    // Each line as written in the file (not parsed and re-serialised).
    const lines = d?.raw?.split('\n') ?? [];
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) expect(bytes.toString('utf8').split('\n')).toContain(l);
    expect(d?.raw).toContain('"type":"assistant"');
  });
});

describeReal('a followed session that grows', () => {
  it('loads the grown file from the lines it kept and reports what a fresh load reports', async () => {
    const lines = readFileSync(realPath('claude-code/ccviewer-5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l !== '');
    const text = (n: number) => `${lines.slice(0, n).join('\n')}\n`;
    const followed = createEngine();
    const first = await followed.load(
      [file('s.jsonl', text(lines.length - 6))],
      undefined,
      undefined,
      undefined,
      'start',
    );
    expect(first.ok).toBe(true);
    for (const n of [lines.length - 3, lines.length]) {
      const grown = await followed.load([file('s.jsonl', text(n))], undefined, undefined, undefined, 'grow');
      const fresh = await createEngine().load([file('s.jsonl', text(n))], undefined);
      if (!grown.ok || !fresh.ok) throw new Error('did not load');
      expect({ ...grown, loadMs: 0 }).toEqual({ ...fresh, loadMs: 0 });
      expect(await followed.rows('main')).toEqual(await freshRows(text(n)));
    }
  });
});

async function freshRows(text: string) {
  const engine = createEngine();
  await engine.load([file('s.jsonl', text)], undefined);
  return engine.rows('main');
}
