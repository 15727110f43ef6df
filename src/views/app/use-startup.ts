// On start: open a share link (`#s=…`, also when pasted into an open tab), else load `?src=` (same-origin
// only) when given, else the default bundled sample with its settings — or, with `?folder=1` (tierscope serve),
// the served folder's sessions instead (`&open=<path>`: and one of its files). Whatever the user opens meanwhile
// wins: these loads go ahead only while no other load has started (state/load-order.ts), and a reply overtaken by
// a newer load is dropped.
// Samples are listed in public/samples/index.json (written by scripts/gen-samples.ts); loading one applies
// its preset, config overrides, mode and provider over the log's defaults, so its first run uses them.
import { useEffect } from 'react';
import { useFolder } from '../../state/folder.ts';
import { openFollowed } from '../../state/follow.ts';
import { urlTail } from '../../state/growing-file.ts';
import { loadsSoFar } from '../../state/load-order.ts';
import { useStore } from '../../state/store.ts';
import type { SampleSettings } from '../../state/types.ts';
import { urlFileName } from '../../state/url-name.ts';
import { stateFromUrl } from '../../state/url-state.ts';

const DEFAULT_SAMPLE = 'story-37-1';

/** One entry of public/samples/index.json: the file and its own settings. */
export type SampleEntry = SampleSettings & {
  id: string;
  /** File name inside samples/. */
  file: string;
  title: string;
  description: string;
};

export type SampleManifest = { samples: SampleEntry[] };

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
export async function openSample(e: SampleEntry): Promise<void> {
  const { id, preset, set, mode, provider } = e;
  await useStore
    .getState()
    .transcriptActions.loadUrl(
      sampleUrl(e.file),
      { kind: 'sample', name: id },
      { sample: { id, preset, set, mode, provider } },
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
 *  the link names a bundled sample, loaded here; either way with the link's settings and view. */
async function openShareLink(href: string): Promise<void> {
  const { transcriptActions } = useStore.getState();
  const named = await transcriptActions.openLink(href);
  if (!named) return;
  const mark = loadsSoFar();
  const entry = (await loadManifest()).find((e) => e.id === named.sample);
  if (loadsSoFar() !== mark) return; // the user opened something meanwhile
  if (entry) {
    await transcriptActions.loadUrl(sampleUrl(entry.file), { kind: 'sample', name: entry.id }, named.restore);
    return;
  }
  useStore.setState((s) => ({
    transcript: {
      ...s.transcript,
      status: 'error',
      error: `This share link shows the bundled sample "${named.sample}", which this Tierscope does not have; ask for a link that carries the transcript.`,
      issues: [],
    },
  }));
}

export function useStartup(): void {
  useEffect(() => {
    // Opened by `tierscope serve` (`?folder=1`): its folder's sessions, listed by the server; `&open=`: one of its
    // files to open (`tierscope <file>`).
    const params = new URLSearchParams(window.location.search);
    if (params.get('folder') === '1' && useFolder.getState().status === 'idle')
      void useFolder.getState().folderActions.openServed(params.get('open') ?? undefined);
  }, []);
  useEffect(() => {
    // A link pasted into the address bar of an open tab changes only the fragment: open it as well.
    const onHash = () => {
      if (stateFromUrl(window.location.href).share !== null) void openShareLink(window.location.href);
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  useEffect(() => {
    const { transcriptActions } = useStore.getState();
    if (useStore.getState().transcript.status !== 'idle') return;
    if (stateFromUrl(window.location.href).share !== null) {
      void openShareLink(window.location.href);
      return;
    }
    // What the start-up opens by itself never replaces what the user opened while it was being fetched.
    const mark = loadsSoFar();
    const src = new URLSearchParams(window.location.search).get('src');
    if (src) {
      const url = sameOriginSrc(src, window.location.href);
      // A JSONL session is followed as it grows (the server must answer byte ranges: vite and tierscope serve do).
      if (url && /\.jsonl$/i.test(new URL(url).pathname))
        void openFollowed(
          {
            main: { name: urlFileName(new URL(url).pathname), tail: urlTail(url) },
            companions: [],
            source: { kind: 'url', name: src },
          },
          () => loadsSoFar() === mark,
        ).then((ok) => {
          if (!ok && loadsSoFar() === mark) void transcriptActions.loadUrl(url, { kind: 'url', name: src });
        });
      else if (url) void transcriptActions.loadUrl(url, { kind: 'url', name: src });
      else
        useStore.setState((s) => ({
          transcript: {
            ...s.transcript,
            status: 'error',
            error: `?src=${src} is not on this origin; Tierscope only fetches same-origin files.`,
            issues: [],
          },
        }));
      return;
    }
    // Opened on a served folder: the page is its sessions table; no sample behind it.
    if (new URLSearchParams(window.location.search).get('folder') === '1') return;
    // Mark loading right away so a second mount (StrictMode) does not start another load.
    useStore.setState((s) => ({ transcript: { ...s.transcript, status: 'loading' } }));
    void loadManifest().then((list) => {
      if (loadsSoFar() !== mark) return; // the user opened a file while the sample list was fetched
      const entry = list.find((e) => e.id === DEFAULT_SAMPLE) ?? list[0];
      if (entry) return openSample(entry);
      return transcriptActions.loadUrl(sampleUrl(`${DEFAULT_SAMPLE}.tierscope.json`), {
        kind: 'sample',
        name: DEFAULT_SAMPLE,
      });
    });
  }, []);
}
