// The view in the URL and in history (state/view-history.ts), installed once for the app: history steps load an
// entry's transcript again through use-startup.ts's loadDoc; a URL this page did not write (a link pasted into the
// address bar of an open tab changes only the fragment) opens like a start-up would.
import { useEffect } from 'react';
import { installViewHistory } from '../../state/view-history.ts';
import { loadDoc, openFromUrl } from './use-startup.ts';

export function useHistory(): void {
  // A URL this page did not write (typed or pasted into the address bar) opens as a start-up would.
  useEffect(() => installViewHistory(loadDoc, (href) => openFromUrl(href, null, true)), []);
}
