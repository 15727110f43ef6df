// A folder on disk as the scan sees it: every regular file under it with its '/'-separated path relative to the
// folder, its size and its stamp (device, inode, size, modification time: what scan's row cache keys on). Symbolic links are not followed (a link back up the tree would never end), and a
// sub-folder that cannot be read is left out rather than failing the scan. One walk, two drivers: `listFolder`
// reads synchronously (scan), `listFolderAsync` awaits each folder and batch of stats, so `serve` keeps answering
// other requests while it lists 100,000 files.
import { type Dirent, readdirSync, statSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FolderEntry } from '../sessions/layout.ts';

/** A file of the listing with its stamp: `dev:ino:size:mtimeMs` (the same file, unchanged, has the same stamp). */
export type StampedEntry = FolderEntry & { stamp: string };
type Stat = { size: number; dev: number; ino: number; mtimeMs: number };
const stamped = (path: string, st: Stat): StampedEntry => ({
  path,
  size: st.size,
  stamp: `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`,
});

/** What the walk asks its driver for: a folder's entries, or the stats of some files (undefined: gone). */
type Ask = { readdir: string } | { stats: string[] };
type Answer = Dirent[] | undefined | (Stat | undefined)[];

/** Depth first in directory order (a folder's files and sub-folders as readdir lists them), without recursion. */
function* walk(root: string): Generator<Ask, StampedEntry[], Answer> {
  const out: StampedEntry[] = [];
  type Frame = { dir: string; rel: string; items: Dirent[]; stats: (Stat | undefined)[]; at: number; file: number };
  const stack: Frame[] = [];
  const enter = function* (dir: string, rel: string): Generator<Ask, void, Answer> {
    const items = (yield { readdir: dir }) as Dirent[] | undefined;
    if (!items) return;
    const files = items.filter((x) => x.isFile()).map((x) => join(dir, x.name));
    const stats = files.length > 0 ? ((yield { stats: files }) as (Stat | undefined)[]) : [];
    stack.push({ dir, rel, items, stats, at: 0, file: 0 });
  };
  yield* enter(root, '');
  while (stack.length > 0) {
    const f = stack[stack.length - 1];
    if (f.at >= f.items.length) {
      stack.pop();
      continue;
    }
    const x = f.items[f.at++];
    const path = f.rel ? `${f.rel}/${x.name}` : x.name;
    if (x.isDirectory()) yield* enter(join(f.dir, x.name), path);
    else if (x.isFile()) {
      const st = f.stats[f.file++];
      if (st !== undefined) out.push(stamped(path, st)); // else: vanished between listing and stat
    }
  }
  return out;
}

const quiet =
  <T>(f: () => T) =>
  (): T | undefined => {
    try {
      return f();
    } catch {
      return undefined;
    }
  };

export function listFolder(root: string): StampedEntry[] {
  const w = walk(root);
  let answer: Answer;
  for (let s = w.next(); ; s = w.next(answer)) {
    if (s.done) return s.value;
    const ask = s.value;
    answer =
      'readdir' in ask
        ? quiet(() => readdirSync(ask.readdir, { withFileTypes: true }))()
        : ask.stats.map((p) => quiet(() => statSync(p))());
  }
}

/** Stats at a time while listing asynchronously. */
const BATCH = 64;

export async function listFolderAsync(root: string): Promise<StampedEntry[]> {
  const w = walk(root);
  let answer: Answer;
  for (let s = w.next(); ; s = w.next(answer)) {
    if (s.done) return s.value;
    const ask = s.value;
    if ('readdir' in ask) {
      answer = await readdir(ask.readdir, { withFileTypes: true }).catch(() => undefined);
      continue;
    }
    const stats: (Stat | undefined)[] = [];
    for (let i = 0; i < ask.stats.length; i += BATCH) {
      const part = ask.stats.slice(i, i + BATCH).map((p) =>
        stat(p).then(
          (x) => x,
          () => undefined,
        ),
      );
      for (const n of await Promise.all(part)) stats.push(n);
    }
    answer = stats;
  }
}
