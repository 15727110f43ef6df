// A folder on disk as the scan sees it: every regular file under it with its '/'-separated path relative to the
// folder, its size and its stamp (device, inode, size, modification time: what the row cache keys on). Symbolic links are not followed (a link back up the tree would never end), and a
// sub-folder that cannot be read is left out rather than failing the scan.
import { type Dirent, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FolderEntry } from '../sessions/layout.ts';

/** A file of the listing with its stamp: `dev:ino:size:mtimeMs` (the same file, unchanged, has the same stamp). */
export type StampedEntry = FolderEntry & { stamp: string };

export function listFolder(root: string): StampedEntry[] {
  const out: StampedEntry[] = [];
  const walk = (dir: string, rel: string) => {
    let items: Dirent[];
    try {
      items = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const d of items) {
      const path = rel ? `${rel}/${d.name}` : d.name;
      if (d.isDirectory()) walk(join(dir, d.name), path);
      else if (d.isFile()) {
        try {
          const st = statSync(join(dir, d.name));
          out.push({ path, size: st.size, stamp: `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}` });
        } catch {
          // vanished between listing and stat: not part of the scan
        }
      }
    }
  };
  walk(root, '');
  return out;
}
