// Issue 16 in real Chromium on the 9e953218 session from the wild: hovering the observed break at request 1
// names where the cache stopped matching (14,627 tokens, before message 0's logged content) and the recurring
// finding (requests 1, 2, 35, 68); clicking the marker selects message 0 in the transcript, whose detail lists
// the breaks that stopped there with their evidence; the summary bar says why the hit rate fell.
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWild, WILD_DIR } from '../helpers/fixtures.ts';
import { type Session, screenshot, stopServer } from './harness.ts';
import { loadFiles, openApp } from './ui.ts';

const SESSION = join(
  WILD_DIR,
  'claude-code/projects/ccl--Users-dain-workspace-danieldemmel-me-next/9e953218-585f-4692-89df-9e0747a31c68.jsonl',
);

describeWild('9e953218: every cache drop explained', () => {
  let s: Session;
  beforeAll(async () => {
    s = await openApp();
    await loadFiles(s.page, [SESSION]);
  });
  afterAll(async () => {
    await s?.close();
    await stopServer();
  });

  it('hovering the break at request 1 shows the divergence point, the evidence and the recurring finding', async () => {
    const { page } = s;
    const mark = page.locator(
      '[data-testid="cache-timeline"] [data-testid="cache-break"][data-kind="observed"][data-request="1"]',
    );
    await mark.waitFor();
    expect(await mark.getAttribute('data-cause')).toBe('prefix-changed');
    await mark.hover();
    const card = page.getByRole('tooltip');
    const div = card.getByTestId('break-divergence');
    await div.waitFor();
    expect(await div.getAttribute('data-message-index')).toBe('0');
    expect(await div.textContent()).toMatch(
      /Cache matched through 14,627 tokens \(observed\), stopping before message 0/,
    );
    // Re-written: the prompt it sent (381 tokens smaller than request 0's 19,367) less its read, 14,627.
    expect(await div.textContent()).toMatch(/re-written after it: 4,359 tokens/);
    expect(await card.getByTestId('break-evidence').textContent()).toMatch(/the prompt shrank by 381 tokens/);
    expect(await card.getByTestId('break-pattern').textContent()).toMatch(
      /Recurring: something rewrites the context sent before message 0 .* 4 times \(requests 1, 2, 35, 68\)/,
    );
    await screenshot(page, 'cache-divergence-hover');
    expect(s.consoleErrors).toEqual([]);
  });

  it('clicking the marker selects message 0 in the transcript, whose detail lists the breaks there', async () => {
    const { page } = s;
    await page.mouse.move(5, 5);
    await page
      .locator('[data-testid="cache-timeline"] [data-testid="cache-break"][data-kind="observed"][data-request="1"]')
      .click();
    const row = page.locator('[data-testid="transcript-row"][aria-selected="true"]');
    await expect.poll(() => row.getAttribute('data-message-index')).toBe('0');
    await row.waitFor({ state: 'visible' });
    const note = page.getByTestId('detail-cache-break');
    await note.waitFor();
    expect(await note.getAttribute('data-request')).toBe('1');
    expect(await note.textContent()).toMatch(/stopped matching here at request 1: static prefix changed/);
    // Every observed break whose cached prefix ended before message 0 (the recurring four among them).
    expect(await note.textContent()).toMatch(/also at requests 2, (\d+, )*35, 68/);
    expect(await page.getByTestId('why-it-fell').textContent()).toMatch(/recurring rewrite ×4/);
    await page.mouse.move(5, 5);
    await page.getByTestId('detail-editor').waitFor();
    await screenshot(page, 'cache-divergence-selected');
    expect(s.consoleErrors).toEqual([]);
    expect(s.externalRequests).toEqual([]);
  });
});
