// On start: what the page's history entry shows (a reload: its file, session or link again, open-entry.ts), else
// a share link (`#s=…`), else `?src=` (same-origin only), else `#sample=`, else the default bundled sample with
// its settings — each with the view the URL names; `?folder=1` (tierscope serve) opens the served folder's sessions
// instead of a sample (`&open=<path>`: and one of its files). Whatever the user opens meanwhile wins: the start-up's
// own loads go ahead only while no other load has started (state/load-order.ts), and a reply overtaken by a newer
// load is dropped. Samples are listed in public/samples/index.json (written by scripts/gen-samples.ts); loading one
// applies its preset, config overrides, mode and provider over the log's defaults, so its first run uses them.
import { useEffect } from 'react';
import type { SampleEntry, SampleManifest } from '../../protocol/index.ts';
import { linkFor } from '../../protocol/index.ts';
import { useFolder } from '../../state/folder.ts';
import { openFollowed } from '../../state/follow.ts';
import { urlTail } from '../../state/growing-file.ts';
import { loadsSoFar } from '../../state/load-order.ts';
import { useStore } from '../../state/store.ts';
import type { Opened, Restore } from '../../state/types.ts';
import { urlFileName } from '../../state/url-name.ts';
import { hasView, stateFromUrl } from '../../state/url-state.ts';
import { type Entry, entryOf, keptLink, shownFile } from '../../state/view-history.ts';

const DEFAULT_SAMPLE = 'story-37-1';

const base = () => import.meta.env.BASE_URL;

function sampleUrl(file: string): string {
  return `${base()}samples/${file}`;
}

let manifest: Promise<SampleEntry[]> | undefined;

/** The sample manifest (fetched once; [] when it is missing or malformed). */
export function loadManifest(): Promise<SampleEntry[]> {
  manifest ??= fetch(`${base()}samples/index.json`)
    .then((r) => (r.ok ? r.json() : { samples: [] }))
    .then((doc: unknown) => {
      const list = (doc as Partial<SampleManifest> | null)?.samples;
      return Array.isArray(list)
        ? list.filter((e): e is SampleEntry => typeof e?.id === 'string' && typeof e.file === 'string')
        : [];
    })
    .catch(() => []);
  return manifest;
}

/** Load a sample's file; its own settings apply over the log's defaults for this load only. */
export async function openSample(e: SampleEntry, restore?: Restore): Promise<void> {
  const { id, preset, set, mode, provider } = e;
  await useStore
    .getState()
    .transcriptActions.loadUrl(
      sampleUrl(e.file),
      { kind: 'sample', name: id },
      { ...restore, sample: { id, preset, set, mode, provider } },
    );
}

/** A `?src=` value is accepted only when it resolves to this origin (nothing leaves the origin). */
function sameOriginSrc(src: string, baseHref: string): string | null {
  try {
    const u = new URL(src, baseHref);
    return u.origin === new URL(baseHref).origin ? u.href : null;
  } catch {
    return null;
  }
}

/** Open a share link: the engine decodes it (off the main thread) and loads the transcript it carries, or
 *  the link names a bundled sample, loaded here; either way with the link's settings, and its view unless `over`
 *  brings another (the page URL's, a history entry's). */
async function openShareLink(href: string, over?: Restore): Promise<void> {
  const { transcriptActions } = useStore.getState();
  const named = await transcriptActions.openLink(href, over);
  if (!named) return;
  const mark = loadsSoFar();
  const entry = (await loadManifest()).find((e) => e.id === named.sample);
  if (loadsSoFar() !== mark) return; // the user opened something meanwhile
  if (entry) {
    await transcriptActions.loadUrl(sampleUrl(entry.file), { kind: 'sample', name: entry.id }, named.restore);
    return;
  }
  const error = `This share link shows the bundled sample "${named.sample}", which this Tierscope does not have; ask for a link that carries the transcript.`;
  // What is on screen stays (the link only failed to load), else the error takes the page.
  if (useStore.getState().transcript.summary)
    useStore.getState().viewActions.noteFailure({ name: 'the share link', error });
  else useStore.setState((s) => ({ transcript: { ...s.transcript, status: 'error', error, issues: [] } }));
}

