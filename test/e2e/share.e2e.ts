// Share links in real Chromium (SPEC §7): a link printed by the CLI opens with the tiers and cache breaks the
// CLI reports; a link built in the share dialog reopens the same view (settings, thread, request, selection) in
// a fresh page, for a loaded file and for a bundled sample; redaction lists the secrets and its link reopens
// with identical tiers; a pairing bug is minimized in the worker with progress and its link still shows the
// issue; the share file download reopens the view when dropped; damaged links and unknown versions say so,
// and per-field fallbacks are listed. Every page must stay free of console errors and non-local requests.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import type { Report } from '../../src/analyses/report.ts';
import { runCli } from '../../src/cli/main.ts';
import { deflateRaw, toBase64Url } from '../../src/share/bytes.ts';
import { describeReal } from '../helpers/fixtures.ts';
import { generateClaudeCode } from './gen-claude-code.ts';
import { screenshot, startServer } from './harness.ts';
import {
  clickRow,
  cliReport,
  counted,
  expectedBadges,
  loadFiles,
  realPath,
  runId,
  setConfig,
  showThread,
  testSessions,
  waitForRun,
  walkRows,
} from './ui.ts';

const FE5E = 'claude-code/ccviewer-fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl';
const LEMMY = 'claude-trace/lemmy-test-traffic.redacted.jsonl';
const SWE = 'swe-agent/swe-agent-marshmallow-1867-function-calling-replace.traj';
const TIGHT = { contextWindow: 8000, outputReserve: 1000 };

const { app, session } = testSessions();

/** Open a link in a page and wait for its load and first run (a failed load returns its message). */
async function openLink(page: Page, link: string): Promise<void> {
  await page.goto(link);
  await page.waitForFunction(
    () => {
      const st = document.querySelector('[data-testid="load-status"]')?.getAttribute('data-status');
      return st === 'ready' || st === 'error';
    },
    undefined,
    { timeout: 120_000 },
  );
  if ((await page.getByTestId('load-status').getAttribute('data-status')) === 'ready') await waitForRun(page);
}

/** The CLI's share link for a file (run in this process, as a person would run it). */
async function cliLink(path: string, set: Record<string, number>, baseUrl: string): Promise<string> {
  const out: string[] = [];
  const err: string[] = [];
  const argv = [
    'share',
    path,
    ...Object.entries(set).flatMap(([k, v]) => ['--set', `${k}=${v}`]),
    '--base-url',
    baseUrl,
  ];
  const code = await runCli(argv, { out: (s) => out.push(s), err: (s) => err.push(s) });
  expect(code, err.join('\n')).toBe(0);
  return out.join('').trim();
}

/** Every thread with badges or breaks in the report: its tier badges and cache-break markers as shown. */
async function expectSameAnalysis(page: Page, report: Report): Promise<number> {
  const badges = expectedBadges(report);
  const threads = [...new Set([...badges.keys(), ...report.requests.map((q) => q.thread)])].filter(
    (t) => badges.has(t) || report.requests.some((q) => q.thread === t && (q.cacheBreak || q.observedBreak)),
  );
  let seen = 0;
  for (const t of threads) {
    await showThread(page, t);
    const rows = await walkRows(page);
    expect(rows.badges, `tier badges of ${t}`).toEqual(badges.get(t) ?? {});
    seen += Object.keys(rows.badges).length;
    const marks = () =>
      page
        .locator(`[data-testid="cache-break"][data-thread=${JSON.stringify(t)}]`)
        .evaluateAll((els) =>
          els
            .map(
              (e) => `${e.getAttribute('data-kind')} ${e.getAttribute('data-request')} ${e.getAttribute('data-cause')}`,
            )
            .sort(),
        );
    const want = report.requests
      .filter((q) => q.thread === t)
      .flatMap((q) => [
        ...(q.observedBreak ? [`observed ${q.index} ${q.observedBreak.cause}`] : []),
        ...(q.cacheBreak ? [`simulated ${q.index} ${q.cacheBreak.cause}`] : []),
      ]);
    // The timeline draws the shown thread's markers once it has caught up with the switch: wait for them.
    await expect.poll(marks, { message: `cache-break markers of ${t}` }).toEqual(want.sort());
  }
  return seen;
}

