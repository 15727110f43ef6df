// Following a session that grows (SPEC §6: a session opened from `tierscope serve`, from the folder picker, or with
// `?src=`): once a second, while the tab is visible, read what was added to the session and to its sub-agent files,
// and every few seconds look for new sub-agent files (growing-file.ts: a byte range, or the file handle read again;
// a last line without its end waits for it); when whole lines were added, read the session again with its settings
// and selection kept. Hidden tab: paused (no reads), resumed on return. The engine keeps the files' parsed lines
// (HeldLines), so a growth parses only its appended bytes, and carries its run over: the session is assembled
// again (its unchanged objects kept), a grown thread's replay goes on with its new requests (replay/resume.ts).
import { create } from 'zustand';
import { type FileTail, GrowingFile } from './growing-file.ts';
import { useStore } from './store.ts';
import type { LoadSource, Restore } from './types.ts';

const POLL_MS = 1000;

/** A followed file: the name the parser sees it under, and where its bytes come from. */
type FollowedFile = { name: string; tail: FileTail };
/** Files of the session that appeared since it was opened (a sub-agent started), given the names followed. */
type Discover = (known: ReadonlySet<string>) => Promise<FollowedFile[]>;
export type FollowTarget = {
  main: FollowedFile;
  companions: FollowedFile[];
  source: LoadSource;
  discover?: Discover;
  /** The view to open on (a history entry, a reload). */
  restore?: Restore;
};

/** New sub-agent files are looked for every this many polls (a listing costs more than a byte range). */
const DISCOVER_EVERY = 3;

export type FollowState = {
  state: 'off' | 'live' | 'paused';
  /** When the last complete line arrived (epoch ms), or null before any did while following. */
  lastLineAt: number | null;
  /** Bytes held of the main file (complete lines), and waiting in any of the session's files (a last line without
   *  its end yet). */
  bytes: number;
  waiting: number;
  followActions: { start(source: LoadSource, files: GrowingFile[], discover?: Discover): void; stop(): void };
};

export const useFollow = create<FollowState>()((set, get) => {
  let stopCurrent: (() => void) | null = null;

  return {
    state: 'off',
    lastLineAt: null,
    bytes: 0,
    waiting: 0,
    followActions: {
      start(source, files, discover) {
        stopCurrent?.();
        const main = files[0];
        let polls = 0;
        let timer: ReturnType<typeof setTimeout> | undefined;
        let busy = false;
        let stopped = false;
        const show = () => set({ bytes: main.bytes, waiting: files.reduce((n, f) => n + f.waiting, 0) });

        const tick = async () => {
          timer = undefined;
          if (stopped || busy) return;
          // Another file was opened since: this session is no longer on screen.
          const now = useStore.getState().transcript.source;
          if (now?.kind !== source.kind || now.name !== source.name) {
            get().followActions.stop();
            return;
          }
          if (document.visibilityState === 'hidden') {
            set({ state: 'paused' });
            return; // resumed by visibilitychange
          }
          busy = true;
          try {
            if (discover && polls++ % DISCOVER_EVERY === DISCOVER_EVERY - 1) {
              // Followed from empty: its first poll reads its complete lines.
              const found = await discover(new Set(files.map((f) => f.name))).catch(() => []);
              for (const f of found) files.push(new GrowingFile(f.name, f.tail, new Uint8Array()));
            }
            // A file that cannot be read now (the server went away, a sub-agent file removed) counts as unchanged.
            const polled = await Promise.allSettled(files.map((f) => f.poll()));
            if (!stopped && polled.some((p) => p.status === 'fulfilled' && p.value)) {
              set({ lastLineAt: Date.now() });
              const taken = files.map((f) => f.take());
              await useStore.getState().transcriptActions.reloadGrown(
                // A new sub-agent file without a whole line yet is not sent.
                taken.filter((t, i) => i === 0 || t.file.size > 0).map((t) => t.file),
                source,
                taken[0].appended,
              );
            }
            show();
          } catch {
            // The engine stopped: keep what is shown and try again on the next tick.
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

/** Open a session up to the last complete line of each of its files and follow it; false when a file could not
 *  be read. `wanted` is asked once the files are read: false (the user opened something else meanwhile) leaves it. */
export async function openFollowed(target: FollowTarget, wanted = () => true): Promise<boolean> {
  const follow = useFollow.getState().followActions;
  follow.stop();
  let files: GrowingFile[];
  try {
    files = await Promise.all(
      [target.main, ...target.companions].map(async (f) => new GrowingFile(f.name, f.tail, await f.tail.whole())),
    );
  } catch {
    return false;
  }
  if (!wanted()) return true;
  await useStore.getState().transcriptActions.loadFiles(
    files.map((f) => f.opening()),
    target.source,
    'start',
    target.restore,
  );
  follow.start(target.source, files, target.discover);
  return true;
}