/** Open `?src=` (same origin only): a JSONL session is followed as it grows (the server must answer byte ranges:
 *  vite and tierscope serve do), anything else is loaded once. */
async function openSrc(src: string, restore?: Restore): Promise<void> {
  const { transcriptActions } = useStore.getState();
  // What the start-up opens by itself never replaces what the user opened while it was being fetched.
  const mark = loadsSoFar();
  const url = sameOriginSrc(src, window.location.href);
  // A JSONL session is followed as it grows (the server must answer byte ranges: vite and tierscope serve do).
  if (url && /\.jsonl$/i.test(new URL(url).pathname)) {
    const ok = await openFollowed(
      {
        main: { name: urlFileName(new URL(url).pathname), tail: urlTail(url) },
        companions: [],
        source: { kind: 'url', name: src },
        restore,
      },
      () => loadsSoFar() === mark,
    );
    if (!ok && loadsSoFar() === mark) await transcriptActions.loadUrl(url, { kind: 'url', name: src }, restore);
  } else if (url) await transcriptActions.loadUrl(url, { kind: 'url', name: src }, restore);
  else
    useStore.setState((s) => ({
      transcript: {
        ...s.transcript,
        status: 'error',
        error: `?src=${src} is not on this origin; Tierscope only fetches same-origin files.`,
        issues: [],
      },
    }));
}

/**
 * Load a history entry's transcript again (Back or Forward to it, or a reload of its page) with the entry's view,
 * keeping its load id: a link by its value, a sample by id, `?src=` by URL, a dropped or picked file by the File
 * the entry holds (a reference to the user's file, kept by the browser across a reload), a session of an opened
 * folder from the folder (a served one is listed again after a reload; a picked or dropped one is gone after a
 * reload, and its session opens from its own files). False, with the reason named beside what stays on screen,
 * when it cannot be.
 */
export async function loadDoc(doc: Opened, restore: Restore): Promise<boolean> {
  const { transcriptActions, viewActions } = useStore.getState();
  const { kind, name } = doc.source;
  const gone = (error: string) => {
    viewActions.noteFailure({ name, error });
    return false;
  };
  if (doc.link !== null) {
    // A long link is named by its key (view-history.ts keeps it in the tab).
    const value = doc.link.startsWith('@') ? keptLink(doc.link.slice(1)) : doc.link;
    if (value === null) return gone('The share link it showed is no longer kept in this tab: open the link again.');
    await openShareLink(linkFor(value, window.location.href), restore);
  } else if (kind === 'sample') {
    const entry = (await loadManifest()).find((e) => e.id === name);
    if (!entry) return gone(`This Tierscope has no bundled sample "${name}".`);
    await openSample(entry, restore);
  } else if (kind === 'url') await openSrc(name, restore);
  else if (kind === 'session' && (await openSession(name, restore))) return true;
  else if (doc.files && doc.files.length > 0)
    await transcriptActions.loadFiles([...doc.files], doc.source, undefined, restore);
  else return gone('It was opened from a folder that is no longer open: open the folder again.');
  return useStore.getState().transcript.doc?.id === restore.doc;
}

/** A session of the opened folder, or of the served folder listed again (a reload); false when neither has it. */
async function openSession(path: string, restore: Restore): Promise<boolean> {
  const folder = useFolder.getState();
  if (folder.status === 'idle' && stateFromUrl(window.location.href).folder)
    await folder.folderActions.openServed(undefined, { ...stateFromUrl(window.location.href).table, shown: false });
  return useFolder.getState().folderActions.openPath(path, restore);
}

/** A reload of a picked or dropped folder's sessions table: the page cannot list that folder again by itself.
 *  Said once what is loaded meanwhile is on screen (a load clears older notes). */
async function noteFolderGone(): Promise<void> {
  await new Promise<void>((resolve) => {
    const done = (s: ReturnType<typeof useStore.getState>) =>
      s.transcript.status === 'ready' || s.transcript.status === 'error';
    if (done(useStore.getState())) return resolve();
    const stop = useStore.subscribe((s) => {
      if (!done(s)) return;
      stop();
      resolve();
    });
  });
  useStore.getState().viewActions.noteFailure({
    name: 'the sessions table',
    error:
      'a picked or dropped folder is handed to a page only when you pick or drop it, so a reload cannot list it again (nothing of it was kept): open the folder again.',
  });
}