/** Open the share dialog with the `s` key and wait for its link. */
async function shareLinkFromDialog(page: Page): Promise<string> {
  await page.keyboard.press('s');
  await page.getByTestId('share-dialog').waitFor();
  await page.waitForFunction(() => {
    const el = document.querySelector<HTMLTextAreaElement>('[data-testid="share-url"]');
    return !!el?.value.includes('#s=1.') && !el.closest('[aria-busy="true"]');
  });
  return page.getByTestId('share-url').inputValue();
}

/** Click the dialog's download button and read the file it saves. */
async function downloadShareFile(page: Page): Promise<{ name: string; text: string }> {
  const download = page.waitForEvent('download');
  await page.getByTestId('share-download').click();
  const d = await download;
  const dir = mkdtempSync(join(tmpdir(), 'tierscope-share-'));
  try {
    const path = join(dir, d.suggestedFilename());
    await d.saveAs(path);
    return { name: d.suggestedFilename(), text: readFileSync(path, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Drop a file on the window the way a person does (a drop event carrying it), then wait for its run. */
async function dropFile(page: Page, text: string, name: string): Promise<void> {
  const was = await runId(page);
  await page.evaluate(
    ({ text, name }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], name));
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    },
    { text, name },
  );
  await waitForRun(page, was);
}

type ViewShown = { thread: string | null; selected: number | null; request: string; contextWindow: string };

async function viewShown(page: Page): Promise<ViewShown> {
  const selected = page.locator('[data-testid="transcript-row"][aria-selected="true"]');
  await selected.first().waitFor();
  return {
    thread: await page.locator('[data-testid="thread-item"][aria-pressed="true"]').getAttribute('data-thread-id'),
    selected: Number(await selected.getAttribute('data-message-index')),
    request:
      (await page.getByTestId('timeline-selection').count()) === 0
        ? ''
        : (((await page.getByTestId('timeline-selection').textContent()) ?? '').match(/^Request \d+/)?.[0] ?? ''),
    contextWindow: await page.getByTestId('threshold-contextWindow').inputValue(),
  };
}

describeReal('share links', () => {
  it('(a) a link printed by the CLI shows the tiers and cache breaks the CLI reports', async () => {
    const set = { contextWindow: 30_000, outputReserve: 2000 };
    const link = await cliLink(realPath(FE5E), set, await startServer());
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#s=1\.[A-Za-z0-9_-]+$/);
    const report = await cliReport(realPath(FE5E), set);
    const s = await session();
    await openLink(s.page, link);
    const status = (await s.page.getByTestId('load-status').textContent()) ?? '';
    // The bundle in the link names the format its transcript was read from.
    expect(status).toMatch(/·claude-code [\d.]+·/);
    expect(status).not.toContain('tierscope');
    for (const part of [counted(report.counts.messages, 'message'), counted(report.counts.requests, 'request')])
      expect(status).toContain(part);
    expect(await s.page.getByTestId('threshold-contextWindow').inputValue()).toBe('30000');
    expect(await s.page.getByTestId('link-warnings').count()).toBe(0);
    expect(await expectSameAnalysis(s.page, report)).toBeGreaterThan(0);
    await showThread(s.page, 'main');
    await screenshot(s.page, 'share-cli-link-opened-light');
  });

  it('(b) a link built in the share dialog reopens the same view in a fresh page', async () => {
    const s = await app();
    await loadFiles(s.page, [realPath(SWE)]);
    // Each file opens with its own defaults: settings go on after the load.
    await setConfig(s.page, TIGHT);
    const before = await walkRows(s.page);
    expect(Object.keys(before.badges).length).toBeGreaterThan(0);
    // Pick a request on the timeline (a cache-break marker) and a row in the transcript.
    await s.page.getByTestId('cache-break').first().click();
    const request = Number(await s.page.getByTestId('cache-break').first().getAttribute('data-request'));
    await clickRow(s.page, 9);
    await expect
      .poll(() => viewShown(s.page))
      .toMatchObject({ selected: 9, request: `Request ${request}`, contextWindow: '8000' });
    const want = await viewShown(s.page);

    const link = await shareLinkFromDialog(s.page);
    expect(link.startsWith(s.baseUrl)).toBe(true);
    expect(await s.page.getByTestId('share-carries').textContent()).toContain('the transcript itself');
    expect(await s.page.getByTestId('share-size').getAttribute('data-size-class')).toBe('ok');
    await screenshot(s.page, 'share-dialog-light');

    const t = await session();
    await openLink(t.page, link);
    await expect.poll(() => viewShown(t.page)).toEqual(want);
    expect((await walkRows(t.page)).badges).toEqual(before.badges);
    expect(await t.page.getByTestId('load-status').textContent()).toContain(
      'swe-agent-marshmallow-1867-function-calling-replace.traj',
    );
    // The link brought its own settings, and the page says so: its 8,000 window overrides the log's 128,000.
    expect(await t.page.getByTestId('config-origin').getAttribute('data-kind')).toBe('link');
    expect(await t.page.getByTestId('default-contextWindow').textContent()).toBe(
      'from the share link · the log says 128,000',
    );
    expect(await t.page.getByTestId('provider-select').inputValue()).toBe('openai-chat');
    expect(await t.page.getByTestId('default-provider').getAttribute('data-overridden')).toBe('false');

    // The share file: downloaded from the dialog, dropped on a fresh page, the same view again.
    const file = await downloadShareFile(s.page);
    expect(file.name).toBe('swe-agent-marshmallow-1867-function-calling-replace.tierscope.json');
    const u = await app();
    await dropFile(u.page, file.text, 'repro.tierscope.json');
    await expect.poll(() => viewShown(u.page)).toEqual(want);
    expect(await u.page.getByTestId('config-origin').getAttribute('data-kind')).toBe('share-file');
  });

  it('(b) a sample is shared by name and reopens with its view', async () => {
    const s = await app('dark');
    await clickRow(s.page, 12);
    await expect.poll(() => viewShown(s.page)).toMatchObject({ selected: 12 });
    const want = await viewShown(s.page);
    const link = await shareLinkFromDialog(s.page);
    expect(await s.page.getByTestId('share-carries').textContent()).toContain('the bundled sample "story-37-1"');
    expect(link.length).toBeLessThan(400);
    await screenshot(s.page, 'share-dialog-dark');
    const t = await session('dark');
    await openLink(t.page, link);
    expect(await t.page.getByTestId('sample-picker').inputValue()).toBe('story-37-1');
    await expect.poll(() => viewShown(t.page)).toEqual(want);
  });

  it('(b) over 2 MB the dialog offers the .tierscope.json instead of a link; dropped, it reopens the view', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tierscope-big-'));
    const path = join(dir, 'big-session.jsonl');
    writeFileSync(path, generateClaudeCode(12 * 1024 * 1024));
    try {
      const s = await app();
      await loadFiles(s.page, [path]);
      await clickRow(s.page, 30);
      await expect.poll(() => viewShown(s.page)).toMatchObject({ selected: 30 });
      const want = await viewShown(s.page);
      await s.page.keyboard.press('s');
      const size = s.page.getByTestId('share-size');
      await size.waitFor();
      expect(await size.getAttribute('data-size-class')).toBe('download');
      expect(await s.page.getByTestId('share-url').count()).toBe(0);
      expect(await s.page.getByTestId('share-copy').count()).toBe(0);
      expect(await s.page.getByTestId('share-size-warning').textContent()).toMatch(
        /over the 2 MB browsers accept: download a \.tierscope\.json instead/,
      );
      expect(await s.page.getByTestId('share-download').getAttribute('class')).toContain('primary');
      await screenshot(s.page, 'share-download-light');
      const file = await downloadShareFile(s.page);
      expect(file.name).toBe('big-session.tierscope.json');
      const u = await app();
      await dropFile(u.page, file.text, file.name);
      await expect.poll(() => viewShown(u.page)).toEqual(want);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('(c) redaction lists the secrets and its link reopens with identical tiers', async () => {
    const report = await cliReport(realPath(LEMMY), TIGHT);
    const s = await app();
    await loadFiles(s.page, [realPath(LEMMY)]);
    // Each file opens with its own defaults: settings go on after the load.
    await setConfig(s.page, TIGHT);
    const plain = await shareLinkFromDialog(s.page);
    // Secrets are flagged even before redaction is chosen.
    await expect.poll(() => s.page.getByTestId('secrets-warning').textContent()).toContain('50 secret-looking');
    await s.page.getByTestId('redact-toggle').check();
    const preview = s.page.getByTestId('redaction-preview');
    await s.page.waitForFunction(() =>
      document.querySelector('[data-testid="redaction-preview"]')?.getAttribute('data-secrets'),
    );
    expect(await preview.getAttribute('data-secrets')).toBe('50');
    expect(await preview.textContent()).toContain('50 secret-looking strings replaced');
    // Listed masked, one line per distinct secret with its count (request logs repeat them in every request).
    const listed = await preview.getByTestId('redaction-secret').allTextContents();
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.join('\n')).not.toMatch(/sk-ant-[A-Za-z0-9_-]{16,}/);
    expect(Number(await preview.getAttribute('data-strings'))).toBeGreaterThan(1000);
    await s.page.waitForFunction((p) => {
      const el = document.querySelector<HTMLTextAreaElement>('[data-testid="share-url"]');
      return !!el && el.value !== p && el.value.includes('#s=1.') && !el.closest('[aria-busy="true"]');
    }, plain);
    const redacted = await s.page.getByTestId('share-url').inputValue();
    // Over 32 KB: a visible warning, the link still offered.
    expect(await s.page.getByTestId('share-size').getAttribute('data-size-class')).toBe('warn');
    expect(await s.page.getByTestId('share-size-warning').textContent()).toContain('over 32 KB');
    await preview.locator('details').last().locator('summary').click();
    await screenshot(s.page, 'share-redaction-light');

    const t = await session();
    await openLink(t.page, redacted);
    expect(await t.page.getByTestId('threshold-contextWindow').inputValue()).toBe('8000');
    expect(await expectSameAnalysis(t.page, report)).toBeGreaterThan(0);
  });

  it('(d) a pairing bug minimized in the worker, with progress; its link still shows the issue', async () => {
    const s = await app('dark');
    const was = await runId(s.page);
    await s.page.getByTestId('sample-picker').selectOption('pairing-bug');
    await waitForRun(s.page, was);
    const issue = s.page.getByTestId('pairing-issue').first();
    const rule = await issue.getAttribute('data-rule');
    const stage = await issue.getAttribute('data-stage');
    const error = (await issue.locator('.pp-error').textContent()) ?? '';
    const messages = Number((await s.page.getByTestId('load-status').textContent())?.match(/([\d,]+) messages/)?.[1]);
    await issue.click();
    await shareLinkFromDialog(s.page);
    await expect
      .poll(() => s.page.getByTestId('minimize-predicate').inputValue())
      .toMatch(new RegExp(`^pairing:${rule}@${stage}`));
    // Record that the progress bar showed while the worker ran.
    await s.page.evaluate(() => {
      const w = window as unknown as { sawProgress: boolean };
      w.sawProgress = false;
      new MutationObserver(() => {
        if (document.querySelector('[data-testid="minimize-progress"]')) w.sawProgress = true;
      }).observe(document.body, { childList: true, subtree: true });
    });
    await s.page.getByTestId('minimize-button').click();
    const result = s.page.getByTestId('minimize-result');
    await result.waitFor({ timeout: 120_000 });
    expect(await s.page.evaluate(() => (window as unknown as { sawProgress: boolean }).sawProgress)).toBe(true);
    expect(await result.getAttribute('data-status')).toBe('minimal');
    const after = Number(await result.getAttribute('data-messages'));
    expect(after).toBeLessThan(messages);
    expect(after).toBeLessThanOrEqual(6);
    const evaluations = Number(await result.getAttribute('data-evaluations'));
    expect(evaluations).toBeGreaterThan(1);
    const link = await s.page.getByTestId('minimize-url').inputValue();
    await screenshot(s.page, 'share-minimize-dark');
    // Redaction chosen afterwards applies to the same reproduction (no second run).
    await s.page.getByTestId('redact-toggle').check();
    await s.page.waitForFunction((was) => {
      const el = document.querySelector<HTMLTextAreaElement>('[data-testid="minimize-url"]');
      return !!el && el.value !== was && !el.closest('[aria-busy="true"]');
    }, link);
    expect(await result.getAttribute('data-evaluations')).toBe(String(evaluations));

    const t = await session('dark');
    await openLink(t.page, link);
    expect(await t.page.getByTestId('load-status').textContent()).toContain(counted(after, 'message'));
    const shown = await t.page
      .getByTestId('pairing-issue')
      .evaluateAll((els) => els.map((e) => `${e.getAttribute('data-rule')}@${e.getAttribute('data-stage')}`));
    expect(shown).toContain(`${rule}@${stage}`);
    // The provider's words are the same apart from the message index of the smaller request.
    const texts = await t.page.locator('[data-testid="pairing-issue"] .pp-error').allTextContents();
    const bare = (x: string) => x.replace(/\d+/g, 'N');
    expect(texts.map(bare)).toContain(bare(error));
    await screenshot(t.page, 'share-minimized-opened-dark');
  });

  it('(e) a damaged link and an unknown version say so; bad fields fall back with warnings', async () => {
    const base = await startServer();
    const s = await session();
    await openLink(s.page, `${base}#s=1.this-is-not-deflate`);
    const status = s.page.getByTestId('load-status');
    expect(await status.getAttribute('data-status')).toBe('error');
    expect(await status.textContent()).toMatch(/This share link is damaged/);
    expect(await s.page.getByTestId('load-error').textContent()).toContain('Could not load share link');
    await screenshot(s.page, 'share-error-damaged-light');

    const t = await session('dark');
    await openLink(t.page, `${base}#s=3.AAAA`);
    expect(await t.page.getByTestId('load-status').textContent()).toMatch(
      /made by a newer Tierscope \(link version 3\).*update Tierscope/,
    );
    await screenshot(t.page, 'share-error-version-dark');

    // A readable link with bad fields: each falls back on its own, and the page lists them.
    const json = JSON.stringify({
      v: 1,
      config: { preset: 'seeds', contextWindow: 44000, outputReserve: 8000, tier3Window: 'many', nope: 1 },
      mode: 'sideways',
      view: { thread: 'main', request: 999, selection: 5 },
      sample: 'story-37-1',
    });
    const value = `1.${toBase64Url(await deflateRaw(new TextEncoder().encode(json)))}`;
    const u = await session();
    await openLink(u.page, `${base}#s=${value}`);
    expect(await u.page.getByTestId('load-status').getAttribute('data-status')).toBe('ready');
    const warnings = await u.page.getByTestId('link-warning').allTextContents();
    expect(warnings).toEqual([
      expect.stringContaining('tier3Window'),
      'config key "nope" is unknown; ignored',
      'mode "sideways" is not one of recorded, raw; using recorded',
      'view.request 999 is out of range (thread has 32); ignored',
    ]);
    expect(await u.page.getByTestId('threshold-contextWindow').inputValue()).toBe('44000');
    await expect.poll(() => viewShown(u.page)).toMatchObject({ thread: 'main', selected: 5 });
    await u.page.getByTestId('link-warnings').locator('summary').click();
    await screenshot(u.page, 'share-link-warnings-light');
  });
});
