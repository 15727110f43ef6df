// `scan` of a big folder on several cores: this thread and helper threads (worker_threads running the same built
// CLI, started by entry.ts) claim the folder's sessions one at a time through a shared counter, each parsing its
// own, the biggest first (so no thread is left with a big one at the end); the outcomes are put back in session
// order, so the rows are exactly those of the one-thread scan. A helper that fails leaves its unfinished sessions
// to this thread. Worth it past a few MB: a helper takes ~50 ms to start.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileFromBytes } from '../formats/index.ts';
import type { SessionFiles } from '../sessions/layout.ts';
import { collect, type ScanResult, type SessionOutcome, scanSession } from '../sessions/scan.ts';
import { rowMemo } from '../sessions/summary.ts';

/** What a helper thread is started with (its workerData, structured-cloned). */
export type HelperTask = {
  root: string;
  sessions: SessionFiles[];
  /** Session indices in the order they are claimed (most bytes first). */
  order: number[];
  /** The next place in `order` to claim (shared by every thread). */
  counter: Int32Array;
};

/** One helper thread as the scan sees it: it ends with the outcomes it made, by session index. */
type Helper = { done: Promise<[number, SessionOutcome][]> };

/** Starts a helper thread on a task (entry.ts: a worker running the built CLI); absent where none can start. */
export type StartHelper = (task: HelperTask) => Helper;

/** Each file read once, whole (a session at a time): detection and parsing then read memory, not the disk. */
const openFrom = (root: string) => (path: string, name: string) => fileFromBytes(name, readFileSync(join(root, path)));

/** Claim sessions from `counter` until none is left; the outcomes by session index. */
export async function claimAndScan(task: HelperTask): Promise<[number, SessionOutcome][]> {
  const open = openFrom(task.root);
  const memo = rowMemo();
  const out: [number, SessionOutcome][] = [];
  for (let k = Atomics.add(task.counter, 0, 1); k < task.order.length; k = Atomics.add(task.counter, 0, 1)) {
    const i = task.order[k];
    out.push([i, await scanSession(task.sessions[i], open, memo)]);
  }
  return out;
}

/** Scan `sessions` of the folder at `root` on this thread and `helpers` helper threads; `bytes`: a file's size. */
export async function scanParallel(
  root: string,
  sessions: SessionFiles[],
  bytes: (path: string) => number,
  helpers: number,
  start: StartHelper,
): Promise<ScanResult> {
  const t0 = Date.now();
  const weight = sessions.map((s) => s.companions.reduce((n, c) => n + bytes(c.path), s.size));
  const order = sessions.map((_, i) => i).sort((a, b) => weight[b] - weight[a] || a - b);
  const task: HelperTask = { root, sessions, order, counter: new Int32Array(new SharedArrayBuffer(4)) };
  const started = Array.from({ length: helpers }, () => start(task).done.catch(() => []));
  const outcomes: (SessionOutcome | undefined)[] = new Array(sessions.length);
  for (const [i, o] of await claimAndScan(task)) outcomes[i] = o;
  let threads = 1;
  for (const part of await Promise.all(started)) {
    if (part.length > 0) threads++;
    for (const [i, o] of part) outcomes[i] = o;
  }
  // Sessions a failed helper had claimed and not finished.
  const open = openFrom(root);
  for (const [i, s] of sessions.entries()) outcomes[i] ??= await scanSession(s, open);
  const result = collect(outcomes as SessionOutcome[], false, Date.now() - t0);
  if (threads > 1) result.threads = threads;
  return result;
}
