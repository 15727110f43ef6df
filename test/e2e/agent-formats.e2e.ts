// The agents added in issue 31, opened in Chromium the way a user does: a Gemini CLI `.jsonl` chat, an opencode
// database (sql.js compiled in the engine worker under its own Content-Security-Policy) and an OTLP JSON file of
// GenAI spans each show their threads, recorded dollars as `tierscope analyze --json` reports them and the cache
// timeline; a database of several sessions opens the sessions table; and a folder holding Claude Code, Codex,
// Gemini CLI and Cline sessions lists them all.
import { cpSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/analyses/report.ts';
import { fmtUsd } from '../../src/lib/money.ts';
import { agentFixture } from '../helpers/agent-fixtures.ts';
import { REPO_ROOT, WILD_DIR } from '../helpers/fixtures.ts';
import { type Session, screenshot, stopServer } from './harness.ts';
import { cliReport, counted, loadFiles, openApp, runId, waitForRun } from './ui.ts';

let s: Session;
beforeAll(async () => {
  s = await openApp();
}, 180_000);
afterAll(async () => {
  await s?.close();
  await stopServer();
});

/** What the app shows of the loaded file, beside the CLI's report of it. */
async function expectShown(report: Report, shot: string): Promise<void> {
  const page = s.page;
  const status = (await page.getByTestId('load-status').textContent()) ?? '';
  expect(status).toContain(report.format);
  expect(status).toContain(counted(report.counts.threads, 'thread'));
  expect(status).toContain(counted(report.counts.requests, 'request'));
  expect(await page.getByTestId('thread-item').count()).toBe(report.counts.threads);
  const usd = report.totals.cost.recorded?.usd;
  expect(usd).toBeGreaterThan(0);
  expect(await page.getByTestId('stat-cost-recorded').textContent()).toContain(fmtUsd(usd ?? 0));
  await page.getByTestId('cache-timeline').locator('svg').first().waitFor({ timeout: 30_000 });
  expect(await page.getByTestId('cache-timeline').textContent()).toMatch(/\d+ requests/);
  await screenshot(page, shot);
}

describe('new formats open in the app', () => {
  it('a Gemini CLI .jsonl chat', async () => {
    const path = agentFixture('gemini-cli/session-2026-03-26T04-33-b36c9e17.jsonl');
    await loadFiles(s.page, [path]);
    await expectShown(await cliReport(path), 'gemini-cli-jsonl');
  }, 180_000);

  it('an opencode database (one session and its sub-agent session)', async () => {
    const path = agentFixture('opencode/one-session/opencode.db');
    const before = await runId(s.page);
    await s.page.getByTestId('file-input').setInputFiles([path]);
    await s.page.waitForFunction(
      () => {
        const el = document.querySelector('[data-testid="load-status"]');
        return el?.getAttribute('data-status') === 'ready' && (el.textContent ?? '').includes('opencode');
      },
      undefined,
      { timeout: 120_000 },
    );
    await waitForRun(s.page, before);
    await expectShown(await cliReport(path), 'opencode-db');
    expect(await s.page.locator('[data-testid="thread-item"][data-kind="sidechain"]').count()).toBe(1);
  }, 180_000);

  it('an OTLP JSON file of GenAI spans', async () => {
    const path = agentFixture('otel-genai/pomodoro-genai-spans.json');
    await loadFiles(s.page, [path]);
    await expectShown(await cliReport(path), 'otel-genai');
  }, 180_000);

  it('a database of several sessions opens the sessions table; a row opens its session', async () => {
    const path = agentFixture('opencode/three-sessions/opencode.db');
    await s.page.getByTestId('file-input').setInputFiles([path]);
    await s.page.waitForFunction(
      () => document.querySelectorAll('[data-testid="session-row"]').length === 3,
      undefined,
      {
        timeout: 120_000,
      },
    );
    const paths = await s.page
      .getByTestId('session-row')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-path')).sort());
    expect(paths).toEqual(['opencode.db#ses_pomodoro01', 'opencode.db#ses_readme0001', 'opencode.db#ses_tests00001']);
    await screenshot(s.page, 'opencode-sessions');
    await s.page.locator('[data-testid="session-row"][data-path="opencode.db#ses_readme0001"]').click();
    await s.page.waitForFunction(
      (want) => {
        const el = document.querySelector('[data-testid="load-status"]');
        const text = el?.textContent ?? '';
        return el?.getAttribute('data-status') === 'ready' && text.includes('opencode') && text.includes(want);
      },
      counted(1, 'thread'),
      { timeout: 120_000 },
    );
    expect((await s.page.getByTestId('load-status').textContent()) ?? '').toContain(counted(1, 'request'));
    await waitForRun(s.page, 0);
  }, 180_000);
});

describe('a folder of several agents’ sessions', () => {
  it('lists the Claude Code, Codex, Gemini CLI and Cline sessions in the sessions table', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tierscope-agents-'));
    const put = (from: string, to: string) => {
      mkdirSync(join(dir, to, '..'), { recursive: true });
      cpSync(from, join(dir, to), { recursive: true });
    };
    put(join(REPO_ROOT, 'public/samples/cache-break.jsonl'), 'claude/projects/demo/cache-break.jsonl');
    const rollout = 'moonmind-rollout-2025-11-13T16-00-16-019a7fa9-a846-7393-8d7a-9997d08b0096.jsonl';
    put(join(WILD_DIR, 'codex', rollout), `codex/sessions/2025/11/13/${rollout}`);
    put(
      agentFixture('gemini-cli/yoavf-pomodoro-timer.json'),
      'gemini/tmp/pomodoro/chats/session-2025-10-21T20-04-0b23371a.json',
    );
    put(agentFixture('cline/tasks/1783376868634'), 'cline/tasks/1783376868634');
    await s.page.getByTestId('open-folder-input').setInputFiles(dir);
    await s.page.waitForFunction(
      () => document.querySelectorAll('[data-testid="session-row"]').length === 4,
      undefined,
      {
        timeout: 120_000,
      },
    );
    const rows = await s.page
      .getByTestId('session-row')
      .evaluateAll((list) =>
        list.map((r) => [r.getAttribute('data-path'), r.querySelector('[data-col="usd"]')?.textContent ?? '']).sort(),
      );
    expect(rows.map((r) => r[0])).toEqual([
      'claude/projects/demo/cache-break.jsonl',
      'cline/tasks/1783376868634/api_conversation_history.json',
      `codex/sessions/2025/11/13/${rollout}`,
      'gemini/tmp/pomodoro/chats/session-2025-10-21T20-04-0b23371a.json',
    ]);
    for (const [path, usd] of rows) {
      const report = await cliReport(join(dir, path ?? ''));
      const recorded = report.totals.cost.recorded?.usd;
      expect((usd ?? '').replace(/ \*$/, ''), path ?? '').toBe(recorded === undefined ? '—' : fmtUsd(recorded));
    }
    await screenshot(s.page, 'agents-folder');
  }, 240_000);
});
