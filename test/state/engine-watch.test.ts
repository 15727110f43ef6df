import { describe, expect, it } from 'vitest';
import { EngineStopped, guarded, Stop, watchWorker } from '../../src/state/engine-watch.ts';

/** A stand-in for a Worker: an event target that records terminate(). */
function fakeWorker(): Worker & { terminated: boolean } {
  const t = new EventTarget() as unknown as Worker & { terminated: boolean };
  t.terminated = false;
  t.terminate = () => {
    t.terminated = true;
  };
  return t;
}

describe('engine watch', () => {
  it('an error event stops the worker: pending and later calls reject with the reason', async () => {
    const w = fakeWorker();
    const stops: string[] = [];
    const watch = watchWorker(
      w,
      async () => false,
      (e) => stops.push(e.reason),
    );
    const remote = guarded({ slow: () => new Promise<number>(() => {}), fast: async () => 1 }, watch.dead);
    expect(await remote.fast()).toBe(1);
    const pending = remote.slow();
    const ev = new Event('error', { cancelable: true }) as Event & { message: string };
    ev.message = 'boom';
    w.dispatchEvent(ev);
    await expect(pending).rejects.toBeInstanceOf(EngineStopped);
    await expect(remote.slow()).rejects.toThrow('The engine stopped: the worker failed: boom');
    expect(stops).toEqual(['the worker failed: boom']);
    expect(w.terminated).toBe(true);
    expect(ev.defaultPrevented).toBe(true);
  });

  it('a retired watch (a restart on purpose) reports nothing', async () => {
    const w = fakeWorker();
    const stops: string[] = [];
    const watch = watchWorker(
      w,
      async () => false,
      (e) => stops.push(e.reason),
    );
    watch.retire();
    w.dispatchEvent(new Event('error', { cancelable: true }));
    expect(stops).toEqual([]);
    expect(w.terminated).toBe(false);
  });

  it('a settled call is not held by the watch (its reply is freed with it)', async () => {
    const w = fakeWorker();
    const watch = watchWorker(
      w,
      async () => false,
      () => {},
    );
    const remote = guarded(
      { part: async (k: number) => new Uint8Array(k), never: () => new Promise<number>(() => {}) },
      watch.dead,
    );
    for (let k = 0; k < 100; k++) expect((await remote.part(k)).length).toBe(k);
    await expect(remote.part(-1)).rejects.toThrow(RangeError);
    expect(watch.dead.waiting).toBe(0);
    const pending = remote.never();
    expect(watch.dead.waiting).toBe(1);
    w.dispatchEvent(new Event('error', { cancelable: true }));
    await expect(pending).rejects.toBeInstanceOf(EngineStopped);
    expect(watch.dead.waiting).toBe(0);
  });

  it('the guarded proxy is not mistaken for a promise', () => {
    const remote = guarded({ a: async () => 1 }, new Stop());
    expect((remote as unknown as { then?: unknown }).then).toBeUndefined();
  });
});
