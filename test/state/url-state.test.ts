// URL state: `?src=` and `#s=` read and written purely (other parameters kept, old fragments dropped), the
// view a link carries leaves the default thread out, and a restored view falls back per field with warnings.
import { describe, expect, it } from 'vitest';
import { presetConfig } from '../../src/pipeline/presets.ts';
import {
  configOf,
  defaultThread,
  restoreView,
  settingsOf,
  shareViewOf,
  stateFromUrl,
  urlFromState,
} from '../../src/state/url-state.ts';
import type { ThreadInfo } from '../../worker/api.ts';

const threads: ThreadInfo[] = [
  { id: 'main', kind: 'main', messages: 40, requests: 19 },
  { id: 'agent:a1', kind: 'sidechain', messages: 8, requests: 4 },
];

describe('stateFromUrl / urlFromState', () => {
  it('reads the share value and ?src=, never the query as a share', () => {
    expect(stateFromUrl('http://127.0.0.1:4173/#s=1.abc')).toEqual({ src: null, share: '1.abc' });
    expect(stateFromUrl('http://127.0.0.1:4173/app/?src=x.jsonl&s=1.q')).toEqual({ src: 'x.jsonl', share: null });
    expect(stateFromUrl('http://127.0.0.1:4173/#other=1&s=1.zz')).toEqual({ src: null, share: '1.zz' });
    expect(stateFromUrl('http://127.0.0.1:4173/#s=')).toEqual({ src: null, share: '' });
    expect(stateFromUrl('not a url')).toEqual({ src: null, share: null });
  });

  it('writes a link on this page: path and other parameters kept, old fragment and ?src= replaced', () => {
    const href = 'http://127.0.0.1:4173/tierscope/?src=old.jsonl&theme=dark#s=1.old';
    expect(urlFromState(href, { src: null, share: '1.new' })).toBe(
      'http://127.0.0.1:4173/tierscope/?theme=dark#s=1.new',
    );
    expect(urlFromState(href, { src: null, share: null })).toBe('http://127.0.0.1:4173/tierscope/?theme=dark');
    expect(urlFromState('http://h/', { src: 'a b.json', share: null })).toBe('http://h/?src=a+b.json');
  });

  it('round-trips', () => {
    const href = 'http://127.0.0.1:4173/?x=1';
    for (const st of [
      { src: null, share: '1.AbC-_' },
      { src: 'f.jsonl', share: null },
      { src: null, share: null },
    ])
      expect(stateFromUrl(urlFromState(href, st))).toEqual(st);
  });
});

describe('views in links', () => {
  it('leaves the default thread out and keeps the rest', () => {
    expect(defaultThread(threads)).toBe('main');
    expect(shareViewOf({ thread: 'main', message: null, request: null }, threads)).toEqual({
      thread: null,
      request: null,
      selection: null,
    });
    expect(shareViewOf({ thread: 'agent:a1', message: 3, request: 1 }, threads)).toEqual({
      thread: 'agent:a1',
      request: 1,
      selection: 3,
    });
    // A main thread that is not first must be named (the decoder falls back to the first thread).
    const swapped = [threads[1], threads[0]];
    expect(shareViewOf({ thread: 'main', message: 2, request: null }, swapped).thread).toBe('main');
  });

  it('restores a view, falling back per field with a warning each', () => {
    expect(restoreView({ thread: null, request: 3, selection: 7 }, threads)).toEqual({
      thread: 'main',
      request: 3,
      message: 7,
      warnings: [],
    });
    const r = restoreView({ thread: 'agent:a1', request: 9, selection: 5 }, threads);
    expect(r).toMatchObject({ thread: 'agent:a1', request: null, message: 5 });
    expect(r.warnings).toEqual(['view.request 9 is out of range (thread has 4); ignored']);
    const gone = restoreView({ thread: 'agent:zz', request: 1, selection: 1 }, threads);
    expect(gone).toMatchObject({ thread: 'main', request: null, message: null });
    expect(gone.warnings[0]).toMatch(/"agent:zz" is not in the transcript/);
  });

  it('maps settings both ways; an unknown preset is refused', () => {
    const c = {
      preset: 'seeds' as const,
      config: presetConfig('seeds'),
      mode: 'raw' as const,
      provider: 'gemini' as const,
      encoding: 'cl100k_base' as const,
    };
    expect(configOf(settingsOf(c))).toEqual(c);
    expect(configOf({ ...settingsOf(c), preset: 'nope' })).toBeNull();
  });
});
