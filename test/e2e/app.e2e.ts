// The app shell as a person meets it: the visible file input, a second load replacing the first, paste,
// an unknown format explained, a truncated .json and a parentUuid cycle named, parse issues with line numbers,
// the summary bar's "—" for logs without usage (no recorded dollars, a simulated estimate), the theme switch,
// the key help and `?src=`.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fmtUsd } from '../../src/lib/money.ts';
import { describeReal } from '../helpers/fixtures.ts';
import { type Session, stopServer } from './harness.ts';
import { cliReport, loadFiles, openApp, realPath, showThread, waitForRun } from './ui.ts';

const FE = 'claude-code/ccviewer-fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl';
const SMALL = 'claude-code/ccviewer-1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl';

describeReal('app shell', () => {
  let s: Session;
  beforeAll(async () => {
    s = await openApp();
  });
  afterAll(async () => {
    await s?.close();
    await stopServer();
  });

  it('has a visible file input and the sample picker in the header', async () => {
    expect(await s.page.getByTestId('file-input').isVisible()).toBe(true);
    expect(await s.page.getByTestId('sample-picker').isVisible()).toBe(true);
    expect(await s.page.getByTestId('drop-zone').count()).toBe(1);
  });

  it('replaces the first file cleanly when a second one is loaded', async () => {
    await loadFiles(s.page, [realPath(FE)]);
    expect(await s.page.getByTestId('thread-item').count()).toBe(6);
    await showThread(s.page, 'sidechain:f4ab2bf6-d642-431a-85cb-66691f24c404');
    await s.page.locator('[data-testid="transcript-row"][data-message-index="5"]').click();
    await s.page.getByTestId('detail-header').waitFor();
    await s.page.getByTestId('transcript-search').fill('Write');

    await loadFiles(s.page, [realPath(SMALL)]);
    expect(await s.page.getByTestId('thread-item').count()).toBe(1);
    const rows = s.page.getByTestId('transcript-rows');
    expect(await rows.getAttribute('data-thread')).toBe('main');
    expect(await rows.getAttribute('data-count')).toBe('15');
    expect(await s.page.getByTestId('detail-header').count()).toBe(0);
    expect(await s.page.getByTestId('transcript-search').inputValue()).toBe('');
    const status = (await s.page.getByTestId('load-status').textContent()) ?? '';
    expect(status).toContain('ccviewer-1af7fc5e');
    expect(status).not.toContain('fe5e1c67');
    expect(await s.page.getByTestId('summary-bar').textContent()).toMatch(/requests\s*7(?!\d)/);
    expect(s.consoleErrors).toEqual([]);
  });

  it('loads pasted JSONL', async () => {
    const text = readFileSync(realPath('claude-code/synthetic-ccviewer-agent-test-hash-123.jsonl'), 'utf8');
    await s.page.getByTestId('paste-button').click();
    await s.page.getByTestId('paste-text').fill(text);
    await s.page.getByTestId('paste-load').click();
    await s.page.waitForFunction(() => {
      const el = document.querySelector('[data-testid="load-status"]');
      return el?.getAttribute('data-status') === 'ready' && (el.textContent ?? '').includes('pasted.jsonl');
    });
    expect(await s.page.getByTestId('load-status').textContent()).toContain('claude-code');
    await s.page.getByTestId('paste-dialog').waitFor({ state: 'hidden' });
  });

  it('explains an unknown format, naming the formats it tried, and keeps what was on screen', async () => {
    const rows = await s.page.getByTestId('transcript-row').count();
    await s.page.getByTestId('paste-button').click();
    await s.page.getByTestId('paste-text').fill('hello, this is not a transcript\njust words\n');
    await s.page.getByTestId('paste-load').click();
    const failure = s.page.getByTestId('load-failure');
    await failure.waitFor();
    expect(await failure.textContent()).toMatch(
      /Could not open pasted\.json.*tried tierscope, claude-trace.*Still showing pasted\.jsonl/s,
    );
    // The pasted session loaded before stays on screen, as it was.
    expect(await s.page.getByTestId('load-status').getAttribute('data-status')).toBe('ready');
    expect(await s.page.getByTestId('load-status').textContent()).toContain('pasted.jsonl');
    expect(await s.page.getByTestId('transcript-row').count()).toBe(rows);
    await failure.getByRole('button', { name: 'Dismiss' }).click();
    expect(await failure.count()).toBe(0);
  });

  it('names a .json cut mid-write truncated at its byte, and lists a parentUuid cycle as a parse issue', async () => {
    const chat = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hello there' }] }, null, 2);
    const cut = chat.slice(0, 60);
    await s.page.getByTestId('paste-button').click();
    await s.page.getByTestId('paste-text').fill(cut);
    await s.page.getByTestId('paste-load').click();
    await s.page.getByTestId('load-failure').waitFor();
    const text = (await s.page.getByTestId('load-failure').textContent()) ?? '';
    expect(text).toContain(`is truncated: its JSON document stops at byte ${cut.length} `);
    expect(text).not.toMatch(/first line looks like/);
    // Line 3 names line 6 as its parent: the loop is cut there, every line stays, one warning says so.
    const line = (uuid: string, parent: string | null, type: 'user' | 'assistant', t: string) =>
      JSON.stringify({
        type,
        uuid,
        parentUuid: parent,
        sessionId: 's',
        isSidechain: false,
        timestamp: '2025-09-01T00:00:00Z',
        message:
          type === 'user'
            ? { role: 'user', content: t }
            : { id: `m-${uuid}`, role: 'assistant', model: 'claude-x', content: [{ type: 'text', text: t }] },
      });
    const log = [
      line('u1', null, 'user', 'q1'),
      line('a1', 'u1', 'assistant', 'r1'),
      line('u2', 'a3', 'user', 'q2'),
      line('a2', 'u2', 'assistant', 'r2'),
      line('u3', 'a2', 'user', 'q3'),
      line('a3', 'u3', 'assistant', 'r3'),
    ].join('\n');
    await s.page.getByTestId('paste-button').click();
    await s.page.getByTestId('paste-text').fill(log);
    await s.page.getByTestId('paste-load').click();
    await s.page.locator('[data-testid="load-status"][data-status="ready"]').waitFor();
    await expect.poll(() => s.page.getByTestId('transcript-row').count()).toBe(6);
    const issues = s.page.getByTestId('parse-issues');
    await issues.locator('summary').click();
    expect(await issues.getByTestId('parse-issue').first().textContent()).toMatch(
      /line 3.*parentUuid "a3" makes a cycle \(line 3 → 6 → 5 → 4 → 3.*cut on line 3 and linked to the previous line 2/,
    );
    await issues.locator('summary').click();
  });

  it('lists parse issues with line numbers and counts', async () => {
    await loadFiles(s.page, [realPath('claude-code/synthetic-agentsessions-claude-linetypes.jsonl')]);
    const issues = s.page.getByTestId('parse-issues');
    // The parentUuid that names no line of this (fully read) file is a note, not a warning.
    expect(await issues.locator('summary').textContent()).toMatch(/6 parse issues.*4 warnings.*2 info/);
    await issues.locator('summary').click();
    const first = issues.getByTestId('parse-issue').first();
    await first.waitFor({ state: 'visible' });
    expect(await first.textContent()).toMatch(/line 8.*tool_use block has no "id"/);
    await issues.locator('summary').click();
  });

  it('shows "—" with a reason for a log without usage: no recorded cost, a simulated estimate per model', async () => {
    const file = realPath('swe-agent/swe-agent-marshmallow-1867-function-calling-replace.traj');
    await loadFiles(s.page, [file]);
    const obs = s.page.getByTestId('stat-hit-rate-observed');
    expect(await obs.textContent()).toBe('—');
    expect(await obs.getAttribute('title')).toMatch(/no cache usage/);
    expect(await s.page.getByTestId('stat-hit-rate-simulated').textContent()).toMatch(/^≈\d+%$/);
    const recorded = s.page.getByTestId('stat-cost-recorded');
    expect(await recorded.textContent()).toBe('—');
    expect(await recorded.getAttribute('title')).toMatch(/records no usage/);
    const report = await cliReport(file);
    expect(report.totals.cost.recorded).toBeNull();
    expect(await s.page.getByTestId('stat-cost-simulated').textContent()).toBe(
      `≈${fmtUsd(report.totals.cost.simulated.usd)}`,
    );
    const row = s.page.locator('[data-testid="cost-model-row"][data-model="gpt-4o"]');
    expect(await row.getByTestId('cost-model-usd').textContent()).toMatch(/^≈\$0\.\d{4}$/);
    expect(await s.page.getByTestId('summary-bar').textContent()).toMatch(/calibrated ×\d\.\d\d|uncalibrated/);
  });

  it('switches theme (light, dark, follow the OS)', async () => {
    const bg = () => s.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const light = await bg();
    await s.page.locator('[data-theme-option="dark"]').click();
    await expect.poll(() => s.page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await expect.poll(bg).not.toBe(light);
    await s.page.locator('[data-theme-option="system"]').click();
    await expect.poll(bg).toBe(light);
  });

  it('opens the key help with ? and closes it with Esc', async () => {
    await s.page.locator('body').click({ position: { x: 5, y: 890 } });
    await s.page.keyboard.press('?');
    const help = s.page.getByTestId('help-overlay');
    await help.waitFor({ state: 'visible' });
    expect(await help.textContent()).toMatch(/j \/ k.*\[ \/ \].*\/.*t \/ T.*Esc/s);
    await s.page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
    expect(s.consoleErrors).toEqual([]);
    expect(s.externalRequests).toEqual([]);
  });
});

describe('?src=', () => {
  it('with nothing on screen, a file that is no transcript gets the error page naming what Tierscope reads', async () => {
    const { openSession } = await import('./harness.ts');
    const s = await openSession();
    try {
      await s.page.goto(`${s.baseUrl}?src=samples/index.json`);
      await s.page.locator('[data-testid="load-status"][data-status="error"]').waitFor({ timeout: 60_000 });
      const text = (await s.page.getByTestId('load-status').textContent()) ?? '';
      expect(text).toMatch(/reads Claude Code JSONL/);
      expect(await s.page.getByTestId('load-error').textContent()).toMatch(
        /Could not load samples\/index\.json.*Tierscope readsClaude Code/s,
      );
      expect(await s.page.getByTestId('transcript-row').count()).toBe(0);
      expect(await s.page.getByTestId('stat-hit-rate-simulated').count()).toBe(0);
      expect(s.consoleErrors).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('a path with no file says so (the server answers its index page), not that the format is unknown', async () => {
    const { openSession } = await import('./harness.ts');
    const s = await openSession();
    try {
      await s.page.goto(`${s.baseUrl}?src=samples/no-such-session.jsonl`);
      await s.page.locator('[data-testid="load-status"][data-status="error"]').waitFor({ timeout: 60_000 });
      const text = (await s.page.getByTestId('load-error').textContent()) ?? '';
      expect(text).toMatch(/Could not fetch no-such-session\.jsonl: the server answered with a web page/);
      expect(text).not.toMatch(/doctype|recognise/i);
      expect(s.consoleErrors).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('loads a same-origin file named in the URL', async () => {
    const { openSession } = await import('./harness.ts');
    const s = await openSession();
    try {
      await s.page.goto(`${s.baseUrl}?src=samples/cache-break.jsonl`);
      await s.page.locator('[data-testid="load-status"][data-status="ready"]').waitFor();
      expect(await s.page.getByTestId('load-status').textContent()).toContain('cache-break.jsonl');
      await waitForRun(s.page);
      expect(s.consoleErrors).toEqual([]);
      expect(s.externalRequests).toEqual([]);
    } finally {
      await s.close();
      await stopServer();
    }
  });
});
