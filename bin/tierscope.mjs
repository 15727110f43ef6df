#!/usr/bin/env node
// Entry point for `tierscope` / `npm run tierscope`. Runs the CLI as built JavaScript (dist-cli/tierscope.cjs,
// written by scripts/build-cli.mjs on `npm ci`) with its code cache (run-built.mjs): no TypeScript compilation at
// start-up. While a file under src/ is newer than that build (a checkout being edited) or it is missing, it loads
// the TypeScript through tsx instead.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runBuilt } from './run-built.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = `${root}dist-cli/tierscope.cjs`;

/** The newest modification time of any file under `dir`, or past `limit` as soon as one is. */
function newest(dir, limit) {
  let max = 0;
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const p = `${dir}/${d.name}`;
    const t = d.isDirectory() ? newest(p, limit) : statSync(p).mtimeMs;
    if (t > max) max = t;
    if (max > limit) break;
  }
  return max;
}

function fresh() {
  if (!existsSync(built)) return false;
  const at = statSync(built).mtimeMs;
  return newest(`${root}src`, at) <= at;
}

if (fresh()) runBuilt(`${root}dist-cli`);
else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/entry.ts');
}
