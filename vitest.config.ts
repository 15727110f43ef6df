import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// `scan`'s row cache (src/cli/row-cache.ts) goes to a folder of the test run's, not the user's ~/.cache.
const env = { TIERSCOPE_CACHE_DIR: join(tmpdir(), `tierscope-test-cache-${process.pid}`) };

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**'],
          testTimeout: 60_000,
          env,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.e2e.ts'],
          testTimeout: 180_000,
          hookTimeout: 240_000,
          fileParallelism: false,
          env,
          // Tests wait on the state they assert (expect.poll, waitFor…); on a busy machine that state takes longer
          // to arrive, so a wait's cap is generous (Playwright's is set in harness.ts).
          expect: { poll: { timeout: 60_000 } },
        },
      },
    ],
  },
});
