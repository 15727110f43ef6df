// Share links (SPEC §7): every real fixture under every preset (and a tight window that makes the pipeline
// rewrite) survives encode → decode with the identical analysis; the payload leaves defaults out; decoding
// is versioned and falls back per field, failing only on an unreadable transcript, always with a message.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { fileFromText, parseTranscript } from '../../src/formats/index.ts';
import type { Transcript } from '../../src/model/transcript.ts';
import { PRESET_IDS } from '../../src/pipeline/presets.ts';
import { deflateRaw, fromBase64Url, inflateRaw, toBase64Url } from '../../src/share/bytes.ts';
import { decodeShare, encodeShare, inflateCap, LINK_INFLATE_MAX, shareLink } from '../../src/share/codec.ts';
import { DEFAULT_BASE_URL, shareValue } from '../../src/share/link.ts';
import { fromShareFile, type ShareSettings, type ShareState, toPayload, toShareFile } from '../../src/share/payload.ts';
import { DEFAULT_VIEW, type View } from '../../src/share/view.ts';
import type { CachedTokenizer } from '../../src/tokens/tokenizer.ts';
import { cpuMs } from '../helpers/cpu-time.ts';
import { transcript } from '../helpers/dsl.ts';
import { describeReal, loadReal } from '../helpers/fixtures.ts';
import { tokenizer } from '../helpers/replay.ts';
import { comparable, realFixtures, reportOf, settingsFor, TIGHT } from './helpers.ts';

function stateOf(t: Transcript, s: ShareSettings, view = DEFAULT_VIEW): ShareState {
  return { ...s, view, source: { kind: 'transcript', transcript: t } };
}

async function linkOfJson(doc: unknown, version = 1): Promise<string> {
  const bytes = await deflateRaw(new TextEncoder().encode(JSON.stringify(doc)));
  return `${DEFAULT_BASE_URL}#s=${version}.${toBase64Url(bytes)}`;
}

async function decodeOk(link: string) {
  const d = await decodeShare(link);
  if (!d.ok) throw new Error(d.error);
  return d;
}

const SMALL = transcript(`
U Fix the login bug
-
A tu(a) Read src/auth.ts
-
U tr(a) 3000 chars
-
A tu(b) Bash npm test
-
U tr(b) 500 chars
-
A Done.
`);

describe('bytes: base64url and deflate-raw', () => {
  it('base64url round-trips any bytes and uses only URL-safe characters', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const s = toBase64Url(bytes);
        expect(s).toMatch(/^[A-Za-z0-9_-]*$/);
        expect(fromBase64Url(s)).toEqual(bytes);
      }),
    );
  });

  it('rejects characters outside the alphabet and impossible lengths', () => {
    expect(fromBase64Url('ab+c')).toBeNull();
    expect(fromBase64Url('abcde')).toBeNull();
  });

  it('deflate-raw round-trips through the platform streams', async () => {
    const text = 'tierscope '.repeat(5000);
    const packed = await deflateRaw(new TextEncoder().encode(text));
    expect(packed.length).toBeLessThan(text.length / 20);
    expect(new TextDecoder().decode(await inflateRaw(packed))).toBe(text);
    await expect(inflateRaw(packed, 1000)).rejects.toThrow(/expands beyond/);
  });
});

