// The CLI as shipped: scripts/build-cli.mjs bundles it to JavaScript (with the packed rank tables beside it), and
// that bundle prints exactly what the TypeScript CLI prints for `analyze --json` and `scan --json`, without tsx.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCapture } from '../helpers/cli.ts';
import { describeWild, REPO_ROOT, wildPath } from '../helpers/fixtures.ts';

describeWild('the built CLI', () => {
  // Inside the repo (in the git-ignored .vite/), so the bundle finds node_modules as dist-cli/ does.
  mkdirSync(join(REPO_ROOT, '.vite'), { recursive: true });
  const out = mkdtempSync(join(REPO_ROOT, '.vite', 'cli-build-'));
  const bundle = join(out, 'tierscope.mjs');
  const run = (args: string[]) => execFileSync(process.execPath, [bundle, ...args], { encoding: 'utf8' });
  beforeAll(() => {
    execFileSync(process.execPath, [join(REPO_ROOT, 'scripts/build-cli.mjs'), '--out', out], { stdio: 'pipe' });
  }, 120_000);
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('is one JavaScript file with its rank tables, importing no TypeScript and no tsx', () => {
    const text = readFileSync(bundle, 'utf8');
    expect(text).not.toMatch(/from ["'][^"']*\.ts["']|["']tsx/);
    for (const enc of ['o200k_base', 'cl100k_base']) expect(existsSync(join(out, `${enc}.ranks`))).toBe(true);
  });

  it('analyze --json prints what the TypeScript CLI prints (token counts from the packed ranks included)', async () => {
    const file = wildPath('claude-code/projects/ccl--src-deep-manifest/a7da6a22-facc-4fcd-8bab-f83c87862004.jsonl');
    const want = await runCapture(['analyze', file, '--json']);
    expect(want.code).toBe(0);
    expect(JSON.parse(run(['analyze', file, '--json']))).toEqual(JSON.parse(want.out));
  }, 120_000);

  it('scan --json prints the same rows', async () => {
    const dir = wildPath('codex');
    const want = JSON.parse((await runCapture(['scan', dir, '--json'])).out);
    expect(want.sessions.length).toBe(3);
    expect(JSON.parse(run(['scan', dir, '--json']))).toEqual(want);
  }, 60_000);
});
