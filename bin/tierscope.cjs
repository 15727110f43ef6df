#!/usr/bin/env node
// Entry point for `tierscope` / `npm run tierscope` / `npx tierscope`. Runs the CLI as built JavaScript
// (dist-cli/tierscope.cjs, written by scripts/build-cli.mjs on `npm ci` and when the package is packed) with its code
// cache (run-built.cjs): no TypeScript compilation at start-up. In a checkout, while a file under src/ is newer than
// that build (it is being edited) or the build is missing, it loads the TypeScript through tsx instead; the
// installed package has no src/ and always runs the build.
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
  const src = join(root, 'src');
  if (!existsSync(src)) return true;
  if (!existsSync(built)) return false;
  const at = statSync(built).mtimeMs;
  return newest(src, at) <= at;
}

if (fresh()) runBuilt(join(root, 'dist-cli'));
else
  import('tsx/esm/api').then(({ register }) => {
    register();
    return import('../src/cli/entry.ts');
  });
