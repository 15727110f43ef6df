#!/usr/bin/env node
// Entry point for `tierscope` / `npm run tierscope`. Runs the CLI as built JavaScript (dist-cli/tierscope.cjs,
// written by scripts/build-cli.mjs on `npm ci`) with its code cache (run-built.cjs): no TypeScript compilation at
// start-up. While a file under src/ is newer than that build (a checkout being edited) or it is missing, it loads
// the TypeScript through tsx instead.
// CommonJS: a start never initializes Node's ES module loader (~10 ms of it) on the built path.
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');
const { runBuilt } = require('./run-built.cjs');

const root = join(__dirname, '..');
const built = join(root, 'dist-cli', 'tierscope.cjs');

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
  return newest(join(root, 'src'), at) <= at;
}

if (fresh()) runBuilt(join(root, 'dist-cli'));
else
  import('tsx/esm/api').then(({ register }) => {
    register();
    return import('../src/cli/entry.ts');
  });
