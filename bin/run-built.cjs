// Runs the built CLI (dist-cli/tierscope.cjs) with V8's code cache: the bundle is compiled through vm.Script with
// the bytecode the build saved beside it (tierscope.cjs.code-cache, written after a warm-up run, so it also holds
// the functions a run compiles lazily). That saves most of a start's compile time (~50 ms of a 0.25 s `scan`;
// Node 20 has no module.enableCompileCache). A cache V8 rejects (another Node, changed flags) only costs the
// compile it would have saved. The bundle is CommonJS with no `import()`: a cached script loses what `import()`
// needs on Node 20 (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING), so the build turns dynamic imports into require().
// CommonJS, as bin/tierscope.cjs is: a start then never initializes Node's ES module loader (~10 ms).
const { readFileSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const { dirname, resolve } = require('node:path');
const v8 = require('node:v8');
const vm = require('node:vm');

/**
 * How much a function runs before V8 hands it to its optimizing compiler (TurboFan): 8× V8's default (67,584). A CLI
 * run lives a fraction of a second to a few seconds; at the default a first `scan` of the time-cli folder optimized 82
 * functions (and threw 17 of them away again) whose code was barely used before the process ended, ~30% of its CPU
 * (issue 30: 320 → 230 ms; 10 functions optimized, none thrown away; `analyze` of the 2k bench thread 1.9 → 1.3 s).
 * Code that really runs hot is still optimized, a little later. Set before the bundle is compiled, in the run and in the build's
 * warm-up alike: V8 hashes its flags into the code cache and rejects a cache made under others.
 */
const INTERRUPT_BUDGET = 8 * 67584;

/** The bundle compiled with its saved code cache (if any); `rejected`: V8 refused that cache. */
function compileBuilt(dir) {
  v8.setFlagsFromString(`--interrupt-budget=${INTERRUPT_BUDGET}`);
  const file = resolve(dir, 'tierscope.cjs');
  const cacheFile = `${file}.code-cache`;
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(Module.wrap(readFileSync(file, 'utf8')), { filename: file, cachedData });
  return { script, file, cacheFile, cached: cachedData !== undefined, rejected: script.cachedDataRejected === true };
}

/**
 * Run the bundle in `dir` as the main module (registered in require's cache under its own path, so a chunk that
 * requires it back gets this instance). With `writeCache` the code cache is written when the process exits.
 */
function runBuilt(dir, { writeCache = false } = {}) {
  const { script, file, cacheFile } = compileBuilt(dir);
  const mod = new Module(file);
  mod.filename = file;
  const req = Module.createRequire(file);
  req.cache[file] = mod;
  if (writeCache) process.on('exit', () => writeFileSync(cacheFile, script.createCachedData()));
  script.runInThisContext().call(mod.exports, mod.exports, req, mod, file, dirname(file));
  mod.loaded = true;
}

module.exports = { compileBuilt, runBuilt };
