// What `tierscope serve` shows of the disk: one or more roots, read-only. One root is served at the top, as the
// folder it is; several (the session homes of `tierscope` with no arguments, or `serve a b`) each under its own
// name, so the sessions table lists them all and a path names its root. A root may be limited to some of its files
// (`tierscope <file>`: that file and its sub-agent files, found again on every listing so new ones appear).
import { stat } from 'node:fs/promises';
import type { FolderEntry } from '../sessions/layout.ts';
import { listFolderAsync } from './node-folder.ts';
import { fileInside } from './safe-path.ts';

export type ServedRoot = {
  /** Its folder's name in the served tree (when there are several). */
  name: string;
  dir: string;
  /** The only files served, relative to `dir` (read each time); every file under `dir` when absent. */
  files?: () => string[];
};

/** Names made unique (a second `projects` becomes `projects-2`). */
export function uniqueNames<T extends { name: string }>(roots: T[]): T[] {
  const seen = new Set<string>();
  return roots.map((r) => {
    let name = r.name;
    for (let k = 2; seen.has(name); k++) name = `${r.name}-${k}`;
    seen.add(name);
    return { ...r, name };
  });
}

/** A root's files (listed without holding up other requests; a file gone since its name was found is left out). */
async function entries(root: ServedRoot): Promise<FolderEntry[]> {
  if (!root.files) return (await listFolderAsync(root.dir)).map(({ path, size }) => ({ path, size }));
  const out: FolderEntry[] = [];
  for (const path of root.files()) {
    const real = fileInside(root.dir, path);
    const size = real
      ? await stat(real).then(
          (x) => x.size,
          () => undefined,
        )
      : undefined;
    if (size !== undefined) out.push({ path, size });
  }
  return out;
}

/** Every served file with its size, paths as the app sees them. */
export async function listRoots(roots: readonly ServedRoot[]): Promise<FolderEntry[]> {
  if (roots.length === 1) return entries(roots[0]);
  const out: FolderEntry[] = [];
  for (const r of roots) for (const e of await entries(r)) out.push({ path: `${r.name}/${e.path}`, size: e.size });
  return out;
}

/** The real path of a served file named by `rel` (as listRoots names it); null for anything else. */
export function fileOfRoots(roots: readonly ServedRoot[], rel: string): string | null {
  let root = roots[0];
  let inside = rel;
  if (roots.length > 1) {
    const cut = rel.indexOf('/');
    const found = cut > 0 ? roots.find((r) => r.name === rel.slice(0, cut)) : undefined;
    if (!found) return null;
    root = found;
    inside = rel.slice(cut + 1);
  }
  if (!root || (root.files && !root.files().includes(inside))) return null;
  return fileInside(root.dir, inside);
}
