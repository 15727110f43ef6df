// A share link that turns on the `http` summarizer (issue 19, item 8) in real Chromium: a tab with an allowed
// local endpoint and a key in memory opens a link (pasted into the address bar: the same document, so the key is
// still there) that sets `summarizer: http` with a large attempt budget. Nothing reaches the endpoint — not even
// a CORS preflight — until the user presses Allow; "Use the local summarizer" keeps it at zero for good.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.ts';
import { fakeEndpoint, session } from './fake-endpoint.ts';
import { screenshot, stopServer } from './harness.ts';
import { openApp, runId, waitForRun } from './ui.ts';

const KEY = 'sk-test-LINKMUSTASK-0001';

let fake: Awaited<ReturnType<typeof fakeEndpoint>>;
let dir: string;
let file: string;

beforeAll(async () => {
  fake = await fakeEndpoint();
  dir = mkdtempSync(join(tmpdir(), 'tierscope-link-summarizer-'));
  file = join(dir, 'stranger.jsonl');
  writeFileSync(file, session(30));
});

afterAll(async () => {
  await stopServer();
  await new Promise((r) => fake.server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

/** The link a stranger sends: their transcript, `summarizer: http`, 50 attempts per pass, a small window. */
async function strangerLink(baseUrl: string): Promise<string> {
  const out: string[] = [];
  const err: string[] = [];
  const set = ['summarizer=http', 'summaryAttemptsPerPass=50', 'contextWindow=6000', 'outputReserve=1000'];
  const code = await runCli(['share', file, ...set.flatMap((s) => ['--set', s]), '--base-url', baseUrl], {
    out: (s) => out.push(s),
    err: (s) => err.push(s),
  });
  expect(err.join('')).toBe('');
  expect(code).toBe(0);
  return out.join('').trim();
}

/** Paste the link into the address bar of the open tab (a fragment change: same document, key kept). */
async function openLinkInTab(page: Page, link: string): Promise<void> {
  const before = await runId(page);
  await page.evaluate((h) => {
    window.location.hash = h;
  }, new URL(link).hash);
  await waitForRun(page, before);
}

it('a link that turns on the http summarizer makes no request until the user allows it', async () => {
  const s = await openApp();
  try {
    const { page } = s;
    // This tab's own endpoint and key, set by the user (and the summarizer itself left at extractive).
    await page.getByTestId('config-tab-summarizer').click();
    await page.getByTestId('summarizer-kind').selectOption('openai');
    await page.getByTestId('summarizer-endpoint').fill(`${fake.origin}/v1/chat/completions`);
    await page.getByTestId('summarizer-model').fill('fake-mini');
    await Promise.all([page.waitForEvent('load'), page.getByTestId('summarizer-apply').click()]);
    await page.getByTestId('transcript-row').first().waitFor();
    await waitForRun(page);
    await page.getByTestId('config-tab-summarizer').click();
    await page.getByTestId('summarizer-key').fill(KEY);
    await page.getByTestId('summarizer-key').press('Enter');
    await expect
      .poll(() => page.getByTestId('summarizer-key').getAttribute('placeholder'))
      .toContain('set for this tab');
    expect(fake.hits).toEqual([]);

    // 1. The stranger's link: it loads, runs with truncation in place of summaries, and asks.
    const link = await strangerLink(s.baseUrl);
    await openLinkInTab(page, link);
    const consent = page.getByTestId('summarizer-consent');
    await consent.waitFor();
    // No call may go out: an observation window after the run that would have made them (a busy machine can
    // only make it see fewer, never fail it; what must happen is waited for on its state).
    await new Promise((r) => setTimeout(r, 3000));
    expect(fake.hits).toEqual([]);
    expect(await consent.textContent()).toMatch(/share link turns on the http summarizer \(up to 50 attempts/);
    expect(await page.getByTestId('summarizer-consent-endpoint').textContent()).toBe(
      `${fake.origin}/v1/chat/completions`,
    );
    // The link opens on its own view (the Thresholds tab): the Summarizer tab shows the state of the calls.
    await page.getByTestId('config-tab-summarizer').click();
    expect(await page.getByTestId('summarizer-status').getAttribute('data-phase')).toBe('needs-consent');
    await screenshot(page, 'link-summarizer-consent');

    // 2. Declined: the local summarizer runs instead and the endpoint still hears nothing.
    const before = await runId(page);
    await page.getByTestId('summarizer-consent-decline').click();
    await waitForRun(page, before);
    await consent.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('summarizer-status').getAttribute('data-phase')).toBe('off');
    await new Promise((r) => setTimeout(r, 1000)); // observation window: still nothing sent
    expect(fake.hits).toEqual([]);

    // 3. The same link again (reopened), this time allowed: now, and only now, the calls go out.
    await page.evaluate(() => {
      window.location.hash = '';
    });
    await openLinkInTab(page, link);
    await consent.waitFor();
    await new Promise((r) => setTimeout(r, 1000)); // observation window: nothing sent before Allow
    expect(fake.hits).toEqual([]);
    await page.getByTestId('summarizer-consent-allow').click();
    await expect.poll(() => fake.calls.length, { timeout: 120_000 }).toBeGreaterThan(0);
    expect(fake.calls.every((c) => c.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    expect(await consent.count()).toBe(0);
    expect(s.externalRequests).toEqual([]);
  } finally {
    await s.close();
  }
});