describe('links: payload and round trip on a DSL transcript', () => {
  let tok: CachedTokenizer;
  beforeAll(async () => {
    tok = await tokenizer();
  });

  it('leaves defaults out: the seeds preset with no changes carries only v and the transcript', () => {
    const p = toPayload(stateOf(SMALL, settingsFor('seeds')));
    expect(Object.keys(p).sort()).toEqual(['transcript', 'v']);
  });

  it('stores the preset plus only the keys that differ from it, and non-default settings', () => {
    const s = { ...settingsFor('claude-code', { tier3Window: 3, 'microcompact.keepRecent': 2 }), mode: 'raw' as const };
    const p = toPayload(stateOf(SMALL, s, { ...DEFAULT_VIEW, thread: 'main', request: 1 }));
    expect(p.config).toEqual({ preset: 'claude-code', tier3Window: 3, 'microcompact.keepRecent': 2 });
    expect(p.mode).toBe('raw');
    expect(p.provider).toBeUndefined();
    expect(p.view).toBe('thread=main&request=1');
  });

  it('round-trips settings, view and the analysis', async () => {
    const s: ShareSettings = {
      ...settingsFor('kocoro-source', TIGHT),
      mode: 'raw',
      provider: 'openai-chat',
      encoding: 'cl100k_base',
    };
    const view: View = {
      ...DEFAULT_VIEW,
      thread: 'main',
      request: 2,
      selection: 3,
      detail: 'normalized',
      compaction: 'main/pipeline/0',
      probe: 'summary.filesRead.lost.1',
      range: { from: 0, to: 2 },
      config: 'json',
    };
    const link = await shareLink(stateOf(SMALL, s, view));
    expect(link.startsWith(`${DEFAULT_BASE_URL}#s=1.`)).toBe(true);
    const d = await decodeOk(link);
    expect(d.warnings).toEqual([]);
    expect(d.state.view).toEqual(view);
    expect({ ...d.state, view: undefined, source: undefined }).toEqual({ ...s, view: undefined, source: undefined });
    if (d.state.source.kind !== 'transcript') throw new Error('expected a transcript');
    expect(comparable(reportOf(d.state.source.transcript, d.state, tok))).toEqual(comparable(reportOf(SMALL, s, tok)));
  });

  it('accepts the link, its fragment, or the bare value; a replaced base URL keeps the data', async () => {
    const encoded = await encodeShare(stateOf(SMALL, settingsFor('seeds')));
    const link = await shareLink(stateOf(SMALL, settingsFor('seeds')), 'https://example.test/app/?x=1#old');
    expect(link).toBe(`https://example.test/app/?x=1#s=${encoded}`);
    expect(shareValue(link)).toBe(encoded);
    expect(shareValue(`#s=${encoded}`)).toBe(encoded);
    expect(shareValue(encoded)).toBe(encoded);
    expect(shareValue(`#x=1&s=${encodeURIComponent(encoded)}`)).toBe(encoded);
    for (const input of [link, `#s=${encoded}`, encoded]) expect((await decodeShare(input)).ok).toBe(true);
  });

  it('carries a bundled sample by id instead of a transcript', async () => {
    const s = settingsFor('sliding-window');
    const link = await shareLink({
      ...s,
      view: { ...DEFAULT_VIEW, thread: 'main', request: 4 },
      source: { kind: 'sample', id: 'story-37-1' },
    });
    const d = await decodeOk(link);
    expect(d.state.source).toEqual({ kind: 'sample', id: 'story-37-1' });
    expect(d.state.view.request).toBe(4);
    expect(d.state.preset).toBe('sliding-window');
  });

  it('share files are plain bundles that load by drop and restore settings and view', async () => {
    const s = settingsFor('context-editing', { tier3Window: 4 });
    const view = { ...DEFAULT_VIEW, thread: 'main', request: 1, selection: 2 };
    const text = toShareFile({ ...s, view, source: { kind: 'transcript', transcript: SMALL } });
    const loaded = parseTranscript(fileFromText('repro.tierscope.json', text));
    if (!loaded.ok) throw new Error(loaded.error);
    expect(loaded.transcript.format).toBe('tierscope');
    const d = fromShareFile(JSON.parse(text));
    if (!d?.ok) throw new Error('share file did not decode');
    expect(d.state.view).toEqual(view);
    expect(d.state.config).toEqual(s.config);
    expect(comparable(reportOf(loaded.transcript, s, tok))).toEqual(comparable(reportOf(SMALL, s, tok)));
    expect(fromShareFile(JSON.parse(JSON.stringify({ tierscope: 1, threads: [] })))).toBeNull();
  });
});

