// URL state: what is loaded (`?src=`, `#s=`, `#sample=`, `#file=`, `?folder=1`) and the view beside it in the
// fragment, read and written purely (other parameters kept, old fragments replaced); the view a link carries
// leaves the default thread out; a restored view falls back per field with warnings; the view's one encoding
// (src/share/view.ts) round-trips every field, the sessions table's included.
import { describe, expect, it } from 'vitest';
import { presetConfig } from '../../src/pipeline/presets.ts';
import {
  DEFAULT_TABLE,
  DEFAULT_VIEW,
  encodeView,
  fragmentPairs,
  readPayloadView,
  readViewPairs,
  type TableView,
  type View,
} from '../../src/share/view.ts';
import {
  configOf,
  defaultThread,
  hasView,
  restoreView,
  settingsOf,
  stateFromUrl,
  type UrlView,
  urlFromState,
  viewOf,
} from '../../src/state/url-state.ts';
import { pushWorthy } from '../../src/state/view-history.ts';
import type { ThreadInfo } from '../../worker/api.ts';

const threads: ThreadInfo[] = [
  { id: 'main', kind: 'main', messages: 40, requests: 19 },
  { id: 'agent:a1', kind: 'sidechain', messages: 8, requests: 4 },
];

const FULL: View = {
  thread: 'agent:a1',
  request: 3,
  selection: 7,
  event: 12,
  detail: 'diff',
  compaction: 'agent:a1/agent/0',
  probe: 'summary.errors.lost.0',
  range: { from: 1, to: 3 },
  config: 'summarizer',
};

const TABLE: TableView = {
  shown: true,
  session: 'proj/a b.jsonl',
  since: '2025-11-01',
  until: '2025-11-30',
  projects: ['proj', 'other&x'],
  sort: 'usd',
  dir: 'asc',
};

describe('the view’s one encoding', () => {
  it('leaves defaults out and round-trips every field, the table’s too', () => {
    expect(encodeView(DEFAULT_VIEW)).toBe('');
    expect(encodeView(DEFAULT_VIEW, DEFAULT_TABLE)).toBe('');
    const text = encodeView(FULL, TABLE);
    expect(text).toBe(
      'thread=agent:a1&request=3&message=7&event=12&detail=diff&compaction=agent:a1/agent/0&probe=summary.errors.lost.0' +
        '&range=1-3&config=summarizer&sessions=1&session=proj/a%20b.jsonl&since=2025-11-01&until=2025-11-30' +
        '&project=proj&project=other%26x&sort=usd&dir=asc',
    );
    expect(readViewPairs(fragmentPairs(text))).toEqual({ view: FULL, table: TABLE, warnings: [] });
  });

  it('fails per field, naming what it ignored', () => {
    const r = readViewPairs(fragmentPairs('#request=x&range=5-2&detail=html&probe=summary.errors.lost.0&bogus=1'));
    expect(r.view).toEqual(DEFAULT_VIEW); // a probe without its compaction view is dropped too
    expect(r.warnings).toEqual([
      'view.request "x" is not an index; ignored',
      'view.range "5-2" is not a request range (<from>-<to>); ignored',
      'view.detail "html" is not one of raw, normalized, diff; ignored',
      'view key "bogus" is unknown; ignored',
    ]);
  });

  it('reads the view of links made before it (an object) and of this build (the string)', () => {
    expect(readPayloadView({ thread: 'main', request: 2, selection: null })).toEqual({
      view: { ...DEFAULT_VIEW, thread: 'main', request: 2 },
      warnings: [],
    });
    expect(readPayloadView(encodeView(FULL)).view).toEqual(FULL);
    expect(readPayloadView(undefined).view).toEqual(DEFAULT_VIEW);
  });
});

