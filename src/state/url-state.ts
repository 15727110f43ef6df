// URL state (STYLE.md "State and URL"), pure: what the page URL carries (`?src=`, `#s=`) and how the app's
// settings and view map to and from a share link. The `#s=` value stays encoded here — the engine decodes it
// off the main thread with the versioned codec (src/share/codec.ts), so the transcript never reaches this
// thread. Writing leaves defaults out; restoring a view fails per field, with a warning for each.
import type { RunSettings, ShareView, ThreadInfo } from '../../worker/api.ts';
import { linkFor, PRESET_IDS, type PresetId, shareValue } from '../../worker/api.ts';
import type { RunChoice, ViewState } from './types.ts';

export type UrlState = {
  /** `?src=`: a same-origin file to open. */
  src: string | null;
  /** `#s=`: a share link's value (`1.<data>`), still encoded; '' when the fragment is `#s=` alone. */
  share: string | null;
};

/** The part of the view a link carries, in the app's terms. */
export type UrlView = Pick<ViewState, 'thread' | 'message' | 'request'>;

function parse(href: string): URL | null {
  try {
    return new URL(href);
  } catch {
    return null;
  }
}

/** What a page URL asks for. Never throws. */
export function stateFromUrl(href: string): UrlState {
  const u = parse(href);
  if (!u) return { src: null, share: null };
  const share = u.hash.length > 1 ? shareValue(u.hash) : null;
  return { src: u.searchParams.get('src'), share };
}

/** The page URL for a state: `href`'s origin, path and other query parameters, then `?src=` and `#s=`. */
export function urlFromState(href: string, state: UrlState): string {
  const u = parse(href);
  if (!u) return href;
  u.hash = '';
  if (state.src === null) u.searchParams.delete('src');
  else u.searchParams.set('src', state.src);
  const base = u.href.replace(/#$/, '');
  return state.share === null ? base : linkFor(state.share, base);
}

/** The thread a load opens on when nothing else is asked: the main thread, else the first. */
export function defaultThread(threads: readonly ThreadInfo[]): string | null {
  return (threads.find((t) => t.kind === 'main') ?? threads[0])?.id ?? null;
}

/** The view a link carries: the thread left out when it is the default one. */
export function shareViewOf(view: UrlView, threads: readonly ThreadInfo[]): ShareView {
  // The decoder resolves a missing thread to the first one; leave it out only when that is the same thread.
  const implicit = threads[0]?.id === view.thread && defaultThread(threads) === view.thread;
  return { thread: implicit ? null : view.thread, request: view.request, selection: view.message };
}

/** A link's view on the threads that loaded: an unknown thread or an index out of range falls back (first
 *  thread, nothing selected) with a warning each. */
export function restoreView(view: ShareView, threads: readonly ThreadInfo[]): UrlView & { warnings: string[] } {
  const warnings: string[] = [];
  const fallback = defaultThread(threads) ?? 'main';
  const th = view.thread === null ? threads.find((t) => t.id === fallback) : threads.find((t) => t.id === view.thread);
  if (!th) {
    warnings.push(`view.thread "${view.thread}" is not in the transcript; showing the first thread`);
    return { thread: fallback, message: null, request: null, warnings };
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
  return { thread: th.id, message, request, warnings };
}

/** The settings a run (and a link) uses. */
export function settingsOf(c: RunChoice): RunSettings {
  return { preset: c.preset, config: c.config, mode: c.mode, provider: c.provider, encoding: c.encoding };
}

/** The run settings restored from a link; null for a preset this build does not know. */
export function configOf(s: RunSettings): RunChoice | null {
  if (!PRESET_IDS.includes(s.preset as PresetId)) return null;
  return { preset: s.preset as PresetId, config: s.config, mode: s.mode, provider: s.provider, encoding: s.encoding };
}