describe('links: versions, damage and per-field fallback', () => {
  const bundle = JSON.parse(JSON.stringify(toPayload(stateOf(SMALL, settingsFor('seeds'))).transcript));

  it('an unknown link version or payload version gets a clear message', async () => {
    const encoded = await encodeShare(stateOf(SMALL, settingsFor('seeds')));
    const newer = await decodeShare(`#s=2.${encoded.slice(2)}`);
    expect(newer).toEqual({ ok: false, error: expect.stringMatching(/newer Tierscope \(link version 2\).*update/) });
    const payloadV2 = await decodeShare(await linkOfJson({ v: 2, transcript: bundle }));
    expect(payloadV2).toEqual({ ok: false, error: expect.stringMatching(/newer Tierscope \(share format v2\)/) });
    const noV = await decodeShare(await linkOfJson({ transcript: bundle }));
    expect(noV).toEqual({ ok: false, error: expect.stringMatching(/unknown share format/) });
    expect(await decodeShare('#s=abc')).toEqual({ ok: false, error: expect.stringMatching(/no version prefix/) });
  });

  it('a damaged link says what broke', async () => {
    const link = await shareLink(stateOf(SMALL, settingsFor('seeds')));
    expect(await decodeShare('http://127.0.0.1:5173/')).toEqual({
      ok: false,
      error: expect.stringMatching(/not a Tierscope share link/),
    });
    expect(await decodeShare(`${link.slice(0, -40)}`)).toEqual({ ok: false, error: expect.stringMatching(/damaged/) });
    expect(await decodeShare(`${link}!!`)).toEqual({ ok: false, error: expect.stringMatching(/not base64url/) });
    const notJson = `#s=1.${toBase64Url(await deflateRaw(new TextEncoder().encode('{"v":1,')))}`;
    expect(await decodeShare(notJson)).toEqual({ ok: false, error: expect.stringMatching(/not JSON/) });
  });

  it('bad view fields fall back to the default view, with warnings', async () => {
    const d1 = await decodeOk(await linkOfJson({ v: 1, transcript: bundle, view: { thread: 'nope', request: 2 } }));
    expect(d1.state.view).toEqual(DEFAULT_VIEW);
    expect(d1.warnings).toEqual([expect.stringMatching(/view.thread "nope" is not in the transcript/)]);
    const d2 = await decodeOk(
      await linkOfJson({ v: 1, transcript: bundle, view: { thread: 'main', request: 'x', selection: 99 } }),
    );
    expect(d2.state.view).toEqual({ ...DEFAULT_VIEW, thread: 'main' });
    expect(d2.warnings).toHaveLength(2);
    const d3 = await decodeOk(await linkOfJson({ v: 1, transcript: bundle, view: 'main' }));
    expect(d3.state.view).toEqual(DEFAULT_VIEW);
    expect(d3.warnings).toEqual([expect.stringMatching(/view key "main" is unknown/)]);
    const d4 = await decodeOk(await linkOfJson({ v: 1, transcript: bundle, view: 7 }));
    expect(d4.state.view).toEqual(DEFAULT_VIEW);
    expect(d4.warnings).toEqual([expect.stringMatching(/view is not a view/)]);
    // The view string of this build: a bad field is left out with a warning, the rest is kept.
    const d5 = await decodeOk(
      await linkOfJson({ v: 1, transcript: bundle, view: 'thread=main&request=1&probe=nope&range=9-2&detail=diff' }),
    );
    expect(d5.state.view).toEqual({ ...DEFAULT_VIEW, thread: 'main', request: 1, detail: 'diff' });
    expect(d5.warnings).toEqual([
      expect.stringMatching(/view.probe "nope" is not a probe item/),
      expect.stringMatching(/view.range "9-2" is not a request range/),
    ]);
  });

  it('bad config keys keep the preset value; unknown keys and bad settings are ignored, with warnings', async () => {
    const d = await decodeOk(
      await linkOfJson({
        v: 1,
        transcript: bundle,
        config: { preset: 'claude-code', tier3Window: 'five', tier1Distance: 7, bogusKey: 1, 'cache.ttlSeconds': -3 },
        mode: 'sideways',
        provider: 42,
      }),
    );
    const expected = settingsFor('claude-code', { tier1Distance: 7 });
    expect(d.state.preset).toBe('claude-code');
    expect(d.state.config).toEqual(expected.config);
    expect(d.state.mode).toBe('recorded');
    expect(d.state.provider).toBe('anthropic');
    expect(d.warnings).toEqual([
      expect.stringMatching(/tier3Window: must be a number.*using the claude-code value/),
      expect.stringMatching(/config key "bogusKey" is unknown/),
      expect.stringMatching(/cache.ttlSeconds: must be ≥ 0/),
      expect.stringMatching(/mode "sideways"/),
      expect.stringMatching(/provider 42/),
    ]);
    const badPreset = await decodeOk(await linkOfJson({ v: 1, transcript: bundle, config: { preset: 'turbo' } }));
    expect(badPreset.state.preset).toBe('seeds');
    expect(badPreset.warnings).toEqual([expect.stringMatching(/preset "turbo" is not one of/)]);
  });

  it('damaged messages inside the transcript are dropped with warnings; the rest still loads', async () => {
    const damaged = JSON.parse(JSON.stringify(bundle));
    damaged.threads[0].messages[1] = { role: 'robot' };
    const d = await decodeOk(await linkOfJson({ v: 1, transcript: damaged }));
    expect(d.warnings).toEqual([expect.stringMatching(/^transcript: threads\[0\].messages\[1\]: not a message/)]);
    if (d.state.source.kind !== 'transcript') throw new Error('expected a transcript');
    expect(d.state.source.transcript.threads[0].messages).toHaveLength(SMALL.threads[0].messages.length - 1);
  });

  it('only an unreadable transcript is fatal, with a clear message', async () => {
    expect(await decodeShare(await linkOfJson({ v: 1, transcript: 'hello' }))).toEqual({
      ok: false,
      error: expect.stringMatching(/transcript in this link cannot be read: bundle is not a JSON object/),
    });
    expect(await decodeShare(await linkOfJson({ v: 1, transcript: { ...bundle, tierscope: 9 } }))).toEqual({
      ok: false,
      error: expect.stringMatching(/cannot be read: bundle version 9 is not supported/),
    });
    expect(await decodeShare(await linkOfJson({ v: 1, transcript: { ...bundle, threads: [] } }))).toEqual({
      ok: false,
      error: expect.stringMatching(/has no threads/),
    });
    expect(await decodeShare(await linkOfJson({ v: 1 }))).toEqual({
      ok: false,
      error: expect.stringMatching(/neither a transcript nor a sample/),
    });
  });
});

