// Access to the real fixtures in ../shared/fixtures/real and the sessions as people have them today in
// ../shared/fixtures/wild (never copied into the repo). When ../shared is absent, suites that need it register
// one failing test that says so clearly, instead of skipping.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { companionFiles, fileFromPath } from '../../src/cli/node-input.ts';
import { type LoadOk, type LoadOptions, parseTranscript } from '../../src/formats/index.ts';
import { REAL_DIR, SHARED_DIR, WILD_DIR } from './fixture-inputs.ts';

export {
  type FixtureInput,
  fixtureInputs,
  REAL_DIR,
  REPO_FIXTURES_DIR,
  REPO_ROOT,
  SHARED_DIR,
  WILD_DIR,
  WILD2_DIR,
} from './fixture-inputs.ts';
export const HAVE_REAL = existsSync(REAL_DIR);
const HAVE_WILD = existsSync(WILD_DIR);

export function realPath(rel: string): string {
  return join(REAL_DIR, rel);
}

export function wildPath(rel: string): string {
  return join(WILD_DIR, rel);
}

export function loadAt(p: string, rel: string, options: LoadOptions = {}): LoadOk['transcript'] {
  const r = parseTranscript(fileFromPath(p), companionFiles(p), options);
  if (!r.ok) throw new Error(`fixture ${rel} did not load: ${r.error}`);
  return r.transcript;
}

/** Load a real fixture (with its companion files) and fail loudly if it does not load. */
export function loadReal(rel: string, options: LoadOptions = {}): LoadOk['transcript'] {
  return loadAt(realPath(rel), rel, options);
}

/** Load a fixture from the wild (with its companion files) and fail loudly if it does not load. */
export function loadWild(rel: string, options: LoadOptions = {}): LoadOk['transcript'] {
  return loadAt(wildPath(rel), rel, options);
}

function describeIf(have: boolean, dir: string, name: string, body: () => void): void {
  if (have) {
    describe(name, body);
    return;
  }
  describe(name, () => {
    it(`needs ${dir}`, () => {
      throw new Error(
        `../shared/${dir} not found at ${join(SHARED_DIR, dir)}: clone the repo beside shared/ (CI does). Repo-own tests still run.`,
      );
    });
  });
}

/** describe() for suites over real fixtures; without ../shared it fails with a clear message. */
export function describeReal(name: string, body: () => void): void {
  describeIf(HAVE_REAL, 'fixtures/real', name, body);
}

/** describe() for suites over the fixtures from the wild; without ../shared it fails with a clear message. */
export function describeWild(name: string, body: () => void): void {
  describeIf(HAVE_WILD, 'fixtures/wild', name, body);
}
