// The view in the page URL and in history (SPEC §6 "View state"): one subscriber writes the URL whenever what is
// on screen changes — pushState for a change a person would want Back for (`pushWorthy`), replaceState for small
// moves — and a history step (Back, Forward, a fragment typed into the address bar) shows its entry again: its
// view on the transcript on screen, or its transcript loaded again first (the entry holds how: `Entry.doc`).
// A reload reads the same URL and entry (use-startup.ts). Nothing is written while a load is under way: the URL
// names what is on screen. Files opened from the computer are held here for the page's life (Back and Forward load
// them from here): Chromium drops an entry's whole state when it holds a File and history steps to it, but keeps it
// across a reload — so the entry on screen gets its files only as the page unloads (`beforeunload`), and a reload
// opens the same file again. A share link too long for the page URL (`URL_LINK_MAX`) is kept in this tab's
// sessionStorage and the URL names it by a key (`#link=`).
import type { TableView, View } from '../protocol/index.ts';
import { DEFAULT_VIEW } from '../protocol/index.ts';
import { tableOf, useFolder } from './folder.ts';
import { useStore } from './store.ts';
import type { Opened, Restore } from './types.ts';
import { stateFromUrl, urlFromState, viewOf } from './url-state.ts';

/** What a history entry holds beside its URL: the load it shows (with what loading it again needs), the folder
 *  whose table it shows (its scan token), and the compaction view it was pushed to open (closing that view goes
 *  Back rather than leaving an entry behind that looks the same as the one before it). */
export type Entry = { tierscope: 1; doc: Opened | null; folder: number | null; opened?: string };

export function entryOf(state: unknown): Entry | null {
  const e = state as Partial<Entry> | null;
  if (e?.tierscope !== 1) return null;
  const out: Entry = { tierscope: 1, doc: e.doc ?? null, folder: e.folder ?? null };
  if (typeof e.opened === 'string') out.opened = e.opened;
  return out;
}

/** What decides push or replace: the parts of the screen a person moves between. */
type Shown = { doc: number | null; table: boolean; thread: string | null; compaction: string | null; range: string };

/**
 * Push for a change a person would want Back for: another transcript (a file, a sample, a session of the table),
 * the sessions table shown or left, another thread, a compaction view opened (or another one), the timeline
 * zoomed to another range, or an explicit `pushNextView()` (a probe item's "go to its message", so Back returns
 * to the compaction view). Everything else replaces the entry: selecting a row or a request, j/k, the detail and
 * config tabs, focusing a probe item, the sessions table's sort and filters, closing a dialog.
 */
export function pushWorthy(was: Shown, now: Shown): boolean {
  return (
    was.doc !== now.doc ||
    was.table !== now.table ||
    (!now.table &&
      (was.thread !== now.thread ||
        (now.compaction !== null && was.compaction !== now.compaction) ||
        was.range !== now.range))
  );
}

function shownOf(view: View, table: TableView | undefined, doc: number | null): Shown {
  return {
    doc,
    table: table?.shown ?? false,
    thread: view.thread,
    compaction: view.compaction,
    range: view.range ? `${view.range.from}-${view.range.to}` : '',
  };
}

/** The page URL, entry and what decides push or replace for what is on screen now. */
function current(href: string): { url: string; entry: Entry; shown: Shown } {
  const s = useStore.getState();
  const f = useFolder.getState();
  const table = f.status === 'idle' ? undefined : tableOf(f);
  if (s.transcript.doc) shownDocs.set(s.transcript.doc.id, s.transcript.doc);
  // The sessions table names its folder only: the transcript behind it is not on screen.
  const doc = table?.shown ? null : s.transcript.doc;
  const view = doc ? viewOf(s.view, s.transcript.summary?.threads ?? []) : DEFAULT_VIEW;
  const kind = doc?.source.kind;
  const long = doc?.link && doc.link.length > URL_LINK_MAX ? keepLink(doc.link) : null;
  const url = urlFromState(href, {
    src: kind === 'url' ? (doc?.source.name ?? null) : null,
    share: long ? null : (doc?.link ?? null),
    link: long,
    sample: kind === 'sample' ? doc?.source.name : null,
    // A file from this computer cannot ride in a URL: its name says what the view is of (the entry holds the file).
    file:
      kind === 'file' || kind === 'paste' || (kind === 'session' && !f.served)
        ? (doc?.source.name.split('/').pop() ?? null)
        : null,
    folder: f.status !== 'idle' && f.served,
    view,
    table,
  });
  // History entries hold what loads the transcript again, never the files themselves (see the top of this file).
  // A long link is named by its key (`@<key>`, keptLink) so that no entry holds it either.
  const held = doc && (doc.files !== null || long) ? { ...doc, files: null, link: long ? `@${long}` : doc.link } : doc;
  return {
    url,
    entry: { tierscope: 1, doc: held, folder: table ? f.token : null },
    shown: shownOf(view, table, doc?.id ?? null),
  };
}

