// Noticing that the engine worker died (SPEC §10, issue 6: the UI reports a failed worker instead of
// freezing). A call to a dead worker never answers, and a busy worker cannot answer a ping either, so the
// worker holds a Web Lock for its whole life: the page asks for the same lock, and is granted it exactly
// when the worker is gone (crashed, closed, terminated), busy or not. An `error` event (a module that failed
// to load, an uncaught exception) counts as a stop too: the engine's state is no longer known. Once stopped,
// every pending and later call of that worker rejects with EngineStopped instead of hanging.

export class EngineStopped extends Error {
  constructor(readonly reason: string) {
    super(`The engine stopped: ${reason}`);
    this.name = 'EngineStopped';
  }
}

export type Watch = {
  /** Rejects with EngineStopped when the worker stops (never resolves). */
  dead: Promise<never>;
  /** Stop watching (before terminating the worker on purpose). */
  retire: () => void;
};

let serial = 0;

/** Watch `worker`; `hold(name)` asks the worker to take the lock `name` (resolves once it holds it). */
export function watchWorker(
  worker: Worker,
  hold: (name: string) => Promise<boolean>,
  onStop: (e: EngineStopped) => void,
): Watch {
  let retired = false;
  let fail: (e: EngineStopped) => void = () => {};
  const dead = new Promise<never>((_, reject) => {
    fail = reject;
  });
  dead.catch(() => {}); // observed through the calls it races with
  const stop = (reason: string) => {
    if (retired) return;
    retired = true;
    const e = new EngineStopped(reason);
    fail(e);
    worker.terminate();
    onStop(e);
  };
  worker.addEventListener('error', (ev) => {
    ev.preventDefault();
    stop(ev.message ? `the worker failed: ${ev.message}` : 'the worker failed to start or crashed');
  });
  const name = `tierscope-engine-${Date.now().toString(36)}-${++serial}-${Math.random().toString(36).slice(2)}`;
  void hold(name).then(
    (held) => {
      if (!held || retired || typeof navigator === 'undefined' || !navigator.locks) return;
      void navigator.locks.request(name, () => {
        stop('the worker crashed, ran out of memory or was closed');
      });
    },
    () => {},
  );
  return {
    dead,
    retire: () => {
      retired = true;
    },
  };
}

/** `remote` with every method call raced against `dead`: a dead worker's calls reject instead of hanging. */
export function guarded<T extends object>(remote: T, dead: Promise<never>): T {
  return new Proxy(remote, {
    get(target, prop) {
      if (typeof prop !== 'string' || prop === 'then') return undefined;
      const method = Reflect.get(target, prop) as (...args: unknown[]) => Promise<unknown>;
      return (...args: unknown[]) => Promise.race([method(...args), dead]);
    },
  });
}
