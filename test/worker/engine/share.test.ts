// The engine's share methods in-thread (the same code the worker runs): a link built from the loaded
// transcript reopens in a fresh engine with the same settings, view and analysis; sample links carry the id;
// redaction previews list secrets; the minimizer reports progress, stops on cancel or a newer run, and its
// reproduction is shared; share files restore settings and view on load; damaged links get clear messages.
import { describe, expect, it } from 'vitest';
import { exportBundle } from '../../../src/formats/tierscope.ts';
import type { Transcript } from '../../../src/model/transcript.ts';
import { presetConfig } from '../../../src/pipeline/presets.ts';
import { decodeShare } from '../../../src/share/codec.ts';
import type { MinimizeProgress } from '../../../src/share/minimize.ts';
import { DEFAULT_VIEW } from '../../../src/share/view.ts';
import type { EngineApi, RunResult, RunSettings, ShareRequest } from '../../../worker/api.ts';
import { createEngine } from '../../../worker/create-engine.ts';
import { transcript } from '../../helpers/dsl.ts';
import { loopDsl, type Turn } from '../../helpers/loop.ts';
import { runRows } from '../../helpers/run-rows.ts';

const enc = new TextEncoder();
const file = (name: string, text: string) => ({ name, buffer: enc.encode(text).buffer as ArrayBuffer });

const settings = (over: Partial<RunSettings['config']> = {}): RunSettings => ({
  preset: 'seeds',
  config: { ...presetConfig('seeds'), contextWindow: 24_000, outputReserve: 2000, ...over },
  mode: 'recorded',
  provider: 'anthropic',
  encoding: 'o200k_base',
});

const VIEW = { ...DEFAULT_VIEW, request: 20, selection: 41 };
const SECRET = 'sk-ant-api03-Zx9QmW2rT7yLp4Kd8VbN1cF6hJ3sG5aE0uI-abcdEFGH';

/** A session of `n` turns with one result whose call was lost (an orphan) after turn `at`. */
function session(n: number, at = -1): Transcript {
  const turns: Turn[] = Array.from({ length: n }, (_, i) => ({
    tool: i % 3 === 0 ? 'Read' : 'Bash',
    args: i % 3 === 0 ? `src/mod${i}.ts` : `go test ./pkg${i}`,
    result: `${1200 + ((i * 37) % 900)} chars`,
  }));
  const lines = loopDsl(turns).split('\n');
  if (at >= 0) {
    let seen = 0;
    const k = lines.findIndex((l) => l === '-' && ++seen === 2 * at + 1);
    lines.splice(k, 0, '-', 'U tr(ghost) "stray output of a lost call"');
  }
  lines.splice(1, 0, `U my key is ${SECRET}, mail me at dev@example.com`);
  return transcript(lines.join('\n'));
}

async function loaded(t: Transcript, name = 'session.tierscope.json'): Promise<EngineApi> {
  const engine = createEngine();
  const s = await engine.load([file(name, exportBundle(t))], undefined);
  if (!s.ok) throw new Error(s.error);
  return engine;
}

async function tiers(engine: EngineApi, s: RunSettings): Promise<string[]> {
  const r = (await engine.run(1, s)) as RunResult;
  return (await runRows(engine, r)).toolResults.map((x) => `${x.toolUseId}=${x.tier}`);
}

const request = (over: Partial<ShareRequest> = {}): ShareRequest => ({
  settings: settings(),
  view: VIEW,
  redact: null,
  ...over,
});

