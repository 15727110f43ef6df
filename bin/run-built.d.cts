// Types of run-built.cjs (for the tests that load it).
import type { Script } from 'node:vm';

export function compileBuilt(dir: string): {
  script: Script;
  file: string;
  cacheFile: string;
  cached: boolean;
  rejected: boolean;
};

export function runBuilt(dir: string, options?: { writeCache?: boolean }): void;