export function useStartup(): void {
  useEffect(() => {
    // Opened by `tierscope serve` (`?folder=1`): its folder's sessions, listed by the server, with the table's
    // sort and filters the URL names (a session the URL names is opened by the entry below, or from the table);
    // `&open=`: one of its files to open (`tierscope <file>`).
    const here = stateFromUrl(window.location.href);
    const entry = entryOf(window.history.state);
    // The table is shown unless the URL names what else is on screen.
    const other = here.share !== null || here.link || here.sample || here.file || here.src || here.table.session;
    const table = { ...here.table, shown: here.table.shown || !other };
    const open = new URLSearchParams(window.location.search).get('open') ?? undefined;
    if (here.folder && useFolder.getState().status === 'idle' && entry?.doc?.source.kind !== 'session')
      void useFolder.getState().folderActions.openServed(open, table);
  }, []);
  useEffect(() => {
    if (useStore.getState().transcript.status !== 'idle') return;
    if (stateFromUrl(window.location.href).table.shown && !stateFromUrl(window.location.href).folder)
      void noteFolderGone();
    openFromUrl(window.location.href, entryOf(window.history.state));
  }, []);
}

/** Open what a URL (and its history entry, after a reload) names, with the view it names: the entry's load again
 *  (a dropped file rides in the entry across a reload), else a share link, `?src=`, `#sample=`, a file this page
 *  still holds, else (at start-up) the default sample. Start-up, and a URL typed or pasted into the tab's address
 *  bar (`typed`: a fragment naming no transcript is a view of the one on screen). */
export function openFromUrl(href: string, entry: Entry | null, typed = false): void {
  const here = stateFromUrl(href);
  const restore: Restore | undefined = hasView(here) ? { view: here.view, warnings: here.warnings } : undefined;
  if (entry?.doc) {
    void loadDoc(entry.doc, { ...restore, doc: entry.doc.id });
    return;
  }
  const long = here.link ? keptLink(here.link) : null;
  if (here.share !== null || long !== null) {
    void openShareLink(long !== null ? linkFor(long, href) : href, restore);
    return;
  }
  if (here.src) {
    void openSrc(here.src, restore);
    return;
  }
  const held = here.file ? shownFile(here.file) : null;
  if (held) {
    void loadDoc(held, { ...restore, doc: held.id });
    return;
  }
  if (here.file || here.link) {
    // A URL copied from a tab that showed a file from that computer: the file is not in it.
    const error = here.file
      ? `This address showed ${here.file}, a file opened from the computer it was on: a URL cannot carry a file (nothing is uploaded). Open the file, or ask for a share link.`
      : 'This address showed a share link too long for an address, kept only in the tab that opened it: open the link itself again.';
    const name = here.file ?? 'a share link';
    if (useStore.getState().transcript.summary) useStore.getState().viewActions.noteFailure({ name, error });
    else
      useStore.setState((s) => ({
        transcript: { ...s.transcript, status: 'error', source: { kind: 'file', name }, error, issues: [] },
      }));
    return;
  }
  if (typed && !here.sample) {
    if (restore && useStore.getState().transcript.doc) useStore.getState().viewActions.applyView(here.view);
    return;
  }
  // Opened on a served folder: the page is its sessions table; no sample behind it.
  if (here.folder) return;
  const mark = loadsSoFar();
  // Mark loading right away so a second mount (StrictMode) does not start another load.
  useStore.setState((s) => ({ transcript: { ...s.transcript, status: 'loading' } }));
  void loadManifest().then((list) => {
    if (loadsSoFar() !== mark) return; // the user opened a file while the sample list was fetched
    const named = here.sample ? list.find((e) => e.id === here.sample) : undefined;
    if (named) return openSample(named, restore);
    const first = list.find((e) => e.id === DEFAULT_SAMPLE) ?? list[0];
    if (first) return openSample(first);
    return useStore.getState().transcriptActions.loadUrl(sampleUrl(`${DEFAULT_SAMPLE}.tierscope.json`), {
      kind: 'sample',
      name: DEFAULT_SAMPLE,
    });
  });
}
