// Which code this is, for what is kept on disk between runs (the scan's row cache): the built CLI carries a hash of
// the sources it was built from (scripts/build-cli.mjs defines __TIERSCOPE_CODE__); run from the TypeScript (a
// checkout being edited) it is the newest modification time under src/, so an edit makes earlier rows stale.
import { readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

declare const __TIERSCOPE_CODE__: string | undefined;

function newest(dir: string): number {
  let max = 0;
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const p = `${dir}/${d.name}`;
    const t = d.isDirectory() ? newest(p) : statSync(p).mtimeMs;
    if (t > max) max = t;
  }
  return max;
}

export function codeVersion(): string {
  return typeof __TIERSCOPE_CODE__ === 'string'
    ? __TIERSCOPE_CODE__
    : `src@${newest(fileURLToPath(new URL('..', import.meta.url)))}`;
}
