// `scan`'s row cache (issue 30): a second scan of an unchanged folder gives the same rows from the cache without
// reading the sessions, a session whose file grew (or that is new) is read again, and what a scan prints after an
// append equals a fresh scan's. A cache written by other code, or for other stamps, is not used; --no-cache neither
// reads nor writes it.
import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCapture } from '../helpers/cli.ts';
import { describeWild, SHARED_DIR, wildPath } from '../helpers/fixtures.ts';

const PROJECT = 'claude-code/projects/ccl--experiments-ideas';
const SESSION = '03eb5929-52b3-4b13-ada3-b93ae35806b8.jsonl';

async function scan(dir: string, cacheDir: string | null): Promise<unknown> {
  const r = await runCapture(['scan', dir, '--json', ...(cacheDir ? ['--cache-dir', cacheDir] : ['--no-cache'])]);
  expect(r.code).toBe(0);
  return JSON.parse(r.out);
}

function cacheFile(cacheDir: string): string {
  const files = readdirSync(cacheDir).filter((f) => f.startsWith('scan-') && f.endsWith('.json'));
  expect(files).toHaveLength(1);
  return join(cacheDir, files[0]);
}

describeWild('scan keeps rows between runs', () => {
  it('an unchanged folder scans to the same rows from the cache; an appended file equals a fresh scan', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tierscope-scan-cache-'));
    const cacheDir = mkdtempSync(join(tmpdir(), 'tierscope-cache-'));
    cpSync(wildPath(PROJECT), join(dir, 'project'), { recursive: true });
    const log = join(dir, 'project', SESSION);
    const lines = readFileSync(log, 'utf8').split('\n');
    const half = Math.floor(lines.length / 2);
    writeFileSync(log, `${lines.slice(0, half).join('\n')}\n`);

    const first = await scan(dir, cacheDir);
    expect(first).toEqual(await scan(dir, null));
    // The second scan reads the rows from the cache: a row changed in the file shows (stamps still match).
    const file = cacheFile(cacheDir);
    const kept = JSON.parse(readFileSync(file, 'utf8'));
    const key = `project/${SESSION}`;
    expect(kept.sessions[key].outcome.row.path).toBe(key);
    const marked = structuredClone(kept);
    marked.sessions[key].outcome.row.title = 'kept by the cache';
    writeFileSync(file, JSON.stringify(marked));
    const again = (await scan(dir, cacheDir)) as { sessions: { path: string; title: string }[] };
    expect(again.sessions.find((s) => s.path === key)?.title).toBe('kept by the cache');
    writeFileSync(file, JSON.stringify(kept));
    expect(await scan(dir, cacheDir)).toEqual(first);

    // The session grows: its row is made again, and equals what a scan without the cache prints.
    appendFileSync(log, `${lines.slice(half).join('\n')}`);
    const grown = await scan(dir, cacheDir);
    expect(grown).not.toEqual(first);
    expect(grown).toEqual(await scan(dir, null));
    expect(await scan(dir, cacheDir)).toEqual(grown);
  });

  it('rows kept by other code are not used, and --no-cache leaves the cache alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tierscope-scan-cache-'));
    const cacheDir = mkdtempSync(join(tmpdir(), 'tierscope-cache-'));
    cpSync(wildPath(PROJECT), join(dir, 'project'), { recursive: true });
    const fresh = await scan(dir, cacheDir);
    const file = cacheFile(cacheDir);
    const kept = JSON.parse(readFileSync(file, 'utf8'));
    for (const s of Object.values(kept.sessions) as { outcome: { row?: { title: string } } }[])
      if (s.outcome.row) s.outcome.row.title = 'made by an older build';
    writeFileSync(file, JSON.stringify({ ...kept, code: 'an older build' }));
    expect(await scan(dir, cacheDir)).toEqual(fresh);
    const before = readFileSync(file, 'utf8');
    await scan(dir, null);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });
});

describeWild('scan from the cache equals a fresh scan on the fixture folders', () => {
  // wild2's Codex sessions include forks its parser attaches to their parent (no rows of their own): the cache
  // keeps what each session attached.
  for (const folder of ['wild', 'wild2']) {
    it(folder, async () => {
      const dir = join(SHARED_DIR, 'fixtures', folder);
      const cacheDir = mkdtempSync(join(tmpdir(), 'tierscope-cache-'));
      const fresh = await scan(dir, null);
      expect(await scan(dir, cacheDir)).toEqual(fresh);
      expect(await scan(dir, cacheDir)).toEqual(fresh);
    });
  }
});

describe('where the cache lives', () => {
  it('follows TIERSCOPE_CACHE_DIR, then XDG_CACHE_HOME, then ~/.cache', async () => {
    const { cacheDir } = await import('../../src/cli/row-cache.ts');
    expect(cacheDir({ TIERSCOPE_CACHE_DIR: '/x/y' })).toBe('/x/y');
    expect(cacheDir({ XDG_CACHE_HOME: '/c' })).toBe('/c/tierscope');
    expect(cacheDir({ XDG_CACHE_HOME: 'relative' })).toMatch(/\/\.cache\/tierscope$/);
    expect(cacheDir({})).toMatch(/\/\.cache\/tierscope$/);
  });
});