/** Share links longer than this stay out of the page URL: Chromium copies an entry's whole URL on every history
 *  write (measured here: ~18 ms for a 300 KB URL, ~0.5 s for 1.5 MB, each time a row is selected). */
const URL_LINK_MAX = 256 * 1024;
const LINK_KEY = 'tierscope.link.';

/** A short key for a long link value (FNV-1a over its characters, and its length). */
function linkKey(value: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) h = Math.imul(h ^ value.charCodeAt(i), 0x01000193) >>> 0;
  return `${h.toString(16).padStart(8, '0')}${value.length.toString(36)}`;
}

/** Long links seen in this page, by key (sessionStorage holds them for a reload of this tab). */
const longLinks = new Map<string, string>();

function keepLink(value: string): string {
  const key = linkKey(value);
  if (longLinks.has(key)) return key;
  longLinks.set(key, value);
  try {
    window.sessionStorage.setItem(LINK_KEY + key, value);
  } catch {
    // Storage full or off: Back and Forward still find it in this page; a reload says it is gone.
  }
  return key;
}

/** A long link by the key the URL names (this page, or this tab's storage after a reload); null when gone. */
export function keptLink(key: string): string | null {
  const known = longLinks.get(key);
  if (known !== undefined) return known;
  try {
    return window.sessionStorage.getItem(LINK_KEY + key);
  } catch {
    return null;
  }
}

/** Every load shown in this page's life, by id, with its files (references to the user's files, not copies).
 *  Bound: the loads of one page. */
const shownDocs = new Map<number, Opened>();

/** The load a history entry names, with its files when this page still holds them. */
function withFiles(doc: Opened): Opened {
  return shownDocs.get(doc.id) ?? doc;
}

/** The last load of a file of this name (a URL stepped to whose entry lost its state), if any. */
export function shownFile(name: string): Opened | null {
  let found: Opened | null = null;
  for (const d of shownDocs.values()) if (d.files && d.source.name.split('/').pop() === name) found = d;
  return found;
}

let last: Shown | null = null;
/** The store and folder objects the last write saw: unchanged, nothing to write (runs and progress come often). */
let seen: readonly unknown[] = [];
let pushNext = false;
/** Set while a history step is shown: what it changes is written by replacing (never pushed over Forward). */
let stepping = false;

/** The next view change gets its own history entry even when it would only replace (see pushWorthy). */
export function pushNextView(): void {
  pushNext = true;
}

let timer: ReturnType<typeof setTimeout> | undefined;

/** Write on the next task, once for every change made meanwhile: a store update (a run's result arriving, a load
 *  shown) is not made longer by the history write it causes. */
function scheduleWrite(): void {
  timer ??= setTimeout(flush, 0);
}

/** Write now what is scheduled (a history step writes its own entry before it ends). */
function flush(): void {
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
  write();
}

