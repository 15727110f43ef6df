// What the UI knows about the engine worker itself: running, or stopped (crashed, out of memory, closed;
// see engine-watch.ts). A stop turns a load or run in progress into a plain error instead of a spinner that
// never ends, and Retry starts a fresh worker and loads the last input again. A stop during a load (a file too big
// for this browser's memory) comes with a smaller file-size limit to try, so the next try is refused, not crashed.
import { create } from 'zustand';
import { onEngineStopped, resetEngine } from './engine-client.ts';
import { lastInput, lastInputBytes } from './last-input.ts';
import { useLoadLimits } from './load-limits.ts';
import { useStore } from './store.ts';

export type EngineStatus = {
  /** Why the engine stopped; null while it runs. */
  stopped: string | null;
  restarting: boolean;
  /** When it stopped while loading, counting or first running an input: its size (bytes, when known) and a
   *  smaller file-size limit to try. */
  whileLoading: { bytes: number | null; suggestedLimit: number } | null;
};

export const useEngineStatus = create<EngineStatus>()(() => ({ stopped: null, restarting: false, whileLoading: null }));

const MB = 1024 * 1024;

/** A file-size limit under which an input that stopped the engine is refused before it is read: half its size
 *  (or of the current limit when its size is unknown), in whole MB, never above the current limit. */
export function smallerLimit(bytes: number | null, current: number): number {
  const half = Math.floor((bytes ?? current) / 2 / MB) * MB;
  return Math.max(MB, Math.min(current, half));
}

let started = false;

/** Follow the engine client's stop reports (called once by main.tsx). */
export function startEngineStatus(): void {
  if (started) return;
  started = true;
  onEngineStopped((e) => {
    // Working on the input: loading it, counting it, or its first run not shown yet (a big file's memory peaks
    // anywhere in there; a stop after the first run is not blamed on the file's size).
    const st = useStore.getState();
    const loading =
      st.transcript.status === 'loading' ||
      st.transcript.progress !== undefined ||
      (st.transcript.status === 'ready' && st.run.result === undefined);
    const bytes = lastInputBytes();
    useEngineStatus.setState({
      stopped: e.reason,
      whileLoading: loading
        ? { bytes, suggestedLimit: smallerLimit(bytes, useLoadLimits.getState().maxFileBytes) }
        : null,
    });
    useStore.setState((s) => ({
      transcript:
        s.transcript.status === 'loading'
          ? { ...s.transcript, status: 'error', error: e.message, issues: [], progress: undefined }
          : { ...s.transcript, progress: undefined },
      run: s.run.status === 'running' ? { ...s.run, status: 'error', error: e.message } : s.run,
    }));
  });
}

/** Start a fresh engine worker and load the last input into it again. */
export async function restartEngine(): Promise<void> {
  if (useEngineStatus.getState().restarting) return;
  useEngineStatus.setState({ restarting: true });
  resetEngine();
  useEngineStatus.setState({ stopped: null, whileLoading: null });
  // Rows and results belonged to the old worker (event ids, held replies): drop them before reloading.
  useStore.setState((s) => ({
    transcript: { ...s.transcript, rows: {} },
    run: { ...s.run, status: 'idle', result: undefined, error: undefined },
    view: { ...s.view, event: null },
  }));
  try {
    await lastInput()?.();
  } finally {
    useEngineStatus.setState({ restarting: false });
  }
}
