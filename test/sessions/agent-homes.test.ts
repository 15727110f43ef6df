// `scan` over a folder laid out as the agents added in issue 31 keep their sessions (Gemini CLI's tmp/<project>/
// chats/ with a sub-agent chat, Cline and Roo task folders, a Cline 4 session with its manifest, an opencode
// database of several sessions with another in WAL mode) beside a Claude Code project: every session is a row,
// the files that belong to a session are none, and each row is what `analyze --json` says of its file.
import { cpSync, existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { AGENT_HOMES } from '../../src/sessions/agent-homes.ts';
import { agentFixture } from '../helpers/agent-fixtures.ts';
import { runCapture } from '../helpers/cli.ts';
import { REPO_ROOT } from '../helpers/fixtures.ts';

type Row = { path: string; format: string; requests: number; usd: number | null; project: string; sessionId: string };

describe('scan over the agents’ homes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tierscope-homes-'));
  let rows: Row[] = [];
  let skipped: { path: string }[] = [];
  beforeAll(async () => {
    const put = (from: string, to: string) => {
      mkdirSync(join(dir, to, '..'), { recursive: true });
      cpSync(from, join(dir, to), { recursive: true });
    };
    put(join(REPO_ROOT, 'public/samples/cache-break.jsonl'), 'claude/projects/demo/cache-break.jsonl');
    put(
      agentFixture('gemini-cli/session-2026-03-26T04-33-b36c9e17.jsonl'),
      'gemini/tmp/proj1/chats/session-2026-03-26T04-33-b36c9e17.jsonl',
    );
    put(agentFixture('gemini-cli/yoavf-pomodoro-timer.json'), 'gemini/tmp/proj1/chats/b36c9e17-0000/sub.json');
    put(agentFixture('cline/tasks/1783376868634'), 'cline/tasks/1783376868634');
    put(agentFixture('cline/roo-tasks/1783376868634'), 'roo/tasks/1783376868634');
    put(agentFixture('cline/sessions/1784094124598_rruoq'), 'cline4/sessions/1784094124598_rruoq');
    put(agentFixture('opencode/three-sessions/opencode.db'), 'opencode/opencode.db');
    put(agentFixture('opencode/wal'), 'opencode-wal');
    const r = await runCapture(['scan', dir, '--json']);
    expect(r.code).toBe(0);
    ({ sessions: rows, skipped } = JSON.parse(r.out));
  }, 120_000);

  it('lists every session and no companion file', () => {
    expect(skipped).toEqual([]);
    expect(rows.map((r) => `${r.format} ${r.path}`).sort()).toEqual([
      'claude-code claude/projects/demo/cache-break.jsonl',
      'cline cline/tasks/1783376868634/api_conversation_history.json',
      'cline cline4/sessions/1784094124598_rruoq/1784094124598_rruoq.messages.json',
      'cline roo/tasks/1783376868634/api_conversation_history.json',
      'gemini-cli gemini/tmp/proj1/chats/session-2026-03-26T04-33-b36c9e17.jsonl',
      'opencode opencode-wal/opencode.db#ses_pomodoro01',
      'opencode opencode-wal/opencode.db#ses_walonly001',
      'opencode opencode/opencode.db#ses_pomodoro01',
      'opencode opencode/opencode.db#ses_readme0001',
      'opencode opencode/opencode.db#ses_tests00001',
    ]);
    expect(rows.find((r) => r.format === 'gemini-cli')?.project).toBe('proj1');
    expect(rows.find((r) => r.path === 'opencode/opencode.db#ses_readme0001')?.project).toBe('pomodoro');
  });

  it('each row is what analyze --json computes for its file (a database session with --session)', async () => {
    for (const row of rows) {
      const [file, session] = row.path.split('#');
      const args = ['analyze', join(dir, file), '--json', ...(session ? ['--session', session] : [])];
      const report = JSON.parse((await runCapture(args)).out) as {
        format: string;
        counts: { requests: number };
        totals: { cost: { recorded: { usd: number } | null } };
      };
      expect(report.format, row.path).toBe(row.format);
      expect(report.counts.requests, row.path).toBe(row.requests);
      expect(report.totals.cost.recorded?.usd ?? null, row.path).toBeCloseTo(row.usd ?? 0, 6);
    }
  }, 120_000);

  it('the Gemini sub-agent chat in chats/<parent id>/ is read with its session', () => {
    const gemini = rows.find((r) => r.format === 'gemini-cli') as Row & { subagents: number; companions: string[] };
    expect(gemini.subagents).toBe(1);
    expect(gemini.companions).toEqual(['gemini/tmp/proj1/chats/b36c9e17-0000/sub.json']);
  });
});

describe('the agents’ session homes', () => {
  it('each home, laid out as its agent keeps it under $HOME, is read by scan with no file skipped', async () => {
    const home = mkdtempSync(join(tmpdir(), 'tierscope-home-'));
    const at = (row: string, rel: string, from: string) => {
      mkdirSync(join(home, row, rel, '..'), { recursive: true });
      cpSync(from, join(home, row, rel), { recursive: true });
    };
    const gemini = AGENT_HOMES.find((h) => h.format === 'gemini-cli')?.path ?? '';
    at(
      gemini,
      'a1b2/chats/session-2026-03-26T04-33-b36c9e17.jsonl',
      agentFixture('gemini-cli/session-2026-03-26T04-33-b36c9e17.jsonl'),
    );
    at(gemini, 'a1b2/logs.json', agentFixture('cline/sessions/success/success.messages.json'));
    const opencode = AGENT_HOMES.find((h) => h.format === 'opencode')?.path ?? '';
    at(opencode, 'opencode.db', agentFixture('opencode/one-session/opencode.db'));
    at(
      opencode,
      'storage/session_diff/ses_pomodoro01.json',
      agentFixture('cline/sessions/success/success.messages.json'),
    );
    const cline = AGENT_HOMES.find((h) => h.label === 'Cline (VS Code)')?.path ?? '';
    at(cline, '1783376868634', agentFixture('cline/tasks/1783376868634'));
    const cline4 = AGENT_HOMES.find((h) => h.label === 'Cline')?.path ?? '';
    at(cline4, '1784094124598_rruoq', agentFixture('cline/sessions/1784094124598_rruoq'));
    for (const h of AGENT_HOMES) {
      const dir = join(home, h.path);
      if (!existsSync(dir)) continue;
      const out = JSON.parse((await runCapture(['scan', dir, '--json'])).out) as {
        sessions: Row[];
        skipped: unknown[];
      };
      expect(out.skipped, h.path).toEqual([]);
      expect(out.sessions.length, h.path).toBeGreaterThan(0);
      for (const r of out.sessions) expect(r.format, h.path).toBe(h.format);
    }
  }, 120_000);
});
