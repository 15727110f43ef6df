// The npm package as a user meets it (issue 25, item 2): `npm pack` builds the app and the CLI into a tarball with
// no TypeScript source and no tests; installed from it into an empty folder (with its one runtime dependency,
// sql.js, and nothing else), `npx tierscope` with HOME pointing at a home that holds a copy of the wild Claude Code projects serves
// the app on 127.0.0.1 and opens on the sessions table with one row per session there; with a Codex home beside
// it, both homes' sessions are listed; `npx tierscope <file>` opens that session with its sub-agents; and the other
// commands answer from the tarball as they do from the repo.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { listFolder } from '../../src/cli/node-folder.ts';
import { sessionsOf } from '../../src/sessions/layout.ts';
import { describeWild, WILD_DIR } from '../helpers/fixtures.ts';
import { orphanAgentFiles } from '../helpers/orphan-agents.ts';
import { openBrowser, ROOT, screenshot } from './harness.ts';
import { spawnServer, userEnv } from './spawned.ts';
import { cliReport, expectLoadStatus } from './ui.ts';

const PROJECTS = join(WILD_DIR, 'claude-code/projects');
const CODEX = join(WILD_DIR, 'codex');
/** A Claude Code session with a sub-agent in `<id>/subagents/`. */
const WITH_SUBAGENT = 'ccl--src-experiments-claude_p/29ccd257-68b1-427f-ae5f-6524b7cb6f20.jsonl';

/** A port nothing listens on right now (the test never assumes a fixed one is free). */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
  const addr = s.address();
  await new Promise<void>((ok) => s.close(() => ok()));
  return typeof addr === 'object' && addr ? addr.port : 0;
}

/** Copy a read-only fixture folder where the test may delete it again. */
function copyWritable(from: string, to: string): void {
  cpSync(from, to, { recursive: true });
  const walk = (p: string) => {
    chmodSync(p, statSync(p).isDirectory() ? 0o755 : 0o644);
    if (statSync(p).isDirectory()) for (const f of readdirSync(p)) walk(join(p, f));
  };
  walk(to);
}

