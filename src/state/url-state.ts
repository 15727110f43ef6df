// URL state (STYLE.md "State and URL"), pure: what the page URL carries — what is loaded (`?src=`, `#s=`,
// `#sample=`, `#file=`, `#link=`, `?folder=1`) and the view, in the one encoding of src/share/view.ts, beside them in the
// fragment — and how the app's view maps to and from it. The `#s=` value stays encoded here: the engine decodes
// share links off the main thread (src/share/codec.ts), so the transcript never reaches this thread. Writing
// leaves defaults out; restoring a view fails per field, with a warning for each.
import type { RunSettings, TableView, ThreadInfo, View } from '../protocol/index.ts';
import {
  DEFAULT_TABLE,
  DEFAULT_VIEW,
  fragmentPairs,
  isPresetId,
  pairsText,
  readViewPairs,
  shareValue,
  viewPairs,
} from '../protocol/index.ts';
import type { RunChoice, ViewState } from './types.ts';

export type UrlState = {
  /** `?src=`: a same-origin file to open. */
  src: string | null;
  /** `#s=`: a share link's value (`1.<data>`), still encoded; '' when the fragment is `#s=` alone. */
  share: string | null;
  /** `#sample=`: a bundled sample by id. */
  sample?: string | null;
  /** `#file=`: the name of a file opened from this computer (the file itself cannot ride in a URL). */
  file?: string | null;
  /** `#link=`: the key of a share link too long to keep in the page URL (view-history.ts keeps it in the tab). */
  link?: string | null;
  /** `?folder=1`: the folder `tierscope serve` serves. */
  folder?: boolean;
  view?: View;
  table?: TableView;
};

/** The part of the view that maps one to one onto the app's view state. */
export type UrlView = Pick<
  ViewState,
  'thread' | 'message' | 'request' | 'event' | 'detailTab' | 'compaction' | 'probe' | 'range' | 'configTab'
>;

function parse(href: string): URL | null {
  try {
    return new URL(href);
  } catch {
    return null;
  }
}

/** What a page URL asks for, with its view's warnings. Never throws. */
export function stateFromUrl(href: string): Required<UrlState> & { warnings: string[] } {
  const u = parse(href);
  const none = { src: null, share: null, sample: null, file: null, link: null, folder: false };
  if (!u) return { ...none, view: { ...DEFAULT_VIEW }, table: { ...DEFAULT_TABLE }, warnings: [] };
  const pairs = fragmentPairs(u.hash);
  const share = u.hash.length > 1 ? shareValue(u.hash) : null;
  const one = (k: string) => pairs.find(([key]) => key === k)?.[1];
  const text = (k: string) => {
    const v = one(k);
    if (v === undefined || v === '') return null;
    try {
      return decodeURIComponent(v);
    } catch {
      return v;
    }
  };
  const read = readViewPairs(pairs.filter(([k]) => k !== 's'));
  return {
    src: u.searchParams.get('src'),
    share,
    sample: text('sample'),
    file: text('file'),
    link: text('link'),
    folder: u.searchParams.get('folder') === '1',
    view: read.view,
    table: read.table,
    warnings: read.warnings,
  };
}

/** Whether a page URL (read by stateFromUrl) names a view at all (a share link with view pairs beside `s=` opens on
 *  them rather than on the view inside the link). */
export function hasView(state: Pick<UrlState, 'view'>): boolean {
  return viewPairs(state.view ?? DEFAULT_VIEW).length > 0;
}

/** The page URL for a state: `href`'s origin, path and other query parameters, then `?src=` (and `?folder=1`),
 *  then the fragment: `s=`, `sample=` or `file=`, and the view. */
export function urlFromState(href: string, state: UrlState): string {
  const u = parse(href);
  if (!u) return href;
  u.hash = '';
  if (state.src === null) u.searchParams.delete('src');
  else u.searchParams.set('src', state.src);
  if (state.folder !== undefined) {
    if (state.folder) u.searchParams.set('folder', '1');
    else u.searchParams.delete('folder');
  }
  const base = u.href.replace(/#$/, '');
  const pairs: [string, string][] = [];
  if (state.share !== null) pairs.push(['s', state.share]);
  else if (state.sample) pairs.push(['sample', state.sample]);
  else if (state.link) pairs.push(['link', state.link]);
  else if (state.file) pairs.push(['file', state.file]);
  for (const p of viewPairs(state.view ?? DEFAULT_VIEW, state.table)) pairs.push(p);
  return pairs.length === 0 ? base : `${base}#${pairsText(pairs)}`;
}

/** The thread a load opens on when nothing else is asked: the main thread, else the first. */
export function defaultThread(threads: readonly ThreadInfo[]): string | null {
  return (threads.find((t) => t.kind === 'main') ?? threads[0])?.id ?? null;
}

/** The app's view as a link and the URL carry it: the thread left out when it is the default one. */
export function viewOf(v: UrlView, threads: readonly ThreadInfo[]): View {
  // The decoder resolves a missing thread to the first one; leave it out only when that is the same thread.
  const implicit = threads[0]?.id === v.thread && defaultThread(threads) === v.thread;
  return {
    thread: implicit ? null : v.thread,
    request: v.request,
    selection: v.message,
    event: v.event,
    detail: v.detailTab,
    compaction: v.compaction,
    probe: v.compaction === null ? null : v.probe,
    range: v.range,
    config: v.configTab,
  };
}

/** A link's or URL's view on the threads that loaded: an unknown thread or an index out of range falls back
 *  (first thread, nothing selected) with a warning each. Compaction ids and events are checked by the views
 *  that show them (they exist once the first run is done). */
export function restoreView(view: View, threads: readonly ThreadInfo[]): UrlView & { warnings: string[] } {
  const warnings: string[] = [];
  const fallback = defaultThread(threads) ?? 'main';
  const th = view.thread === null ? threads.find((t) => t.id === fallback) : threads.find((t) => t.id === view.thread);
  const rest = {
    event: view.event,
    detailTab: view.detail,
    compaction: view.compaction,
    probe: view.probe,
    configTab: view.config,
  };
  if (!th) {
    warnings.push(`view.thread "${view.thread}" is not in the transcript; showing the first thread`);
    return { ...rest, thread: fallback, message: null, request: null, range: null, event: null, warnings };
  }
  let request = view.request;
  if (request !== null && request >= th.requests) {
    warnings.push(`view.request ${request} is out of range (thread has ${th.requests}); ignored`);
    request = null;
  }
  let message = view.selection;
  if (message !== null && message >= th.messages) {
    warnings.push(`view.selection ${message} is out of range (thread has ${th.messages}); ignored`);
    message = null;
  }
  let range = view.range;
  if (range !== null && range.to >= th.requests) {
    warnings.push(`view.range ${range.from}-${range.to} is out of range (thread has ${th.requests}); ignored`);
    range = null;
  }
  return { ...rest, thread: th.id, message, request, range, warnings };
}

/** The settings a run (and a link) uses. */
export function settingsOf(c: RunChoice): RunSettings {
  return { preset: c.preset, config: c.config, mode: c.mode, provider: c.provider, encoding: c.encoding };
}

/** The run settings restored from a link; null for a preset this build does not know. */
export function configOf(s: RunSettings): RunChoice | null {
  if (!isPresetId(s.preset)) return null;
  return { preset: s.preset, config: s.config, mode: s.mode, provider: s.provider, encoding: s.encoding };
}
