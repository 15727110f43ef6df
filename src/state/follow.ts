// Following a session that grows (SPEC §6: a session opened from `tierscope serve`): once a second, while the tab
// is visible, ask the server for the bytes from the last one held (an HTTP byte range), keep a last line that has no
// end yet until its end arrives, and when whole lines were added read the session again with its settings and
// selection kept. Hidden tab: paused (no requests), resumed on return. Each read parses the whole session again;
// only the appended bytes cross the network.
import { create } from 'zustand';
import { useStore } from './store.ts';
import type { LoadSource } from './types.ts';

const POLL_MS = 1000;

export type FollowTarget = { url: string; name: string; companions: File[]; source: LoadSource };

export type FollowState = {
  state: 'off' | 'live' | 'paused';
  /** When the last complete line arrived (epoch ms), or null before any did while following. */
  lastLineAt: number | null;
  /** Bytes held (complete lines) and waiting (a last line without its end yet). */
  bytes: number;
  waiting: number;
  followActions: { start(target: FollowTarget, first: Uint8Array<ArrayBuffer>): void; stop(): void };
};

/** Where the complete lines of `bytes` end (after the last line feed). */
function completeEnd(bytes: Uint8Array): number {
  return bytes.lastIndexOf(10) + 1;
}

export const useFollow = create<FollowState>()((set, get) => {
  let stopCurrent: (() => void) | null = null;

  return {
    state: 'off',
    lastLineAt: null,
    bytes: 0,
    waiting: 0,
    followActions: {
      start(target, first) {
        stopCurrent?.();
        let held = first;
        let complete = completeEnd(held);
        let timer: ReturnType<typeof setTimeout> | undefined;
        let busy = false;
        let stopped = false;
        const show = () => set({ bytes: complete, waiting: held.length - complete });

        const tick = async () => {
          timer = undefined;
          if (stopped || busy) return;
          // Another file was opened since: this session is no longer on screen.
          const now = useStore.getState().transcript.source;
          if (now?.kind !== target.source.kind || now.name !== target.source.name) {
            get().followActions.stop();
            return;
          }
          if (document.visibilityState === 'hidden') {
            set({ state: 'paused' });
            return; // resumed by visibilitychange
          }
          busy = true;
          try {
            // From the last byte held, not after it: the range is never empty (no 416 when nothing was added),
            // and that byte tells whether the file is still the one held.
            const from = Math.max(0, held.length - 1);
            const res = await fetch(target.url, { headers: { Range: `bytes=${from}-` }, cache: 'no-store' });
            const body = new Uint8Array(await res.arrayBuffer());
            if (res.status === 206 && held.length > 0 && body[0] === held[held.length - 1]) {
              if (body.length > 1) {
                const next = new Uint8Array(held.length + body.length - 1);
                next.set(held);
                next.set(body.subarray(1), held.length);
                held = next;
              }
            } else if (res.status === 200 || res.status === 206 || res.status === 416) {
              // The file was replaced or cut short (or was empty): start over from what it holds now.
              held =
                res.status === 200
                  ? body
                  : new Uint8Array(await (await fetch(target.url, { cache: 'no-store' })).arrayBuffer());
              complete = 0;
            }
            const end = completeEnd(held);
            if (!stopped && end !== complete) {
              complete = end;
              set({ lastLineAt: Date.now() });
              const file = new File([held.subarray(0, complete)], target.name);
              await useStore.getState().transcriptActions.reloadGrown([file, ...target.companions], target.source);
            }
            show();
          } catch {
            // The server went away: keep what is shown and try again on the next tick.
          } finally {
            busy = false;
            if (!stopped && get().state === 'live') timer = setTimeout(() => void tick(), POLL_MS);
          }
        };
        const onVisibility = () => {
          if (stopped) return;
          if (document.visibilityState === 'hidden') {
            if (timer) clearTimeout(timer);
            timer = undefined;
            set({ state: 'paused' });
          } else if (get().state !== 'live') {
            set({ state: 'live' });
            void tick();
          }
        };
        document.addEventListener('visibilitychange', onVisibility);
        stopCurrent = () => {
          stopped = true;
          if (timer) clearTimeout(timer);
          document.removeEventListener('visibilitychange', onVisibility);
        };
        set({ state: document.visibilityState === 'hidden' ? 'paused' : 'live', lastLineAt: null });
        show();
        if (get().state === 'live') timer = setTimeout(() => void tick(), POLL_MS);
      },
      stop() {
        stopCurrent?.();
        stopCurrent = null;
        set({ state: 'off', lastLineAt: null, bytes: 0, waiting: 0 });
      },
    },
  };
});

/** Open a same-origin JSONL session (served by `tierscope serve`, or `?src=`) up to its last complete line and
 *  follow it; false when it could not be fetched. */
export async function openFollowed(target: FollowTarget): Promise<boolean> {
  const follow = useFollow.getState().followActions;
  follow.stop();
  const res = await fetch(target.url, { cache: 'no-store' });
  if (!res.ok) return false;
  const bytes = new Uint8Array(await res.arrayBuffer());
  const end = completeEnd(bytes);
  const main = new File([bytes.subarray(0, end > 0 ? end : bytes.length)], target.name);
  await useStore.getState().transcriptActions.loadFiles([main, ...target.companions], target.source);
  follow.start(target, bytes);
  return true;
}
