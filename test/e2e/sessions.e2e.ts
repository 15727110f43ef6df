// A folder of sessions opened in the app (SPEC §6 Sessions): ../shared/fixtures/wild/claude-code/projects, laid
// out as ~/.claude/projects, picked as a folder lists every session with the USD, request count and hit rate that
// `tierscope analyze --json` reports for its file, under a header naming the folder; sorting, the project filter and
// per-day totals work; a click opens the session with its sub-agents.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Report } from '../../src/analyses/report.ts';
import { fmtUsd } from '../../src/lib/money.ts';
import { describeWild, WILD_DIR } from '../helpers/fixtures.ts';
import { orphanAgentFiles } from '../helpers/orphan-agents.ts';
import { type Session, screenshot, stopServer } from './harness.ts';
import { cliReport, openApp, waitForRun } from './ui.ts';

const PROJECTS = join(WILD_DIR, 'claude-code/projects');

/** Every session file of the folder, relative to it, and each sub-agent file whose session file is not there
 *  (a row of its own: it is billed all the same). */
function sessionFiles(): string[] {
  return [
    ...readdirSync(PROJECTS).flatMap((p) =>
      readdirSync(join(PROJECTS, p))
        .filter((f) => f.endsWith('.jsonl') && !f.startsWith('agent-'))
        .map((f) => `${p}/${f}`),
    ),
    ...orphanAgentFiles(PROJECTS),
  ];
}

type Shown = { path: string; cells: Record<string, string> };

async function shownRows(page: Page): Promise<Shown[]> {
  return page.getByTestId('session-row').evaluateAll((rows) =>
    rows.map((r) => ({
      path: r.getAttribute('data-path') ?? '',
      cells: Object.fromEntries(
        [...r.querySelectorAll('[data-col]')].map((c) => [c.getAttribute('data-col'), c.textContent ?? '']),
      ),
    })),
  );
}

describeWild('the sessions of a Claude Code projects folder', () => {
  let s: Session;
  const files = sessionFiles();

  beforeAll(async () => {
    s = await openApp();
    await s.page.getByTestId('open-folder-input').setInputFiles(PROJECTS);
    await s.page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid="session-row"]').length === n,
      files.length,
      { timeout: 120_000 },
    );
  }, 180_000);
  afterAll(async () => {
    await s?.close();
    await stopServer();
  });

  it('lists every session with the USD, requests and hit rate analyze --json reports', async () => {
    // The header names the folder, not the sample the app opened on.
    expect(await s.page.getByTestId('folder-status').textContent()).toMatch(/^projects\s*·\s*\d+ sessions/);
    expect(await s.page.getByTestId('load-status').count()).toBe(0);
    const rows = await shownRows(s.page);
    expect(rows.map((r) => r.path).sort()).toEqual([...files].sort());
    for (const r of rows) {
      const report: Report = await cliReport(join(PROJECTS, r.path));
      const usd = report.totals.cost.recorded?.usd;
      const hit = report.totals.observed?.hitRate;
      expect({
        path: r.path,
        requests: r.cells.requests,
        usd: r.cells.usd.replace(/ \*$/, ''),
        hit: r.cells.hitRate,
      }).toEqual({
        path: r.path,
        requests: String(report.counts.requests),
        usd: usd === undefined ? '—' : fmtUsd(usd),
        hit: hit === undefined || hit === null ? '—' : `${(hit * 100).toFixed(1)}%`,
      });
    }
    await screenshot(s.page, 'sessions-table');
  }, 300_000);

  it('shows per-day totals that add up to the rows (each request on its own day)', async () => {
    const days = s.page.getByTestId('day-total');
    const n = await days.count();
    expect(n).toBeGreaterThan(5);
    const sum = (attr: string) =>
      days.evaluateAll((els, a) => els.reduce((k, e) => k + Number(e.getAttribute(a)), 0), attr);
    const rows = await shownRows(s.page);
    expect(await sum('data-requests')).toBe(rows.reduce((k, r) => k + Number(r.cells.requests), 0));
    // A session counts on each day it sent a request: at least once, more when it ran past midnight.
    expect(await sum('data-sessions')).toBeGreaterThanOrEqual(files.length);
  });

  it('sorts by a column and filters by project', async () => {
    await s.page.getByTestId('sessions-sort-requests').click();
    // The header shows the sort as soon as it is clicked; the rows follow when the engine answers: wait for them.
    const counts = async () => (await shownRows(s.page)).map((r) => Number(r.cells.requests));
    const sorted = (await counts()).sort((a, b) => b - a);
    await expect.poll(counts).toEqual(sorted);
    expect(await s.page.getByTestId('sessions-sort-requests').getAttribute('data-sort')).toBe('desc');
    await s.page.getByTestId('sessions-project').selectOption('ccl--Users-dain-workspace-danieldemmel-me-next');
    await expect
      .poll(async () => (await shownRows(s.page)).map((r) => r.cells.project))
      .toEqual(
        Array(files.filter((f) => f.startsWith('ccl--Users-dain-workspace-danieldemmel-me-next/')).length).fill(
          'ccl--Users-dain-workspace-danieldemmel-me-next',
        ),
      );
    await s.page.getByTestId('sessions-project').selectOption('');
    await s.page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid="session-row"]').length === n,
      files.length,
    );
  });

  it('opens a clicked session with its sub-agents', async () => {
    const path = 'ccl--experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl';
    await s.page.locator(`[data-testid="session-row"][data-path="${path}"]`).click();
    await s.page.waitForFunction(() => {
      const el = document.querySelector('[data-testid="load-status"]');
      return el?.getAttribute('data-status') === 'ready' && (el.textContent ?? '').includes('ef958aa1');
    });
    await waitForRun(s.page);
    const sub = s.page.locator('[data-testid="thread-item"][data-kind="sidechain"]');
    await expect.poll(() => sub.count()).toBe(6);
    await screenshot(s.page, 'sessions-opened');
    await s.page.getByTestId('sessions-toggle').click();
    await s.page.getByTestId('sessions-table').waitFor();
    await expect.poll(() => s.page.getByTestId('session-row').count()).toBe(files.length);
    expect(s.consoleErrors).toEqual([]);
    expect(s.externalRequests).toEqual([]);
  });
});
