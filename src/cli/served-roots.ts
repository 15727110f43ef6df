// What `tierscope serve` shows of the disk: one or more roots, read-only. One root is served at the top, as the
// folder it is; several (the session homes of `tierscope` with no arguments, or `serve a b`) each under its own
// name, so the sessions table lists them all and a path names its root. A root may be limited to some of its files
// (`tierscope <file>`: that file and its sub-agent files, found again on every listing so new ones appear).
import { statSync } from 'node:fs';
import type { FolderEntry } from '../sessions/layout.ts';
import { listFolder } from './node-folder.ts';
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

function entries(root: ServedRoot): FolderEntry[] {
  if (!root.files) return listFolder(root.dir).map(({ path, size }) => ({ path, size })); // stamps stay in the CLI
  return root.files().flatMap((path) => {
    const real = fileInside(root.dir, path);
    return real ? [{ path, size: statSync(real).size }] : [];
  });
}

/** Every served file with its size, paths as the app sees them. */
export function listRoots(roots: readonly ServedRoot[]): FolderEntry[] {
  if (roots.length === 1) return entries(roots[0]);
  return roots.flatMap((r) => entries(r).map((e) => ({ path: `${r.name}/${e.path}`, size: e.size })));
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
