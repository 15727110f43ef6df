// The share dialog's plumbing: what a link is built from (the settings and view on screen, the sample the
// transcript came from), the link for an engine reply on this page, the size policy, and the file download.
// The engine builds the encoded value; only the link string and plain previews cross to this thread.
import { useEffect, useState } from 'react';
import type { ShareLink, ShareReply, ShareRequest, View } from '../../protocol/index.ts';
import { classifyLink, type LinkSize, parseProbeKey } from '../../protocol/index.ts';
import { engine } from '../../state/engine-client.ts';
import type { AppState } from '../../state/types.ts';
import { settingsOf, urlFromState, viewOf } from '../../state/url-state.ts';

/** A share request for what is on screen (redaction still to choose). */
export function requestOf(s: AppState): Omit<ShareRequest, 'redact'> {
  const threads = s.transcript.summary?.threads ?? [];
  const source = s.transcript.source;
  return {
    settings: settingsOf(s.config),
    view: viewOf(s.view, threads),
    sample: source?.kind === 'sample' ? source.name : undefined,
  };
}

/** What a link's view shows, in words (the share dialog lists it). */
export function viewWords(v: View): string[] {
  const probe = v.probe === null ? null : parseProbeKey(v.probe);
  return [
    v.thread === null ? 'main thread' : `thread ${v.thread}`,
    ...(v.request !== null ? [`request ${v.request}`] : []),
    ...(v.selection !== null ? [`message ${v.selection}`] : []),
    ...(v.event !== null ? [`rewrite ${v.event}`] : []),
    ...(v.detail !== 'raw' ? [`${v.detail} tab`] : []),
    ...(v.range !== null ? [`requests ${v.range.from}–${v.range.to}`] : []),
    ...(v.compaction !== null ? [`compaction view ${v.compaction}`] : []),
    ...(probe
      ? [
          `focused: ${probe.kept ? 'kept' : 'lost'} ${probe.kind} #${probe.index + 1} (${probe.side === 'summary' ? 'its summary' : 'anchored summary'})`,
        ]
      : []),
    ...(v.config !== 'controls' ? [`config ${v.config} tab`] : []),
  ];
}

/** The link for an encoded share on this page (its own fragment and `?src=` dropped). */
function linkOf(encoded: string): string {
  return urlFromState(window.location.href, { src: null, share: encoded, folder: false });
}

export type Built = ShareLink & { link: string; size: LinkSize };

export function built(reply: ShareLink): Built {
  const link = linkOf(reply.encoded);
  return { ...reply, link, size: classifyLink(link) };
}

export type LinkState =
  | { status: 'working'; last?: Built }
  | { status: 'ready'; value: Built }
  | { status: 'error'; error: string };

/** Build a link in the engine whenever `key` changes; replies to an older key are dropped. */
export function useShareLink(req: ShareRequest, key: string): LinkState {
  const [state, setState] = useState<LinkState>({ status: 'working' });
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` names everything in `req` that can change
  useEffect(() => {
    let live = true;
    setState((s) => ({ status: 'working', last: s.status === 'ready' ? s.value : undefined }));
    engine()
      .share(req)
      .then((r: ShareReply) => {
        if (!live) return;
        setState(r.ok ? { status: 'ready', value: built(r) } : { status: 'error', error: r.error });
      })
      .catch((e: unknown) => {
        if (live) setState({ status: 'error', error: e instanceof Error ? e.message : String(e) });
      });
    return () => {
      live = false;
    };
  }, [key]);
  return state;
}

/** The name a share file gets: the transcript's file name, `.tierscope.json`. */
export function shareFileName(fileName: string | undefined, suffix = ''): string {
  const base = (fileName ?? 'transcript').replace(/\.(tierscope\.json|jsonl|json|traj)$/i, '') || 'transcript';
  return `${base}${suffix}.tierscope.json`;
}

/** Save text as a file through a temporary blob link (nothing leaves the page). */
export function downloadText(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
