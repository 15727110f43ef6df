// The view in the URL and in history (state/view-history.ts), installed once for the app: history steps load an
// entry's transcript again through use-startup.ts's loadDoc; a URL this page did not write (a link pasted into the
// address bar of an open tab changes only the fragment) opens like a start-up would.
import { useEffect } from 'react';
import { useStore } from '../../state/store.ts';
import { hasView, stateFromUrl } from '../../state/url-state.ts';
import { installViewHistory, shownFile } from '../../state/view-history.ts';
import { loadDoc, openShareLink } from './use-startup.ts';

/** A URL history stepped to without an entry of ours (typed or pasted; or an entry the browser emptied). */
function onForeign(href: string): void {
  const here = stateFromUrl(href);
  const s = useStore.getState();
  const view = hasView(href) ? { view: here.view, warnings: here.warnings } : undefined;
  const file = here.file ? shownFile(here.file) : null;
  if (here.share !== null && here.share !== s.transcript.doc?.link) void openShareLink(href, view);
  else if (file && file.id !== s.transcript.doc?.id) void loadDoc(file, { ...view, doc: file.id });
  else if (s.transcript.doc) s.viewActions.applyView(here.view);
}

export function useHistory(): void {
  useEffect(() => installViewHistory(loadDoc, onForeign), []);
}
