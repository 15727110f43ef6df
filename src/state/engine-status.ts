// What the UI knows about the engine worker itself: running, or stopped (crashed, out of memory, closed;
// see engine-watch.ts). A stop turns a load or run in progress into a plain error instead of a spinner that
// never ends, and Retry starts a fresh worker and loads the last input again.
import { create } from 'zustand';
import { onEngineStopped, resetEngine } from './engine-client.ts';
import { lastInput } from './last-input.ts';
import { useStore } from './store.ts';

export type EngineStatus = {
  /** Why the engine stopped; null while it runs. */
  stopped: string | null;
  restarting: boolean;
};

export const useEngineStatus = create<EngineStatus>()(() => ({ stopped: null, restarting: false }));

let started = false;

/** Follow the engine client's stop reports (called once by main.tsx). */
export function startEngineStatus(): void {
  if (started) return;
  started = true;
  onEngineStopped((e) => {
    useEngineStatus.setState({ stopped: e.reason });
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
  useEngineStatus.setState({ stopped: null });
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
