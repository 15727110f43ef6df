// The CLI as shipped: scripts/build-cli.mjs bundles it to JavaScript (with the packed rank tables and V8's code
// cache beside it), and that bundle, run through bin/run-built.cjs as bin/tierscope.cjs runs it, prints exactly
// what the TypeScript CLI prints for `analyze --json` and `scan --json`, without tsx.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { compileBuilt } from '../../bin/run-built.cjs';
import { runCapture } from '../helpers/cli.ts';
import { describeWild, REPO_ROOT, wildPath } from '../helpers/fixtures.ts';

describeWild('the built CLI', () => {
  // Inside the repo (in the git-ignored .vite/), so the bundle finds node_modules as dist-cli/ does.
  mkdirSync(join(REPO_ROOT, '.vite'), { recursive: true });
  const out = mkdtempSync(join(REPO_ROOT, '.vite', 'cli-build-'));
  const bundle = join(out, 'tierscope.cjs');
  const launch = `require(${JSON.stringify(join(REPO_ROOT, 'bin/run-built.cjs'))}).runBuilt(${JSON.stringify(out)})`;
  const run = (args: string[]) => execFileSync(process.execPath, ['-e', launch, bundle, ...args], { encoding: 'utf8' });
  beforeAll(() => {
    execFileSync(process.execPath, [join(REPO_ROOT, 'scripts/build-cli.mjs'), '--out', out], { stdio: 'pipe' });
  }, 120_000);
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('is one JavaScript file with its rank tables, importing no TypeScript, no tsx, and with no import()', () => {
    const text = readFileSync(bundle, 'utf8');
    expect(text).not.toMatch(/require\(["'][^"']*\.ts["']\)|["']tsx/);
    // A script compiled with a code cache cannot run import() on Node 20 (bin/run-built.cjs).
    expect(text).not.toMatch(/\bimport\(/);
    for (const enc of ['o200k_base', 'cl100k_base']) expect(existsSync(join(out, `${enc}.ranks`))).toBe(true);
  });

  it('has a code cache that V8 accepts for this Node', () => {
    const built = compileBuilt(out);
    expect(built.cached).toBe(true);
    expect(built.rejected).toBe(false);
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

  it('share (a chunk of its own, which requires the bundle back) prints the link the TypeScript CLI prints', async () => {
    const file = join(REPO_ROOT, 'public/samples/pairing-bug.jsonl');
    const want = await runCapture(['share', file]);
    expect(want.code).toBe(0);
    expect(run(['share', file])).toBe(want.out.endsWith('\n') ? want.out : `${want.out}\n`);
  }, 60_000);
});
