// Access to the real fixtures in ../shared/fixtures/real and the sessions as people have them today in
// ../shared/fixtures/wild (never copied into the repo). When ../shared is absent, suites that need it register
// one failing test that says so clearly, instead of skipping.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { companionFiles, fileFromPath } from '../../src/cli/node-input.ts';
import { type LoadOk, type LoadOptions, parseTranscript } from '../../src/formats/index.ts';

import { REAL_DIR, WILD_DIR } from './fixture-inputs.ts';

export { type FixtureInput, fixtureInputs, REAL_DIR, REPO_ROOT, SHARED_DIR, WILD_DIR } from './fixture-inputs.ts';
export const HAVE_REAL = existsSync(REAL_DIR);
export const HAVE_WILD = existsSync(WILD_DIR);

export function realPath(rel: string): string {
  return join(REAL_DIR, rel);
}

/** Load a real fixture (with its companion files) and fail loudly if it does not load. */
export function loadReal(rel: string, options: LoadOptions = {}): LoadOk['transcript'] {
  const p = realPath(rel);
  const r = parseTranscript(fileFromPath(p), companionFiles(p), options);
  if (!r.ok) throw new Error(`fixture ${rel} did not load: ${r.error}`);
  return r.transcript;
}

/** describe() for suites over real fixtures; without ../shared it fails with a clear message. */
export function describeReal(name: string, body: () => void): void {
  if (HAVE_REAL) {
    describe(name, body);
    return;
  }
  describe(name, () => {
    it('needs the real fixtures', () => {
      throw new Error(
        `../shared/fixtures/real not found at ${REAL_DIR}: clone the repo beside shared/ (CI does). Repo-own tests still run.`,
      );
    });
  });
}

/** Load a fixture of fixtures/wild (with its companion files) and fail loudly if it does not load. */
export function loadWild(rel: string, options: LoadOptions = {}): LoadOk['transcript'] {
  const p = join(WILD_DIR, rel);
  const r = parseTranscript(fileFromPath(p), companionFiles(p), options);
  if (!r.ok) throw new Error(`fixture wild/${rel} did not load: ${r.error}`);
  return r.transcript;
}

/** describe() for suites over fixtures/wild; without it, one failing test says so. */
export function describeWild(name: string, body: () => void): void {
  if (HAVE_WILD) {
    describe(name, body);
    return;
  }
  describe(name, () => {
    it('needs the wild fixtures', () => {
      throw new Error(`../shared/fixtures/wild not found at ${WILD_DIR}: clone the repo beside shared/ (CI does).`);
    });
  });
}
