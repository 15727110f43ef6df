// Access to the real fixtures in ../shared/fixtures/real (never copied into the repo). When ../shared
// is absent, suites that need it register one failing test that says so clearly, instead of skipping.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';
import { companionFiles, fileFromPath } from '../../src/cli/node-input.ts';
import { type LoadOk, type LoadOptions, parseTranscript } from '../../src/formats/index.ts';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const SHARED_DIR = resolve(REPO_ROOT, '../shared');
export const REAL_DIR = join(SHARED_DIR, 'fixtures/real');
export const HAVE_REAL = existsSync(REAL_DIR);

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
