// The view in the URL and in history, in Chromium (issue 27), on the real session 24a90d02 (one agent
// compaction that lost an error string and five files read): the compaction view is shared from where it is —
// a lost item focused, `s` pressed, the link opened in a fresh profile shows the same compaction view with the
// same item focused; the same for a minimized link (compaction:…:lost:…) whose transcript is under 10% of the
// messages. Back walks the app's own views (compaction view → the request → the previous file) without leaving
// it; Forward and a reload bring the view back (the dropped file included). A PNG dropped on a loaded session
// leaves it on screen with an error naming the PNG; the header names what is shown.
import { basename, join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { describeWild, WILD_DIR, wildPath } from '../helpers/fixtures.ts';
import { type Session, screenshot } from './harness.ts';
import { loadFiles, runId, testSessions, waitForRun } from './ui.ts';

const FILE = wildPath(
  'claude-code/projects/paismart--Users-pretor-Documents-PAI---TPOS/24a90d02-9724-4548-9f4f-97bcb9f93ef3.jsonl',
);
const NAME = basename(FILE);
const MESSAGES = 248;
const PROJECTS = join(WILD_DIR, 'claude-code/projects');
const SESSION = `paismart--Users-pretor-Documents-PAI---TPOS/${NAME}`;

const { app, session } = testSessions();

/** The compaction view's id and focused item, as a script reading the page's contract would see them. */
async function shownCompaction(page: Page): Promise<{ id: string | null; focused: string[]; text: string[] }> {
  return page.evaluate(() => {
    const view = document.querySelector('[data-testid="compaction-view"]');
    const focused = [...document.querySelectorAll('[data-testid="probe-item"][data-focused="true"]')];
    return {
      id: view?.getAttribute('data-compaction') ?? null,
      focused: focused.map((el) => el.getAttribute('data-probe') ?? ''),
      text: focused.map((el) => el.querySelector('.cv-text')?.getAttribute('title') ?? ''),
    };
  });
}

/** Open the compaction view from its timeline marker and wait for its probes. */
async function openCompactionView(page: Page): Promise<void> {
  await page.getByTestId('compaction-marker').click();
  await page.getByTestId('compaction-view').getByTestId('compaction-facts').waitFor({ timeout: 30_000 });
}

/** Wait until a compaction view with a focused item is shown (a link or a reload restores both). */
async function waitForFocus(page: Page): Promise<void> {
  await page.waitForFunction(
    () => !!document.querySelector('[data-testid="probe-item"][data-focused="true"]'),
    undefined,
    {
      timeout: 120_000,
    },
  );
}

/** The link the share dialog shows, once it is built. */
async function dialogLink(page: Page, testId = 'share-url'): Promise<string> {
  await page.getByTestId('share-dialog').waitFor();
  await page.waitForFunction(
    (id) => {
      const el = document.querySelector<HTMLTextAreaElement>(`[data-testid="${id}"]`);
      return !!el?.value.includes('#s=1.') && !el.closest('[aria-busy="true"]');
    },
    testId,
    { timeout: 120_000 },
  );
  return page.getByTestId(testId).inputValue();
}

/** A fresh profile opening a link: its load, first run and restored compaction view. */
async function openFresh(link: string): Promise<Session> {
  const s = await session();
  await s.page.goto(link);
  await s.page.waitForFunction(
    () => document.querySelector('[data-testid="load-status"]')?.getAttribute('data-status') === 'ready',
    undefined,
    { timeout: 120_000 },
  );
  await waitForRun(s.page);
  await waitForFocus(s.page);
  return s;
}

async function loadStatus(page: Page): Promise<string> {
  return (await page.getByTestId('load-status').textContent()) ?? '';
}

describeWild('the view in the URL, history and share links (24a90d02)', () => {
  it('shares the compaction view with a focused lost item, and a fresh profile opens the same', async () => {
    const s = await app();
    await loadFiles(s.page, [FILE]);
    await openCompactionView(s.page);
    // Focus the lost error string (the summary's own column) with a click, then j/k.
    const lost = s.page
      .getByTestId('compaction-summary')
      .locator('[data-testid="probe-item"][data-kind="filesRead"][data-kept="false"]');
    await lost.nth(1).click();
    await s.page.keyboard.press('j');
    await waitForFocus(s.page);
    const sent = await shownCompaction(s.page);
    expect(sent).toMatchObject({ id: 'main/agent/0', focused: ['summary.filesRead.lost.2'] });
    // The page URL says so too.
    await s.page.waitForFunction(() =>
      window.location.hash.includes('compaction=main/agent/0&probe=summary.filesRead.lost.2'),
    );
    // `s` works over the compaction view, and so does the header's Share button.
    await s.page.keyboard.press('s');
    const link = await dialogLink(s.page);
    const carries = (await s.page.getByTestId('share-carries').textContent()) ?? '';
    expect(carries).toContain('compaction view main/agent/0');
    expect(carries).toContain('focused: lost filesRead #3');
    await screenshot(s.page, 'share-over-compaction-view');
    await s.page.keyboard.press('Escape');
    await s.page.getByTestId('share-dialog').waitFor({ state: 'detached' });
    expect(await s.page.getByTestId('compaction-view').count()).toBe(1);
    await s.page.getByTestId('share-button').click();
    expect(await dialogLink(s.page)).toBe(link);

    const r = await openFresh(link);
    expect(await shownCompaction(r.page)).toEqual(sent);
    expect(await loadStatus(r.page)).toContain('claude-code 2.0.57');
    expect(await loadStatus(r.page)).not.toContain('tierscope');
    await screenshot(r.page, 'shared-compaction-view');
  });

  it('a minimized link keeps the lost item and opens on it, under 10% of the messages', async () => {
    const s = await app();
    await loadFiles(s.page, [FILE]);
    await openCompactionView(s.page);
    await s.page
      .getByTestId('compaction-summary')
      .locator('[data-testid="probe-item"][data-kind="errors"][data-kept="false"]')
      .click();
    await waitForFocus(s.page);
    const sent = await shownCompaction(s.page);
    await s.page.getByTestId('share-button').click();
    await dialogLink(s.page);
    const predicate = s.page.getByTestId('minimize-predicate');
    const spec = await predicate.inputValue();
    expect(spec).toBe(`compaction:main/89:lost:errors=${sent.text[0]}`);
    await s.page.getByTestId('minimize-button').click();
    const result = s.page.getByTestId('minimize-result');
    await result.waitFor({ timeout: 300_000 });
    const kept = Number(await result.getAttribute('data-messages'));
    expect(kept).toBeLessThan(MESSAGES / 10);
    const link = await dialogLink(s.page, 'minimize-url');
    await screenshot(s.page, 'minimize-compaction');

    const r = await openFresh(link);
    const shown = await shownCompaction(r.page);
    expect(shown).toMatchObject({ id: 'main/agent/0', focused: ['summary.errors.lost.0'], text: sent.text });
    // The marker still says the summary lost something (it does not turn grey).
    expect(Number(await r.page.getByTestId('compaction-marker').getAttribute('data-lost'))).toBeGreaterThan(0);
    expect(await loadStatus(r.page)).toContain(`${kept} message`);
  });

  it('Back walks the app’s own views and never leaves it; Forward and a reload bring the view back', async () => {
    const s = await app();
    const sample = await loadStatus(s.page);
    const start = s.page.url();
    await loadFiles(s.page, [FILE]);
    // Select a request on the timeline (`]` jumps to the next one), then open the compaction view.
    await s.page.keyboard.press(']');
    await s.page.waitForFunction(() => /[#&]request=\d+/.test(window.location.hash));
    const request = new URL(s.page.url()).hash.match(/request=(\d+)/)?.[1];
    await openCompactionView(s.page);
    await s.page.waitForFunction(() => window.location.hash.includes('compaction=main/agent/0'));

    await s.page.goBack();
    await s.page.getByTestId('compaction-view').waitFor({ state: 'detached' });
    expect(new URL(s.page.url()).hash).toContain(`request=${request}`);
    expect(await loadStatus(s.page)).toContain(NAME);

    await s.page.goBack();
    await s.page.waitForFunction(
      (want) => (document.querySelector('[data-testid="load-status"]')?.textContent ?? '').includes(want),
      sample.split(' · ')[0],
      { timeout: 60_000 },
    );
    await waitForRun(s.page);
    expect(new URL(s.page.url()).origin).toBe(new URL(start).origin);
    expect(await s.page.getByTestId('transcript-row').count()).toBeGreaterThan(0);

    // Forward twice: the file again (from the File the entry holds), then its compaction view.
    await s.page.goForward();
    await s.page.waitForFunction(
      (n) => (document.querySelector('[data-testid="load-status"]')?.textContent ?? '').includes(n),
      NAME,
      { timeout: 60_000 },
    );
    await s.page.goForward();
    await s.page.getByTestId('compaction-view').getByTestId('compaction-facts').waitFor({ timeout: 60_000 });

    // A reload restores the view: the dropped file, its request and the compaction view.
    await s.page.reload();
    await s.page.getByTestId('compaction-view').getByTestId('compaction-facts').waitFor({ timeout: 120_000 });
    expect(await loadStatus(s.page)).toContain(NAME);
    expect(new URL(s.page.url()).hash).toContain(`request=${request}`);
    // Closing it goes Back to the entry it was opened over.
    await s.page.keyboard.press('Escape');
    await s.page.getByTestId('compaction-view').waitFor({ state: 'detached' });
    expect(new URL(s.page.url()).hash).not.toContain('compaction=');
  });

  it('Back from a session of a folder goes to its sessions table, sort and filter kept; the header names the folder', async () => {
    const s = await app();
    const before = await runId(s.page);
    await s.page.getByTestId('open-folder-input').setInputFiles(PROJECTS);
    await s.page.getByTestId('session-row').first().waitFor({ timeout: 120_000 });
    expect(await s.page.getByTestId('folder-status').textContent()).toContain('projects');
    expect(await s.page.getByTestId('load-status').count()).toBe(0);
    // Sort and filter (small moves: in the URL, no entries of their own).
    await s.page.getByTestId('sessions-sort-requests').click();
    await s.page.getByTestId('sessions-project').selectOption('paismart--Users-pretor-Documents-PAI---TPOS');
    await s.page.waitForFunction(
      () => /sort=requests/.test(window.location.hash) && /project=paismart/.test(window.location.hash),
    );
    const table = s.page.url();
    await s.page.locator(`[data-testid="session-row"][data-path="${SESSION}"]`).click();
    await s.page.waitForFunction(
      (n) => (document.querySelector('[data-testid="load-status"]')?.textContent ?? '').includes(n),
      NAME,
      { timeout: 60_000 },
    );
    await waitForRun(s.page, before);
    await s.page.keyboard.press(']');
    await s.page.waitForFunction(() => /[#&]request=\d+/.test(window.location.hash));
    await openCompactionView(s.page);

    await s.page.goBack();
    await s.page.getByTestId('compaction-view').waitFor({ state: 'detached' });
    expect(new URL(s.page.url()).hash).toMatch(/request=\d+/);
    await s.page.goBack();
    await s.page.getByTestId('sessions-table').waitFor({ timeout: 30_000 });
    expect(s.page.url()).toBe(table);
    expect(await s.page.getByTestId('sessions-project').inputValue()).toBe(
      'paismart--Users-pretor-Documents-PAI---TPOS',
    );
    expect(await s.page.getByTestId('sessions-sort-requests').getAttribute('data-sort')).not.toBeNull();
    expect(await s.page.getByTestId('folder-status').textContent()).toContain('projects');
    await screenshot(s.page, 'back-to-sessions-table');
    // Forward: the session again, from the folder still in memory.
    await s.page.goForward();
    await s.page.getByTestId('transcript-row').first().waitFor({ timeout: 60_000 });
    expect(await loadStatus(s.page)).toContain(NAME);
    // A reload of the table cannot list a picked folder again: the page says so and shows what it can.
    await s.page.goBack();
    await s.page.getByTestId('sessions-table').waitFor({ timeout: 30_000 });
    await s.page.reload();
    const note = s.page.getByTestId('load-failure');
    await note.waitFor({ timeout: 120_000 });
    expect(await note.textContent()).toMatch(/a reload cannot list it again/);
  });

  it('a PNG dropped on a loaded session leaves it on screen, naming the PNG', async () => {
    const s = await app();
    await loadFiles(s.page, [FILE]);
    const before = await loadStatus(s.page);
    const rows = await s.page.getByTestId('transcript-rows').getAttribute('data-count');
    await s.page.waitForFunction((n) => window.location.hash.startsWith(`#file=${n}`), NAME);
    const url = s.page.url();
    const drop = await s.page.evaluateHandle(() => {
      const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
      const dt = new DataTransfer();
      dt.items.add(new File([png, new Uint8Array(2048)], 'screenshot.png', { type: 'image/png' }));
      return dt;
    });
    await s.page.dispatchEvent('[data-testid="drop-zone"]', 'drop', { dataTransfer: drop });
    const failure = s.page.getByTestId('load-failure');
    await failure.waitFor({ timeout: 60_000 });
    expect(await failure.textContent()).toContain('screenshot.png');
    expect(await loadStatus(s.page)).toBe(before);
    expect(await s.page.getByTestId('load-status').getAttribute('data-status')).toBe('ready');
    // The session's rows are all still there (the list's count), and rows are shown. How many are rendered is the
    // virtualizer's business: the failure note's line takes height from the list (CI saw 38 rendered, then 30).
    expect(await s.page.getByTestId('transcript-rows').getAttribute('data-count')).toBe(rows);
    expect(Number(rows)).toBeGreaterThan(0);
    expect(await s.page.getByTestId('transcript-row').count()).toBeGreaterThan(0);
    expect(s.page.url()).toBe(url);
    await screenshot(s.page, 'png-dropped-on-session');
  });
});
