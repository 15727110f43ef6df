// Build the CLI into JavaScript with the project's own bundler (vite, in SSR mode for Node), so `tierscope` starts
// without compiling TypeScript: dist-cli/tierscope.cjs (the packages every start loads bundled in, the rest of
// node_modules left as requires), then the packed rank tables and V8's code cache beside it (bin/run-built.cjs).
// CommonJS with dynamic imports made into require(): a script compiled with a code cache cannot run `import()` on
// Node 20. Run by `npm ci`/`npm install` (the `prepare` script) and `npm run build:cli`; `--out <dir>` builds
// elsewhere (tests). bin/tierscope.cjs uses the bundle while it is newer than every file under src/.
import assert from 'node:assert';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'vite';

const root = resolve(import.meta.dirname, '..');
const at = process.argv.indexOf('--out');
const outDir = at >= 0 ? resolve(process.argv[at + 1]) : resolve(root, 'dist-cli');

/** The code's version (src/cli/code-version.ts): a hash of every source file, the locked dependencies and this
 *  script (it shapes the bundle too: the catalog's data below), so a row the scan's cache kept is reused by the same
 *  code only. */
function sourceHash() {
  const h = createHash('sha256');
  const walk = (dir) => {
    for (const d of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(dir, d.name);
      if (d.isDirectory()) walk(p);
      else h.update(`${p.slice(root.length)}\0`).update(readFileSync(p));
    }
  };
  walk(resolve(root, 'src'));
  h.update(readFileSync(resolve(root, 'package-lock.json')));
  h.update(readFileSync(import.meta.filename));
  return h.digest('hex').slice(0, 20);
}

/**
 * The price catalog's data (@pydantic/genai-prices: one ~0.8 MB array literal of providers and models) as
 * `JSON.parse` of one string, which V8 turns into the same objects faster than it runs a literal that size
 * (https://v8.dev/blog/cost-of-javascript-2019#json); every start makes them (issue 30: ~2% of a first `scan`'s CPU).
 * The value is the same: the build stops unless the JSON reads back deep-equal to what the literal makes. Non-ASCII is
 * escaped in the JSON, so the string stays one byte per character.
 */
const catalogAsJson = {
  name: 'tierscope-catalog-as-json',
  transform(code, id) {
    if (!/[\\/]@pydantic[\\/]genai-prices[\\/]dist[\\/]index\.js$/.test(id)) return null;
    const big = this.parse(code).body.flatMap((n) =>
      n.type === 'VariableDeclaration'
        ? n.declarations.filter((d) => d.init?.type === 'ArrayExpression' && d.init.end - d.init.start > 100_000)
        : [],
    );
    if (big.length !== 1) throw new Error(`genai-prices: expected one data literal, found ${big.length}`);
    const { start, end } = big[0].init;
    const value = new Function(`return ${code.slice(start, end)};`)();
    const json = JSON.stringify(value).replace(
      /[\u007f-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
    assert.deepStrictEqual(JSON.parse(json), value);
    return {
      code: `${code.slice(0, start)}JSON.parse(${JSON.stringify(json)})${lazyRegistry(code.slice(end))}`,
      map: null,
    };
  },
};

/**
 * The catalog's unit registry (`new Y(J)` at the module's top, read only through `g()`) made on its first use instead
 * of at every start: building it costs ~12 ms of CPU (its first `localeCompare` loads ICU's collation data), and a
 * scan whose rows all come from the row cache prices nothing (issue 30). The build stops unless the module has
 * exactly that shape (`code`: the module after its data literal).
 */
function lazyRegistry(code) {
  const eager = /\bconst (\w+) = new (\w+)\((\w+)\);\nfunction (\w+)\(\) \{\n {2}return \1;\n\}/g;
  const found = [...code.matchAll(eager)];
  if (found.length !== 1) throw new Error(`genai-prices: expected one eager unit registry, found ${found.length}`);
  const [whole, name, cls, arg, getter] = found[0];
  if (code.split(new RegExp(`\\b${name}\\b`)).length !== 3)
    throw new Error(`genai-prices: the unit registry ${name} is read beside ${getter}()`);
  return code.replace(whole, `let ${name};\nfunction ${getter}() {\n  return ${name} ??= new ${cls}(${arg});\n}`);
}

await build({
  configFile: false,
  plugins: [catalogAsJson],
  root,
  define: { __TIERSCOPE_CODE__: JSON.stringify(sourceHash()) },
  logLevel: 'warn',
  publicDir: false,
  // Every package is bundled in: Node does not resolve what a start loads through node_modules each time (about
  // 10–20 ms of a 0.2 s start), and the npm package needs no runtime dependency but sql.js. What only some commands
  // load (secretlint for `share`, `open` for `serve --open`) lands in those commands' chunks. js-tiktoken's rank
  // tables stay outside: the CLI reads the packed ranks written below instead (src/cli/entry.ts). sql.js stays
  // outside too, the package's one runtime dependency: it reads its .wasm from its own folder (cli/sqlite-node.ts),
  // only when a database is opened.
  ssr: { noExternal: true, external: ['js-tiktoken', 'sql.js'] },
  build: {
    ssr: resolve(root, 'src/cli/entry.ts'),
    outDir,
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    sourcemap: false,
    rolldownOptions: {
      checks: { bundlerTimings: false },
      output: {
        format: 'cjs',
        dynamicImportInCjs: false,
        // ASCII only, without comments: Node reads the source as Latin-1-sized bytes into a one-byte string
        // (a UTF-8 source with a single non-ASCII character is decoded into a two-byte one, ~8 ms at start).
        charset: 'ascii',
        comments: false,
        entryFileNames: 'tierscope.cjs',
        chunkFileNames: 'chunks/[name]-[hash].cjs',
      },
    },
  },
});

const bundle = resolve(outDir, 'tierscope.cjs');
// The rank tables, decoded once here rather than on every start (src/cli/entry.ts).
execFileSync(process.execPath, [bundle, '--pack-ranks'], { stdio: 'inherit' });
// The code cache, saved after a warm-up of the commands a start mostly runs (an analyze and a scan of the samples).
const samples = resolve(root, 'public/samples');
rmSync(`${bundle}.code-cache`, { force: true });
const run = `require(${JSON.stringify(resolve(root, 'bin/run-built.cjs'))}).runBuilt(${JSON.stringify(outDir)}, { writeCache: true })`;
// (`-e` leaves no script path in argv, so the bundle's path stands in for it, as if it had been run.)
const warm = ['--warm', resolve(samples, 'cache-break.jsonl'), samples];
// The scan's row cache goes to a folder of its own during the warm-up (written, then read), not the user's.
const cacheDir = mkdtempSync(join(tmpdir(), 'tierscope-warm-'));
try {
  execFileSync(process.execPath, ['-e', run, bundle, ...warm], {
    stdio: 'inherit',
    env: { ...process.env, TIERSCOPE_CACHE_DIR: cacheDir },
  });
} finally {
  rmSync(cacheDir, { recursive: true, force: true });
}
