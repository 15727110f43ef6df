// A folder on disk as the scan sees it: every regular file under it with its '/'-separated path relative to the
// folder and its size. Symbolic links are not followed (a link back up the tree would never end), and a
// sub-folder that cannot be read is left out rather than failing the scan.
import { type Dirent, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FolderEntry } from '../sessions/layout.ts';

export function listFolder(root: string): FolderEntry[] {
  const out: FolderEntry[] = [];
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
          out.push({ path, size: statSync(join(dir, d.name)).size });
        } catch {
          // vanished between listing and stat: not part of the scan
        }
      }
    }
  };
  walk(root, '');
  return out;
}
