// `scan` on several threads (cli/scan-parallel.ts) gives the rows of the one-thread scan, in the same order, on the
// wild folders: helpers here are run in this thread (the claiming, the size order and the merge are what is under
// test; the built CLI's real worker threads are tested in bundle.test.ts). A helper that fails after claiming
// sessions leaves them to the main thread.
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { expect, it } from 'vitest';
import { listFolder } from '../../src/cli/node-folder.ts';
import { claimAndScan, type HelperTask, scanParallel } from '../../src/cli/scan-parallel.ts';
import { fileFromBytes } from '../../src/formats/index.ts';
import { sessionsOf } from '../../src/sessions/layout.ts';
import { type ScanResult, scanSessions } from '../../src/sessions/scan.ts';
import { describeWild, wildPath } from '../helpers/fixtures.ts';

const sequential = (root: string) =>
  scanSessions(listFolder(root), {
    rootName: basename(root),
    open: (path, name) => fileFromBytes(name, readFileSync(join(root, path))),
  });

const withoutTime = (r: ScanResult) => ({ ...r, ms: 0, threads: undefined });

async function parallel(root: string, helpers: number, failing = false) {
  const entries = listFolder(root);
  const sizes = new Map(entries.map((e) => [e.path, e.size]));
  const claimedByFailing: number[] = [];
  const result = await scanParallel(
    root,
    sessionsOf(entries, basename(root)),
    (p) => sizes.get(p) ?? 0,
    helpers,
    (task: HelperTask) => ({
      done: failing
        ? (async () => {
            // Claims one session, then fails before handing anything back.
            await Promise.resolve();
            claimedByFailing.push(task.order[Atomics.add(task.counter, 0, 1)]);
            throw new Error('helper died');
          })()
        : (async () => {
            await Promise.resolve();
            return claimAndScan(task);
          })(),
    }),
  );
  return { result, claimedByFailing };
}

describeWild('scan on several threads', () => {
  for (const folder of ['claude-code/projects', 'codex']) {
    it(`${folder}: the same rows, skipped files and counts as the one-thread scan`, async () => {
      const root = wildPath(folder);
      const want = withoutTime(await sequential(root));
      expect(want.rows.length).toBeGreaterThan(0);
      for (const helpers of [1, 3]) expect(withoutTime((await parallel(root, helpers)).result)).toEqual(want);
    }, 60_000);
  }

  it('a helper that fails after claiming a session leaves it to the main thread', async () => {
    const root = wildPath('claude-code/projects');
    const want = withoutTime(await sequential(root));
    const { result, claimedByFailing } = await parallel(root, 1, true);
    expect(claimedByFailing.length).toBe(1);
    expect(withoutTime(result)).toEqual(want);
  }, 60_000);
});
