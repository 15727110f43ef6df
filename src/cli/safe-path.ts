// Which file of the served folder a request names, if any (`tierscope serve`): a '/'-separated path inside the
// folder, with no `..`, NUL, backslash or absolute segment, that still lies inside the folder once symbolic
// links are resolved. Anything else is refused (403), so nothing outside the folder is ever read.
import { realpathSync, statSync } from 'node:fs';
import { resolve, sep } from 'node:path';

/** The real path of `rel` inside `root` when it is a regular file there; null otherwise. */
export function fileInside(root: string, rel: string): string | null {
  if (rel === '' || rel.includes('\0') || rel.includes('\\') || rel.startsWith('/')) return null;
  if (rel.split('/').some((seg) => seg === '..' || seg === '.' || seg === '')) return null;
  try {
    const realRoot = realpathSync(root);
    const target = resolve(realRoot, rel);
    if (!target.startsWith(realRoot + sep)) return null;
    const real = realpathSync(target);
    if (!real.startsWith(realRoot + sep) || !statSync(real).isFile()) return null;
    return real;
  } catch {
    return null; // gone (or a link to nothing) between the request and here
  }
}
