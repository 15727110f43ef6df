// Following a session that grows (SPEC §6: a session opened from `tierscope serve`): once a second, while the tab
// is visible, ask the server for the bytes from the last one held (an HTTP byte range), keep a last line that has no
// end yet until its end arrives, and when whole lines were added read the session again with its settings and
// selection kept. Hidden tab: paused (no requests), resumed on return. The bytes are held as a Blob of the parts
// fetched (nothing copied); the engine keeps the lines it parsed (HeldLines), so a growth reads and parses only the
// appended bytes. What re-runs on each growth: the session's assembly from its parsed lines, the replay and the timeline.
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
        let held = new Blob([first]);
        let last = first[first.length - 1];
        let complete = completeEnd(first);
        /** Where the lines the engine last read end. */
        let read = complete;
        /** The file was replaced or cut short since the last read: the next read starts over. */
        let replaced = false;
        let timer: ReturnType<typeof setTimeout> | undefined;
        let busy = false;
        let stopped = false;
        const show = () => set({ bytes: complete, waiting: held.size - complete });

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
            const from = Math.max(0, held.size - 1);
            const res = await fetch(target.url, { headers: { Range: `bytes=${from}-` }, cache: 'no-store' });
            const body = new Uint8Array(await res.arrayBuffer());
            if (res.status === 206 && held.size > 0 && body[0] === last) {
              if (body.length > 1) {
                const added = body.subarray(1);
                const nl = added.lastIndexOf(10);
                if (nl >= 0) complete = held.size + nl + 1;
                held = new Blob([held, added]);
                last = added[added.length - 1];
              }
            } else if (res.status === 200 || res.status === 206 || res.status === 416) {
              // The file was replaced or cut short (or was empty): start over from what it holds now.
              const whole =
                res.status === 200
                  ? body
                  : new Uint8Array(await (await fetch(target.url, { cache: 'no-store' })).arrayBuffer());
              held = new Blob([whole]);
              last = whole[whole.length - 1];
              complete = completeEnd(whole);
              replaced = true;
            }
            if (!stopped && complete > 0 && (replaced || complete !== read)) {
              const appended = !replaced;
              read = complete;
              replaced = false;
              set({ lastLineAt: Date.now() });
              const file = new File([held.slice(0, complete)], target.name);
              await useStore
                .getState()
                .transcriptActions.reloadGrown([file, ...target.companions], target.source, appended);
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
  await useStore.getState().transcriptActions.loadFiles([main, ...target.companions], target.source, 'start');
  follow.start(target, bytes);
  return true;
}