describeReal('links: every real fixture under every preset decodes to the identical analysis', () => {
  let tok: CachedTokenizer;
  beforeAll(async () => {
    tok = await tokenizer();
  });
  for (const rel of realFixtures()) {
    let t: Transcript | undefined;
    const fixture = () => {
      t ??= loadReal(rel);
      return t;
    };
    for (const preset of PRESET_IDS) {
      it(`${rel} · ${preset} (default and tight window)`, async () => {
        const t = fixture();
        for (const s of [settingsFor(preset), settingsFor(preset, TIGHT)]) {
          const last = t.threads[t.threads.length - 1];
          const view = {
            ...DEFAULT_VIEW,
            thread: last.id,
            request: last.requests.length > 0 ? last.requests.length - 1 : null,
            selection: last.messages.length > 0 ? 0 : null,
          };
          const d = await decodeOk(await shareLink(stateOf(t, s, view)));
          expect(d.warnings).toEqual([]);
          expect(d.state.config).toEqual(s.config);
          expect(d.state.view).toEqual(view);
          if (d.state.source.kind !== 'transcript') throw new Error('expected a transcript');
          const back = d.state.source.transcript;
          expect(back.meta.originalFormat).toBe(t.format);
          const a = reportOf(t, s, tok);
          const b = reportOf(back, d.state, tok);
          // Tiers, pairing and cache breaks are what a reproduction is about: compare them first for a
          // readable failure, then everything else in the report.
          expect(b.toolResults.map((x) => [x.toolUseId, x.tier])).toEqual(
            a.toolResults.map((x) => [x.toolUseId, x.tier]),
          );
          expect(b.pairing).toEqual(a.pairing);
          expect(b.requests.map((q) => [q.cacheBreak, q.observedBreak])).toEqual(
            a.requests.map((q) => [q.cacheBreak, q.observedBreak]),
          );
          expect(comparable(b)).toEqual(comparable(a));
        }
      });
    }
  }
});

describe('link bombs (issue 19, item 2)', () => {
  const bomb = async (json: string) => `#s=1.${toBase64Url(await deflateRaw(new TextEncoder().encode(json)))}`;

  it('a link that inflates past 100× its size or 32 MB is refused while streaming, quickly', async () => {
    const text = 'a'.repeat(40 * 1024 * 1024);
    const link = await bomb(
      `{"v":1,"transcript":{"tierscope":1,"threads":[{"messages":[{"role":"user","blocks":[{"type":"text","text":"${text}"}]}]}]}}`,
    );
    const { result: d, ms } = await cpuMs(() => decodeShare(link));
    expect(ms, 'CPU ms').toBeLessThan(3000);
    expect(d.ok).toBe(false);
    if (!d.ok) expect(d.error).toMatch(/refused: its .* expand past .*decompression bomb/);
    expect(inflateCap(1000)).toBe(1024 * 1024);
    expect(inflateCap(100_000)).toBe(10_000_000);
    expect(inflateCap(2_000_000)).toBe(LINK_INFLATE_MAX);
  });

  it('millions of values are refused before JSON.parse builds them; a bundle of wrong elements gives up', async () => {
    // Random bits (a pseudo-random stream deflate cannot shrink 100×), three million of them.
    let x = 1;
    const bits = Array.from({ length: 3_000_000 }, () => {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      return x >>> 31;
    }).join(',');
    const head = '{"v":1,"transcript":{"tierscope":1,"threads":[{"id":"m","messages":[';
    const many = await decodeShare(await bomb(`${head}${bits}]}]}}`));
    expect(many.ok || many.error).toMatch(/over 2,000,000 values/);
    const wrong = Array.from({ length: 150_000 }, (_, i) => `{"role":${i * 7919}}`).join(',');
    const d = await decodeShare(await bomb(`${head}${wrong}]}]}}`));
    expect(d.ok || d.error).toMatch(/over 100,000 fields of this bundle are not what a transcript holds/);
    const few = new Array(2_000).fill('{"role":1}').join(',');
    const ok = await decodeShare(await bomb(`${head}${few},{"role":"user","blocks":[]}]}]}}`));
    if (!ok.ok) throw new Error(ok.error);
    // 2,000 bad messages: 1,000 listed, the rest counted in one warning (no stack overflow, no flood).
    expect(ok.warnings.length).toBe(1001);
    expect(ok.warnings.at(-1)).toMatch(/1000 more problems in this bundle, not listed/);
  });
});