describe('stateFromUrl / urlFromState', () => {
  it('reads what is loaded and the view beside it, never the query as a share', () => {
    expect(stateFromUrl('http://127.0.0.1:4173/#s=1.abc')).toMatchObject({ src: null, share: '1.abc' });
    expect(stateFromUrl('http://127.0.0.1:4173/app/?src=x.jsonl&s=1.q')).toMatchObject({ src: 'x.jsonl', share: null });
    expect(stateFromUrl('http://127.0.0.1:4173/#other=1&s=1.zz')).toMatchObject({ src: null, share: '1.zz' });
    expect(stateFromUrl('http://127.0.0.1:4173/#s=')).toMatchObject({ src: null, share: '' });
    expect(stateFromUrl('not a url')).toMatchObject({ src: null, share: null, view: DEFAULT_VIEW });
    const u = stateFromUrl('http://h/?folder=1#sample=story-37-1&request=4&compaction=main/agent/0&sessions=1');
    expect(u).toMatchObject({ sample: 'story-37-1', folder: true, file: null });
    expect(u.view).toEqual({ ...DEFAULT_VIEW, request: 4, compaction: 'main/agent/0' });
    expect(u.table.shown).toBe(true);
    expect(stateFromUrl('http://h/#file=24a90d02.jsonl&message=3').file).toBe('24a90d02.jsonl');
    expect(hasView(stateFromUrl('http://h/#s=1.abc'))).toBe(false);
    expect(hasView(stateFromUrl('http://h/#s=1.abc&thread=x'))).toBe(true);
  });

  it('writes a link on this page: path and other parameters kept, old fragment and ?src= replaced', () => {
    const href = 'http://127.0.0.1:4173/tierscope/?src=old.jsonl&theme=dark#s=1.old';
    expect(urlFromState(href, { src: null, share: '1.new' })).toBe(
      'http://127.0.0.1:4173/tierscope/?theme=dark#s=1.new',
    );
    expect(urlFromState(href, { src: null, share: null })).toBe('http://127.0.0.1:4173/tierscope/?theme=dark');
    expect(urlFromState('http://h/', { src: 'a b.json', share: null })).toBe('http://h/?src=a+b.json');
    expect(urlFromState('http://h/?folder=1', { src: null, share: '1.x', folder: false })).toBe('http://h/#s=1.x');
    expect(
      urlFromState('http://h/#s=1.old', {
        src: null,
        share: '1.new',
        view: { ...DEFAULT_VIEW, request: 3, compaction: 'main/agent/0' },
      }),
    ).toBe('http://h/#s=1.new&request=3&compaction=main/agent/0');
    expect(urlFromState('http://h/', { src: null, share: null, sample: 'story-37-1', view: FULL })).toMatch(
      /^http:\/\/h\/#sample=story-37-1&thread=agent:a1&request=3/,
    );
  });

  it('round-trips', () => {
    const href = 'http://127.0.0.1:4173/?x=1';
    for (const st of [
      { src: null, share: '1.AbC-_', view: FULL },
      { src: 'f.jsonl', share: null, view: DEFAULT_VIEW },
      { src: null, share: null, file: 'a&b.jsonl', view: { ...DEFAULT_VIEW, selection: 2 } },
      { src: null, share: null, folder: true, view: DEFAULT_VIEW, table: TABLE },
    ])
      expect(stateFromUrl(urlFromState(href, st))).toMatchObject(st);
  });
});

const ui = (o: Partial<UrlView>): UrlView => ({
  thread: 'main',
  message: null,
  request: null,
  event: null,
  detailTab: 'raw',
  compaction: null,
  probe: null,
  range: null,
  configTab: 'controls',
  ...o,
});

describe('views in links and the URL', () => {
  it('leaves the default thread out and keeps the rest', () => {
    expect(defaultThread(threads)).toBe('main');
    expect(viewOf(ui({}), threads)).toEqual(DEFAULT_VIEW);
    expect(viewOf(ui({ thread: 'agent:a1', message: 7, request: 3 }), threads)).toMatchObject({
      thread: 'agent:a1',
      request: 3,
      selection: 7,
    });
    // A main thread that is not first must be named (the decoder falls back to the first thread).
    const swapped = [threads[1], threads[0]];
    expect(viewOf(ui({ message: 2 }), swapped).thread).toBe('main');
    // A probe is only focused inside an open compaction view.
    expect(viewOf(ui({ probe: 'summary.errors.lost.0' }), threads).probe).toBeNull();
    expect(restoreView(viewOf(ui({ ...FULL_UI }), threads), threads)).toEqual({ ...FULL_UI, warnings: [] });
  });

  it('restores a view, falling back per field with a warning each', () => {
    expect(restoreView({ ...DEFAULT_VIEW, request: 3, selection: 7 }, threads)).toMatchObject({
      thread: 'main',
      request: 3,
      message: 7,
      warnings: [],
    });
    const r = restoreView(
      { ...DEFAULT_VIEW, thread: 'agent:a1', request: 9, selection: 5, range: { from: 0, to: 9 } },
      threads,
    );
    expect(r).toMatchObject({ thread: 'agent:a1', request: null, message: 5, range: null });
    expect(r.warnings).toEqual([
      'view.request 9 is out of range (thread has 4); ignored',
      'view.range 0-9 is out of range (thread has 4); ignored',
    ]);
    const gone = restoreView({ ...DEFAULT_VIEW, thread: 'agent:zz', request: 1, selection: 1 }, threads);
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

const FULL_UI: UrlView = {
  thread: 'agent:a1',
  message: 7,
  request: 3,
  event: 12,
  detailTab: 'diff',
  compaction: 'agent:a1/agent/0',
  probe: 'summary.errors.lost.0',
  range: { from: 1, to: 3 },
  configTab: 'summarizer',
};

describe('history: push or replace', () => {
  const at = { doc: 1, table: false, thread: null, compaction: null, range: '' };
  it('pushes what a person goes Back to, replaces small moves', () => {
    // Another transcript, the table shown or left, another thread, a compaction view opened, a zoom.
    expect(pushWorthy(at, { ...at, doc: 2 })).toBe(true);
    expect(pushWorthy(at, { ...at, table: true })).toBe(true);
    expect(pushWorthy(at, { ...at, thread: 'agent:a1' })).toBe(true);
    expect(pushWorthy(at, { ...at, compaction: 'main/agent/0' })).toBe(true);
    expect(pushWorthy(at, { ...at, range: '3-9' })).toBe(true);
    // Closing the compaction view replaces (its close goes Back when its entry was pushed to open it).
    expect(pushWorthy({ ...at, compaction: 'main/agent/0' }, at)).toBe(false);
    expect(pushWorthy(at, at)).toBe(false);
    // The table's sort and filters replace.
    expect(pushWorthy({ ...at, table: true }, { ...at, table: true, thread: 'x' })).toBe(false);
  });
});
