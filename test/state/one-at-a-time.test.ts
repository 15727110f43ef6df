// state/one-at-a-time.ts: a task asked while it runs runs once more after (not once per ask), and only when `again`
// says the run that ended did not already give what was asked.
import { describe, expect, it } from 'vitest';
import { oneAtATime } from '../../src/state/one-at-a-time.ts';

/** A task whose runs each wait until released, counted. */
function gated() {
  const releases: (() => void)[] = [];
  let runs = 0;
  const task = () =>
    new Promise<void>((resolve) => {
      runs++;
      releases.push(resolve);
    });
  const release = async () => {
    releases.shift()?.();
    // let the finally of the run and any run it starts go
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { task, release, runs: () => runs };
}

describe('oneAtATime', () => {
  it('asked five times while it runs: one more run after, not five', async () => {
    const g = gated();
    const refresh = oneAtATime(g.task, () => true);
    void refresh();
    for (let i = 0; i < 5; i++) void refresh();
    expect(g.runs()).toBe(1);
    await g.release();
    expect(g.runs()).toBe(2);
    await g.release();
    expect(g.runs()).toBe(2);
    // idle again: the next ask runs at once
    void refresh();
    expect(g.runs()).toBe(3);
    await g.release();
  });

  it('no run after when the one that ended already gave what was asked', async () => {
    const g = gated();
    let satisfied = false;
    const refresh = oneAtATime(g.task, () => !satisfied);
    void refresh();
    void refresh();
    satisfied = true;
    await g.release();
    expect(g.runs()).toBe(1);
  });

  it('a run that fails still lets the next ask run', async () => {
    let runs = 0;
    const refresh = oneAtATime(
      async () => {
        runs++;
        throw new Error('engine stopped');
      },
      () => true,
    );
    await expect(refresh()).rejects.toThrow('engine stopped');
    await expect(refresh()).rejects.toThrow('engine stopped');
    expect(runs).toBe(2);
  });
});
