// Screenshots of each main view at 1440×900, light and dark (the OS setting, which the app follows), into
// e2e-artifacts/: overview with a selected tiered result, a rewrite's diff, pairing problems, threads with
// side calls and a search, parse issues, key help, and an unknown format. They are looked at by people;
// the test also fails on console errors, non-local requests, or text overflowing the window.
import { afterAll, expect, it } from 'vitest';
import { describeReal } from '../helpers/fixtures.ts';
import { screenshot, stopServer } from './harness.ts';
import { clickRow, cliReport, loadFiles, openApp, realPath, setConfig, showThread } from './ui.ts';

const FE = 'claude-code/ccviewer-fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl';
const BIG = 'sidechain:f4ab2bf6-d642-431a-85cb-66691f24c404';
const SET = { contextWindow: 30_000, outputReserve: 2000, tier3Window: 8 };

afterAll(async () => {
  await stopServer();
});

describeReal('screenshots', () => {
  it.each(['light', 'dark'] as const)('captures every main view (%s)', async (scheme) => {
    const s = await openApp({ colorScheme: scheme });
    const shot = async (name: string) => {
      await s.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      // nothing may stick out of the window horizontally
      expect(await s.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1440);
      await screenshot(s.page, `${name}-${scheme}`);
    };
    try {
      await shot('sample');

      await loadFiles(s.page, [realPath(FE)]);
      // Each file opens with its own defaults: settings go on after the load.
      await setConfig(s.page, SET);
      await showThread(s.page, BIG);
      const report = await cliReport(realPath(FE), SET);
      const r = report.toolResults.find((x) => x.thread === BIG && x.tier === 2 && x.firstTouchRequest !== null);
      if (!r) throw new Error('no tier-2 result');
      await clickRow(s.page, r.messageIndex);
      await s.page.getByTestId('detail-editor').locator('.view-lines').waitFor();
      await shot('overview');

      await s.page.getByTestId('rewrite-event').first().click();
      await s.page.getByTestId('diff-editor').locator('.view-lines').first().waitFor();
      await s.page
        .locator('[data-testid="diff-editor"] :is(.line-insert, .line-delete, .char-insert, .char-delete)')
        .first()
        .waitFor();
      await shot('diff');
      await s.page.keyboard.press('Escape');

      await loadFiles(s.page, [realPath('swe-agent/swe-agent-marshmallow-1867-function-calling-replace.traj')]);
      // Each file opens with its own defaults: settings go on after the load.
      await setConfig(s.page, { contextWindow: 8000, outputReserve: 1000 });
      const marked = s.page.getByTestId('pairing-marker').first();
      await marked.waitFor();
      await marked.click();
      await s.page.getByTestId('detail-editor').locator('.view-lines').waitFor();
      await s.page.getByTestId('dock-splitter').dblclick();
      await s.page.getByTestId('dock-splitter').dblclick();
      await shot('pairing');

      await loadFiles(s.page, [realPath('claude-trace/lemmy-test-traffic.redacted.jsonl')]);
      await s.page.getByTestId('side-call-group').click();
      await s.page.getByTestId('transcript-search').fill('Read');
      await s.page.getByTestId('transcript-search').press('Enter');
      await shot('threads-search');
      await s.page.getByTestId('transcript-search').fill('');

      await loadFiles(s.page, [realPath('claude-code/synthetic-agentsessions-claude-linetypes.jsonl')]);
      await s.page.getByTestId('parse-issues').locator('summary').click();
      await shot('parse-issues');
      await s.page.getByTestId('parse-issues').locator('summary').click();

      await s.page.locator('body').click({ position: { x: 700, y: 890 } });
      await s.page.keyboard.press('?');
      await s.page.getByTestId('help-overlay').waitFor();
      await shot('help');
      await s.page.keyboard.press('Escape');

      await s.page.getByTestId('paste-button').click();
      await s.page.getByTestId('paste-text').fill('this is not a transcript\n');
      await shot('paste');
      await s.page.getByTestId('paste-load').click();
      await s.page.getByTestId('load-failure').waitFor();
      await shot('unknown-format');

      expect(s.consoleErrors).toEqual([]);
      expect(s.externalRequests).toEqual([]);
    } finally {
      await s.close();
    }
  });
});
