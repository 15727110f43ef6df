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
const vm = require('node:vm');

/** The bundle compiled with its saved code cache (if any); `rejected`: V8 refused that cache. */
function compileBuilt(dir) {
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
