// A failed engine worker (SPEC §10, issue 6 item 5): when the worker dies — closed, crashed by an uncaught
// error, or killed for memory — the page says so in `engine-stopped` instead of spinning forever, stays
// usable, and Retry starts a fresh worker that loads the last input again. The worker is stopped from the test
// through Playwright's handle on it (self.close() ends it the way the browser ends an out-of-memory worker:
// without a word to the page); an uncaught error thrown inside it stands in for a crash.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, Worker } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import { generateClaudeCode } from './gen-claude-code.ts';
import { openSession, screenshot, stopServer } from './harness.ts';
import { loadFiles, rowsShown, waitForRun } from './ui.ts';

const dir = mkdtempSync(join(tmpdir(), 'tierscope-worker-'));
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await stopServer();
});

/** The engine worker (named `engine` by the client); counting-pool workers are left alone. */
async function engineWorker(page: Page): Promise<Worker> {
  await expect.poll(() => page.workers().filter((w) => /engine/.test(w.url())).length).toBeGreaterThan(0);
  const all = page.workers().filter((w) => /engine/.test(w.url()));
  return all[all.length - 1];
}

/** The message indices of the rendered transcript rows, once the list shows the latest rows and run. */
async function renderedRows(page: Page): Promise<number[]> {
  await rowsShown(page);
  return page
    .getByTestId('transcript-row')
    .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-message-index'))).sort((a, b) => a - b));
}

async function status(page: Page): Promise<{ status: string | null; text: string }> {
  const el = page.getByTestId('load-status');
  return { status: await el.getAttribute('data-status'), text: (await el.textContent()) ?? '' };
}

it('a worker that ends without a word is reported, the page stays usable, Retry reloads the last file', async () => {
  const file = join(dir, 'session.jsonl');
  writeFileSync(file, generateClaudeCode(300_000));
  const s = await openSession();
  try {
    const { page } = s;
    await page.goto(s.baseUrl);
    await page.getByTestId('transcript-row').first().waitFor();
    await waitForRun(page);
    await loadFiles(page, [file]);
    const loaded = (await status(page)).text; // file name, format, message and request counts
    const rows = await renderedRows(page);
    expect(rows.length).toBeGreaterThan(3);

    const w = await engineWorker(page);
    await w.evaluate(() => self.close()).catch(() => {});
    const banner = page.getByTestId('engine-stopped');
    await banner.waitFor();
    expect(await banner.textContent()).toMatch(/The engine stopped.*crashed, ran out of memory or was closed/);
    // The page still answers: rows already shown stay (the list may have measured and drawn a few more since),
    // the help overlay opens and closes.
    expect(await renderedRows(page)).toEqual(expect.arrayContaining(rows));
    await page.keyboard.press('?');
    await page.getByTestId('help-overlay').waitFor();
    await page.keyboard.press('Escape');
    await screenshot(page, 'engine-stopped');

    await page.getByTestId('engine-retry').click();
    await banner.waitFor({ state: 'detached' });
    await expect.poll(async () => status(page), { timeout: 120_000 }).toMatchObject({ status: 'ready', text: loaded });
    await waitForRun(page);
    expect(await page.getByTestId('transcript-row').count()).toBeGreaterThan(3);
    expect(s.externalRequests).toEqual([]);
  } finally {
    await s.close();
  }
});

it('after a crash, a change that needs the engine fails with the reason instead of spinning; Retry recovers', async () => {
  const s = await openSession();
  try {
    const { page } = s;
    await page.goto(s.baseUrl);
    await page.getByTestId('transcript-row').first().waitFor();
    await waitForRun(page);
    const sample = (await status(page)).text;

    const w = await engineWorker(page);
    // An uncaught error inside the worker: the page sees the worker's `error` event.
    await w.evaluate(() => {
      setTimeout(() => {
        throw new Error('simulated engine crash');
      });
    });
    const banner = page.getByTestId('engine-stopped');
    await banner.waitFor();
    expect(await banner.textContent()).toContain('simulated engine crash');
    // A change that needs the engine now fails with the reason instead of waiting forever.
    const threshold = page.getByTestId('threshold-tier3Window');
    await threshold.fill('7');
    await threshold.press('Enter');
    await expect.poll(() => page.getByTestId('summary-bar').getAttribute('data-run-status')).toBe('error');
    expect(await page.getByTestId('summary-bar').textContent()).toContain('run failed: The engine stopped');

    await page.getByTestId('engine-retry').click();
    await banner.waitFor({ state: 'detached' });
    await expect.poll(async () => (await status(page)).status, { timeout: 120_000 }).toBe('ready');
    expect((await status(page)).text).toBe(sample);
    await waitForRun(page);
    await expect.poll(() => page.getByTestId('transcript-row').count()).toBeGreaterThan(0);
    expect(s.externalRequests).toEqual([]);
  } finally {
    await s.close();
  }
});
