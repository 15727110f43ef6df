// Noticing that the engine worker died (SPEC §10, issue 6: the UI reports a failed worker instead of
// freezing). A call to a dead worker never answers, and a busy worker cannot answer a ping either, so the
// worker holds a Web Lock for its whole life: the page asks for the same lock, and is granted it exactly
// when the worker is gone (crashed, closed, terminated), busy or not. An `error` event (a module that failed
// to load, an uncaught exception) counts as a stop too: the engine's state is no longer known. Once stopped,
// every pending and later call of that worker rejects with EngineStopped instead of hanging. A call waits on the
// stop only while it is pending (not Promise.race with a promise that never settles: each race left a reaction
// on it holding the call's reply — every run result's parts — for the page's life).

export class EngineStopped extends Error {
  constructor(readonly reason: string) {
    super(`The engine stopped: ${reason}`);
    this.name = 'EngineStopped';
  }
}

/** A worker's stop as its calls see it: set once, telling the calls pending then; a settled call is forgotten. */
export class Stop {
  private error: EngineStopped | undefined;
  private readonly pending = new Set<(e: EngineStopped) => void>();

  fire(e: EngineStopped): void {
    if (this.error) return;
    this.error = e;
    for (const reject of this.pending) reject(e);
    this.pending.clear();
  }

  /** `p`, or EngineStopped when the worker stops first. */
  race<T>(p: Promise<T>): Promise<T> {
    const stopped = this.error;
    if (stopped) {
      p.catch(() => {}); // a call to a stopped worker: its own outcome no longer matters
      return Promise.reject(stopped);
    }
    return new Promise<T>((resolve, reject) => {
      this.pending.add(reject);
      p.then(
        (v) => {
          this.pending.delete(reject);
          resolve(v);
        },
        (e: unknown) => {
          this.pending.delete(reject);
          reject(e);
        },
      );
    });
  }

  /** Calls waiting on the stop (a settled call is no longer held). */
  get waiting(): number {
    return this.pending.size;
  }
}

export type Watch = {
  /** Fires when the worker stops. */
  dead: Stop;
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
  const dead = new Stop();
  const stop = (reason: string) => {
    if (retired) return;
    retired = true;
    const e = new EngineStopped(reason);
    dead.fire(e);
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
export function guarded<T extends object>(remote: T, dead: Stop): T {
  return new Proxy(remote, {
    get(target, prop) {
      if (typeof prop !== 'string' || prop === 'then') return undefined;
      const method = Reflect.get(target, prop) as (...args: unknown[]) => Promise<unknown>;
      return (...args: unknown[]) => dead.race(method(...args));
    },
  });
}
