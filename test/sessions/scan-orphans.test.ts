// A sub-agent file whose session file is not in the folder is billed all the same: `scan` makes it a row of its own
// (ccusage counts it too), and a session lists as companions only the sub-agent files its parser read — in a 2.0
// project folder every session is handed every sibling `agent-*.jsonl`, and keeps those with its own sessionId.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { listFolder } from '../../src/cli/node-folder.ts';
import { fileFromPath } from '../../src/cli/node-input.ts';
import { type ScanResult, scanSessions } from '../../src/sessions/scan.ts';
import { firstSessionIdOf } from '../helpers/claude-code-lines.ts';
import { describeWild, wildPath } from '../helpers/fixtures.ts';

const RABBIT = 'claude-code/projects/ccl--Users-dain-workspace-coderabbit-review-helper';
const SESSION = 'cb2e607c-c758-415a-8b45-c49e4631906a';
const TREES = 'claude-code/projects/ccl--experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1';

/** The first sessionId a Claude Code file names (test/helpers/claude-code-lines.ts). */
const firstSessionId = (path: string) => firstSessionIdOf(readFileSync(path, 'utf8'));

describeWild('scan keeps sub-agent files whose session file is missing', () => {
  let dir = '';
  let scan: ScanResult;
  const agents = readdirSync(wildPath(RABBIT)).filter((f) => f.startsWith('agent-'));
  const own = agents.filter((f) => firstSessionId(join(wildPath(RABBIT), f)) === SESSION);
  const nested = readdirSync(wildPath(`${TREES}/subagents`)).filter((f) => f.endsWith('.jsonl'));

  beforeAll(async () => {
    // p1: a 2.0 project folder, one session file and every session's agent files; p2: a 2.1 session's
    // subagents/ folder without its session file.
    dir = mkdtempSync(join(tmpdir(), 'tierscope-orphans-'));
    cpSync(wildPath(RABBIT), join(dir, 'p1'), { recursive: true });
    mkdirSync(join(dir, 'p2/ef958aa1-0e93-49f0-bb71-150f63befcd1'), { recursive: true });
    cpSync(wildPath(`${TREES}/subagents`), join(dir, 'p2/ef958aa1-0e93-49f0-bb71-150f63befcd1/subagents'), {
      recursive: true,
    });
    scan = await scanSessions(listFolder(dir), {
      rootName: 'projects',
      open: (path, name) => ({ ...fileFromPath(join(dir, path)), name }),
    });
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('lists as a session companions only the agent files its parser read', () => {
    expect(own.length).toBeGreaterThan(0);
    expect(own.length).toBeLessThan(agents.length);
    const session = scan.rows.find((r) => r.path === `p1/${SESSION}.jsonl`);
    expect(session?.companions.sort()).toEqual(own.map((f) => `p1/${f}`).sort());
    expect(session?.subagents).toBe(own.length);
    expect(session?.orphan).toBe(false);
  });

  it('makes every other agent file a row of its own, in the project its session would sit in', () => {
    const orphans = [
      ...agents.filter((f) => !own.includes(f)).map((f) => `p1/${f}`),
      ...nested.map((f) => `p2/ef958aa1-0e93-49f0-bb71-150f63befcd1/subagents/${f}`),
    ];
    const rows = scan.rows.filter((r) => r.path !== `p1/${SESSION}.jsonl`);
    expect(rows.map((r) => r.path).sort()).toEqual(orphans.sort());
    expect(scan.skipped).toEqual([]);
    for (const r of rows) {
      expect(r.project, r.path).toBe(r.path.split('/')[0]);
      expect(r.format).toBe('claude-code');
      expect(r.orphan).toBe(true);
      // Its session's id, as the file writes it: the row says which session it belongs to.
      expect(r.sessionId).toBe(firstSessionId(join(dir, r.path)) ?? null);
    }
    // Each is billed: every agent file of the folder is counted once, as a companion or as a row.
    expect(rows.every((r) => r.usd !== null && r.usd > 0)).toBe(true);
    const counted = [...scan.rows.flatMap((r) => r.companions), ...rows.map((r) => r.path)];
    expect(new Set(counted).size).toBe(counted.length);
    expect(counted).toHaveLength(agents.length + nested.length);
  });
});