describeWild('the npm package', () => {
  const work = mkdtempSync(join(tmpdir(), 'tierscope-pack-'));
  const install = join(work, 'install');
  const home = join(work, 'home');
  let tarball = '';
  let files: string[] = [];

  /** `npx tierscope …` in the install folder, with HOME at the temporary home (stdout; it must exit 0). */
  const npx = (args: string[]) =>
    execFileSync('npx', ['tierscope', ...args], {
      cwd: install,
      env: userEnv({ HOME: home }),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });

  beforeAll(async () => {
    // Packing runs `prepack` (the app's build) and `prepare` (the CLI's build) in the checkout.
    execFileSync('npm', ['pack', '--pack-destination', work], { cwd: ROOT, env: userEnv(), stdio: 'ignore' });
    tarball = join(work, readdirSync(work).find((f) => f.endsWith('.tgz')) ?? 'missing.tgz');
    files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n');
    mkdirSync(install);
    execFileSync('npm', ['init', '-y'], { cwd: install, env: userEnv(), stdio: 'ignore' });
    // The one runtime dependency (sql.js) comes from this machine's npm cache when it is there.
    execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], {
      cwd: install,
      env: userEnv({ HOME: home, npm_config_cache: join(homedir(), '.npm') }),
      stdio: 'ignore',
    });
    copyWritable(PROJECTS, join(home, '.claude', 'projects'));
  }, 600_000);
  afterAll(() => {
    rmSync(work, { recursive: true, force: true });
  });

  it('packs the built app and CLI, with no TypeScript source, no tests and one runtime dependency (sql.js)', () => {
    const inPackage = files.map((f) => f.replace(/^package\//, ''));
    expect(inPackage).toContain('dist/index.html');
    expect(inPackage).toContain('dist-cli/tierscope.cjs');
    expect(inPackage).toContain('dist-cli/o200k_base.ranks');
    expect(inPackage).toContain('bin/tierscope.cjs');
    expect(inPackage.filter((f) => /(^|\/)(src|test|bench|scripts)\//.test(f) || /\.tsx?$/.test(f))).toEqual([]);
    const pkg = JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }));
    // Everything else the CLI uses is bundled into dist-cli/; sql.js reads its .wasm from its own folder.
    expect(Object.keys(pkg.dependencies ?? {})).toEqual(['sql.js']);
    // No TypeScript at run time: nothing the installed CLI loads needs tsx (there is no src/ to fall back to).
    expect(readdirSync(join(install, 'node_modules')).filter((f) => !f.startsWith('.'))).toEqual([
      'sql.js',
      'tierscope',
    ]);
  });

  it('`npx tierscope` opens on the sessions table with one row per session of ~/.claude/projects', async () => {
    const root = join(home, '.claude', 'projects');
    const expected = sessionsOf(listFolder(root), 'projects').length + orphanAgentFiles(root).length;
    // The tarball's own `scan` agrees on the sessions there (every session of the folder loads).
    const scanned = JSON.parse(npx(['scan', root, '--json'])) as { sessions: unknown[]; skipped: unknown[] };
    expect([scanned.sessions.length, scanned.skipped]).toEqual([expected, []]);
    const server = await spawnServer('npx', ['tierscope', '--port', String(await freePort())], {
      cwd: install,
      env: userEnv({ HOME: home }),
    });
    try {
      expect(server.output()).toContain('serving Claude Code (~/.claude/projects)');
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?folder=1$/);
      const rows = await sessionRows(server.url, expected, 'npx-tierscope-sessions');
      expect(rows).toHaveLength(expected);
    } finally {
      await server.stop();
    }
  });

  it('lists the sessions of every home found (~/.codex/sessions beside ~/.claude/projects); --open opens the URL', async () => {
    const day = join(home, '.codex', 'sessions', '2025', '11', '13');
    mkdirSync(day, { recursive: true });
    copyWritable(CODEX, day);
    const projects = join(home, '.claude', 'projects');
    const claude = sessionsOf(listFolder(projects), 'projects').length + orphanAgentFiles(projects).length;
    const codex = readdirSync(CODEX).filter((f) => f.endsWith('.jsonl')).length;
    // `--open` hands the URL to the desktop's opener (xdg-open on Linux): a stand-in records what it was given.
    const bin = join(work, 'bin');
    const opened = join(work, 'opened');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\necho "$@" > '${opened}'\n`, { mode: 0o755 });
    const server = await spawnServer('npx', ['tierscope', '--open', '--port', String(await freePort())], {
      cwd: install,
      env: userEnv({ HOME: home, PATH: `${bin}:${process.env.PATH}` }),
    });
    try {
      expect(server.output()).toContain('Claude Code (~/.claude/projects) and Codex (~/.codex/sessions)');
      await expect.poll(() => (existsSync(opened) ? readFileSync(opened, 'utf8').trim() : null)).toBe(server.url);
      const rows = await sessionRows(server.url, claude + codex);
      expect(rows.filter((p) => p.startsWith('codex/'))).toHaveLength(codex);
      expect(rows.filter((p) => p.startsWith('claude-code/'))).toHaveLength(claude);
    } finally {
      await server.stop();
      rmSync(join(home, '.codex'), { recursive: true, force: true });
    }
  });

  it('`npx tierscope <file>` opens that session with its sub-agents', async () => {
    const file = join(home, '.claude', 'projects', WITH_SUBAGENT);
    const server = await spawnServer('npx', ['tierscope', file, '--port', String(await freePort())], {
      cwd: install,
      env: userEnv({ HOME: home }),
    });
    const s = await openBrowser(server.url);
    try {
      await s.page.goto(server.url);
      await s.page.waitForFunction(
        (name) => {
          const el = document.querySelector('[data-testid="load-status"]');
          return el?.getAttribute('data-status') === 'ready' && (el.textContent ?? '').includes(name);
        },
        basename(file),
        { timeout: 120_000 },
      );
      // The same threads (the sub-agent's included), messages and requests as `analyze` counts with companions.
      await expectLoadStatus(s.page, await cliReport(join(PROJECTS, WITH_SUBAGENT)));
      await screenshot(s.page, 'npx-tierscope-file');
      expect(s.consoleErrors).toEqual([]);
      expect(s.externalRequests).toEqual([]);
    } finally {
      await s.close();
      await server.stop();
    }
  });

  it('every other command answers from the tarball as from the repo', async () => {
    const file = join(PROJECTS, WITH_SUBAGENT);
    expect(JSON.parse(npx(['analyze', file, '--json']))).toEqual(await cliReport(file));
    expect(npx(['analyze', file])).toContain('29ccd257-68b1-427f-ae5f-6524b7cb6f20.jsonl');
    expect(npx(['share', file, '--redact']).trim()).toMatch(/^http:\/\/127\.0\.0\.1:5173\/#s=1\.[A-Za-z0-9_-]+$/);
    const out = join(work, 'min.tierscope.json');
    npx(['minimize', file, '--predicate', 'break:sidechain', '--out', out]);
    expect(statSync(out).size).toBeGreaterThan(100);
    expect(npx(['scan', join(home, '.claude', 'projects'), '--csv']).split('\n')[0]).toMatch(
      /^path,sessionId,project,/,
    );
    expect(npx(['--help'])).toContain('usage: tierscope');
    // A database: the installed sql.js, its .wasm read from its own folder.
    const db = join(ROOT, 'test/fixtures/opencode/one-session/opencode.db');
    expect(JSON.parse(npx(['analyze', db, '--json']))).toEqual(await cliReport(db));
  });

  /** Open the sessions table at `url` and wait until the scan is done; the paths of its rows. */
  async function sessionRows(url: string, expected: number, shot?: string): Promise<string[]> {
    const s = await openBrowser(url, { height: 1400 });
    try {
      await s.page.goto(url);
      await s.page.getByTestId('sessions-table').waitFor({ timeout: 120_000 });
      expect(Number(await s.page.getByTestId('sessions-table').getAttribute('data-rows'))).toBe(expected);
      const rows = await s.page
        .getByTestId('session-row')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-path') ?? ''));
      if (shot) await screenshot(s.page, shot);
      expect(s.consoleErrors).toEqual([]);
      expect(s.externalRequests).toEqual([]);
      return rows;
    } finally {
      await s.close();
    }
  }
});
