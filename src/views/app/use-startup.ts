// On start: load `?src=` (same-origin only) when given, else the default bundled sample.
import { useEffect } from 'react';
import { useStore } from '../../state/store.ts';

export const DEFAULT_SAMPLE = 'story-37-1';

export function sampleUrl(id: string): string {
  return `${import.meta.env.BASE_URL}samples/${id}.tierscope.json`;
}

/** A `?src=` value is accepted only when it resolves to this origin (nothing leaves the origin). */
export function sameOriginSrc(src: string, base: string): string | null {
  try {
    const u = new URL(src, base);
    return u.origin === new URL(base).origin ? u.href : null;
  } catch {
    return null;
  }
}

export function useStartup(): void {
  useEffect(() => {
    const { transcriptActions } = useStore.getState();
    if (useStore.getState().transcript.status !== 'idle') return;
    const src = new URLSearchParams(window.location.search).get('src');
    if (src) {
      const url = sameOriginSrc(src, window.location.href);
      if (url) void transcriptActions.loadUrl(url, { kind: 'url', name: src });
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
    void transcriptActions.loadUrl(sampleUrl(DEFAULT_SAMPLE), { kind: 'sample', name: DEFAULT_SAMPLE });
  }, []);
}