function write(): void {
  const s = useStore.getState();
  const f = useFolder.getState();
  if (s.transcript.status === 'loading' || f.status === 'scanning' || f.opening) return;
  if (!s.transcript.doc && f.status === 'idle') return;
  const objects = [s.view, s.transcript.doc, s.transcript.summary, f.shown, f.opened, f.query, f.token, f.served];
  if (!stepping && !pushNext && objects.every((x, i) => x === seen[i])) return;
  seen = objects;
  const now = current(window.location.href);
  const entry = entryOf(window.history.state);
  const was = last;
  last = now.shown;
  const same = now.url === window.location.href && entry?.doc?.id === now.entry.doc?.id;
  // A page's first entry (no entry of ours yet) is replaced: the URL it was opened with becomes the view's.
  const push = !stepping && entry !== null && was !== null && (pushNext || pushWorthy(was, now.shown));
  pushNext = false;
  const opens = now.shown.compaction ?? undefined;
  // A pushed entry marks the compaction view it opens; a replace keeps that mark while the view stays open.
  const opened = push ? (was?.compaction !== opens ? opens : undefined) : entry?.opened === opens ? opens : undefined;
  if (opened !== undefined) now.entry.opened = opened;
  // The URL is passed only when it changes: an entry written with its own URL again costs as much as a new one.
  const url = now.url === window.location.href ? undefined : now.url;
  if (push) window.history.pushState(now.entry, '', now.url);
  else if (!same || entry === null || entry.opened !== opened || entry.doc?.files)
    window.history.replaceState(now.entry, '', url);
}

/** As the page unloads (a reload, another site), the entry on screen takes its files along, so the page that
 *  comes back to it opens them again (use-startup.ts). */
function keepFiles(): void {
  const entry = entryOf(window.history.state);
  const doc = useStore.getState().transcript.doc;
  if (!entry || !doc?.files || entry.doc?.id !== doc.id) return;
  window.history.replaceState({ ...entry, doc }, '');
}

/** Close the compaction view: Back when its entry was pushed to open it (the entry before shows the same without
 *  it), else by replacing this entry (a view opened by a link or a reload). */
export function closeCompaction(): void {
  const open = useStore.getState().view.compaction;
  if (open === null) return;
  if (entryOf(window.history.state)?.opened === open) window.history.back();
  else useStore.getState().viewActions.openCompaction(null);
}

/** How a history entry's transcript is loaded again (views/app/use-history.ts: samples, links, files, sessions);
 *  false when it cannot be (the reason is noted beside what stays on screen). */
export type DocLoader = (doc: Opened, restore: Restore) => Promise<boolean>;

/** Show the entry history stepped to: its table, or its view on its transcript (loaded again when another one is
 *  on screen). */
async function step(entry: Entry, href: string, load: DocLoader): Promise<void> {
  const url = stateFromUrl(href);
  last = shownOf(url.view, entry.folder !== null ? url.table : undefined, entry.doc?.id ?? null);
  const f = useFolder.getState();
  stepping = true;
  try {
    if (entry.folder !== null && entry.folder !== f.token) {
      useStore.getState().viewActions.noteFailure({
        name: 'the sessions table',
        error: `That page showed the sessions of a folder that is no longer open (${f.rootName ? `${f.rootName} is` : 'another folder was'} opened since): open it again.`,
      });
    } else if (entry.folder !== null) await f.folderActions.applyTable(url.table);
    else if (f.shown) f.folderActions.show(false);
    if (url.table.shown && entry.folder !== null) return;
    const doc = entry.doc && withFiles(entry.doc);
    const s = useStore.getState();
    if (!doc || s.transcript.doc?.id === doc.id) {
      s.viewActions.applyView(url.view);
      return;
    }
    if (!(await load(doc, { view: url.view, warnings: url.warnings, doc: doc.id }))) return;
  } finally {
    flush();
    stepping = false;
  }
}

/** Write the URL as the screen changes and show history steps; returns the uninstaller. `onForeign`: a URL
 *  history stepped to that this page did not write (a link pasted into the address bar). */
export function installViewHistory(load: DocLoader, onForeign: (href: string) => void): () => void {
  const unsubscribe = [useStore.subscribe(scheduleWrite), useFolder.subscribe(scheduleWrite)];
  let handled = '';
  const onStep = () => {
    const href = window.location.href;
    if (href === handled) return; // popstate and hashchange both report one step
    handled = href;
    const entry = entryOf(window.history.state);
    if (entry) void step(entry, href, load);
    else onForeign(href);
  };
  window.addEventListener('popstate', onStep);
  window.addEventListener('hashchange', onStep);
  window.addEventListener('beforeunload', keepFiles);
  flush();
  return () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    for (const u of unsubscribe) u();
    window.removeEventListener('popstate', onStep);
    window.removeEventListener('hashchange', onStep);
    window.removeEventListener('beforeunload', keepFiles);
  };
}