describe('share links from the engine', () => {
  it('a link reopens in a fresh engine with the same settings, view and tiers', async () => {
    const engine = await loaded(session(40));
    const tight = settings({ contextWindow: 12_000, outputReserve: 1000 });
    const want = await tiers(engine, tight);
    expect(want.some((x) => x.endsWith('=1'))).toBe(true);
    const r = await engine.share(request({ settings: tight }));
    if (!r.ok) throw new Error(r.error);
    expect(r.carries).toBe('transcript');
    expect(r.encoded).toMatch(/^1\.[A-Za-z0-9_-]+$/);
    expect(r.secretCount).toBe(2);
    expect(r.notes.join()).toMatch(/2 secret-looking string\(s\) would be shared/);

    const other = createEngine();
    const opened = await other.openShare(`http://127.0.0.1:4173/#s=${r.encoded}`);
    if (!opened.ok) throw new Error(opened.error);
    expect(opened.kind).toBe('transcript');
    expect(opened.warnings).toEqual([]);
    expect(opened.view).toEqual(VIEW);
    expect(opened.settings).toEqual(tight);
    if (opened.kind !== 'transcript') return;
    // The bundle names the format its transcript was read from, not "tierscope".
    expect(opened.summary.format).toBe('claude-code');
    expect(opened.summary.counts.toolResults).toBe(40);
    expect(await tiers(other, opened.settings)).toEqual(want);
  });

  it('a sample link carries the id; redacting embeds the transcript instead', async () => {
    const engine = await loaded(session(12));
    const plain = await engine.share(request({ sample: 'story-37-1' }));
    if (!plain.ok) throw new Error(plain.error);
    expect(plain.carries).toBe('sample');
    expect(plain.encoded.length).toBeLessThan(200);
    const opened = await createEngine().openShare(`#s=${plain.encoded}`);
    expect(opened).toMatchObject({ ok: true, kind: 'sample', sample: 'story-37-1', view: VIEW });
    const red = await engine.share(request({ sample: 'story-37-1', redact: { keepPaths: true } }));
    if (!red.ok) throw new Error(red.error);
    expect(red.carries).toBe('transcript');
  });

  it('redaction: the preview lists what changes and the secrets; the link holds neither', async () => {
    const engine = await loaded(session(30));
    const r = await engine.share(request({ redact: { keepPaths: true } }));
    if (!r.ok) throw new Error(r.error);
    const p = r.redaction;
    if (!p) throw new Error('no preview');
    expect(p.counts.secrets).toBe(2);
    expect(r.secrets.map((s) => s.secret).sort()).toEqual(['anthropic-key', 'email']);
    expect(r.secrets.every((s) => !s.before.includes(SECRET))).toBe(true);
    expect(p.counts.byKind['tool-result']).toBe(30);
    expect(p.keptPaths).toContain('src/mod0.ts');
    const d = await decodeShare(r.encoded);
    if (!d.ok) throw new Error(d.error);
    const json = JSON.stringify(d.state);
    expect(json).not.toContain(SECRET);
    expect(json).not.toContain('dev@example.com');
    expect(json).toContain('src/mod0.ts');
    const noPaths = await engine.share(request({ redact: { keepPaths: false } }));
    if (!noPaths.ok) throw new Error(noPaths.error);
    expect(noPaths.redaction?.counts.keptPaths).toBe(0);
  });

  it('a share file restores settings and view when it is loaded', async () => {
    const engine = await loaded(session(20));
    const text = await engine.shareFile(
      request({ sample: 'ignored-for-files', settings: settings({ tier3Window: 4 }) }),
    );
    if (text === null) throw new Error('no file');
    const other = createEngine();
    const s = await other.load([file('repro.tierscope.json', text)], undefined);
    if (!s.ok) throw new Error(s.error);
    expect(s.share?.settings.config.tier3Window).toBe(4);
    expect(s.share?.view).toEqual(VIEW);
    expect(s.share?.warnings).toEqual([]);
    // A plain bundle carries no share part.
    const plain = await createEngine().load([file('plain.tierscope.json', exportBundle(session(3)))], undefined);
    expect(plain.ok && plain.share).toBeFalsy();
  });

  it('damaged links and unknown versions get one clear message each', async () => {
    const engine = createEngine();
    expect(await engine.openShare('#s=9.abc')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/newer Tierscope \(link version 9\)/),
    });
    expect(await engine.openShare('#s=1.!!!')).toMatchObject({ ok: false, error: expect.stringMatching(/damaged/) });
    expect(await engine.openShare('#s=1.AAAA')).toMatchObject({ ok: false, error: expect.stringMatching(/damaged/) });
  });
});

describe('minimize in the engine', () => {
  const predicate = 'pairing:orphan-result@input';

  it('shrinks a pairing bug with progress; the reproduction is shared and reopens with the same issue', async () => {
    const engine = await loaded(session(60, 25));
    const progress: MinimizeProgress[] = [];
    const r = await engine.minimize(1, { settings: settings(), view: VIEW, redact: null, predicate }, (p) => {
      progress.push(p);
    });
    if (!r.ok) throw new Error(r.error);
    expect(r.status).toBe('minimal');
    expect(r.after.messages).toBeLessThanOrEqual(6);
    expect(r.before.messages).toBeGreaterThan(120);
    expect(progress.length).toBeGreaterThan(0);
    expect(r.witness.detail).toMatch(/tool_result/);
    expect(r.view).toMatchObject({ thread: 'main', request: r.witness.request });
    const other = createEngine();
    const opened = await other.openShare(`#s=${r.encoded}`);
    if (!opened.ok) throw new Error(opened.error);
    const run = (await other.run(1, opened.settings)) as RunResult;
    expect(run.pairing.some((v) => v.rule === 'orphan-result' && v.stage === 'input')).toBe(true);
    // The reproduction can also be shared redacted, or as a file, by its token.
    const again = await engine.share(request({ minimized: 1, redact: null }));
    expect(again.ok && again.encoded).toBe(r.encoded);
    expect(await engine.shareFile(request({ minimized: 1 }))).toContain('"share":{');
    const red = await engine.share(request({ minimized: 1, redact: { keepPaths: true } }));
    if (!red.ok) throw new Error(red.error);
    expect(red.view).toEqual(r.view);
    expect(red.redaction?.counts.strings).toBeGreaterThan(0);
    expect(red.notes).toEqual([]);
    const d = await decodeShare(red.encoded);
    expect(d.ok && JSON.stringify(d.state)).not.toContain('stray output');
  });

  it('stops at once when cancelled, with the best reproduction so far', async () => {
    const engine = await loaded(session(60, 25));
    let calls = 0;
    const r = await engine.minimize(7, { settings: settings(), view: VIEW, redact: null, predicate }, () => {
      calls++;
      void engine.cancelMinimize(7);
    });
    if (!r.ok) throw new Error(r.error);
    expect(r.status).toBe('cancelled');
    expect(calls).toBe(1);
    expect(r.evaluations).toBe(2);
  });

  it('a newer run supersedes an older one, which stops and says so', async () => {
    const engine = await loaded(session(60, 25));
    let second: ReturnType<EngineApi['minimize']> | undefined;
    const first = await engine.minimize(1, { settings: settings(), view: VIEW, redact: null, predicate }, () => {
      second ??= engine.minimize(2, { settings: settings(), view: VIEW, redact: null, predicate });
    });
    expect(first).toMatchObject({ ok: false, token: 1, stale: true });
    expect(await second).toMatchObject({ ok: true, token: 2, status: 'minimal' });
  });

  it('says why when the predicate does not hold or does not parse', async () => {
    const engine = await loaded(session(10));
    expect(await engine.minimize(1, { settings: settings(), view: VIEW, redact: null, predicate })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/does not hold on this transcript/),
    });
    expect(
      await engine.minimize(2, { settings: settings(), view: VIEW, redact: null, predicate: 'pairing:nope' }),
    ).toMatchObject({ ok: false, error: expect.stringMatching(/unknown pairing rule/) });
  });
});
