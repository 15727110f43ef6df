// Build the CLI into one JavaScript file with the project's own bundler (vite, in SSR mode for Node), so
// `tierscope` starts without compiling TypeScript: dist-cli/tierscope.mjs (the packages every start loads bundled
// in, the rest of node_modules left as imports).
// Run by `npm ci`/`npm install` (the `prepare` script) and `npm run build:cli`; `--out <dir>` builds elsewhere
// (tests). bin/tierscope.mjs uses the bundle while it is newer than every file under src/.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { build } from 'vite';

const root = resolve(import.meta.dirname, '..');
const at = process.argv.indexOf('--out');
const outDir = at >= 0 ? resolve(process.argv[at + 1]) : resolve(root, 'dist-cli');

await build({
  configFile: false,
  root,
  logLevel: 'warn',
  publicDir: false,
  // What every command loads at start is bundled in, so Node does not resolve it through node_modules each time
  // (about 10–20 ms of a 0.2 s start); what only some commands load (js-tiktoken's ranks, secretlint) stays outside.
  ssr: { noExternal: ['@pydantic/genai-prices', 'image-size', 'fflate', 'fzstd'] },
  build: {
    ssr: resolve(root, 'src/cli/entry.ts'),
    outDir,
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    sourcemap: false,
    rolldownOptions: {
      checks: { bundlerTimings: false },
      output: { entryFileNames: 'tierscope.mjs', chunkFileNames: 'chunks/[name]-[hash].mjs' },
    },
  },
});

// The rank tables, decoded once here rather than on every start (src/cli/entry.ts).
execFileSync(process.execPath, [resolve(outDir, 'tierscope.mjs'), '--pack-ranks'], { stdio: 'inherit' });
