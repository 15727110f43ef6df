// The transcript as a person drives it: a virtualized list (few DOM rows, every row reachable), j/k and
// [ ] with the keyboard, `/` search with Enter/n jumps and the filter, the heatmap strip's click-to-jump
// and viewport frame, `t` for threads, and moving `threshold-tier3Window` re-tiering the badges in place
// (compared with the CLI for the same settings) without reloading the file.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeReal } from '../helpers/fixtures.ts';
import { type Session, stopServer } from './harness.ts';
import {
  cliReport,
  expectedBadges,
  loadFiles,
  openApp,
  realPath,
  runId,
  setConfig,
  showThread,
  waitForRun,
  walkRows,
} from './ui.ts';

const FE = 'claude-code/ccviewer-fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl';
const BIG = 'sidechain:f4ab2bf6-d642-431a-85cb-66691f24c404'; // 106 messages, many tiered results
const SET = { contextWindow: 30_000, outputReserve: 2000, tier3Window: 8 };

describeReal('transcript', () => {
  let s: Session;
  const selected = () =>
    s.page.locator('[data-testid="transcript-row"][aria-selected="true"]').getAttribute('data-message-index');

  beforeAll(async () => {
    s = await openApp();
    await loadFiles(s.page, [realPath(FE)]);
    // Each file opens with its own defaults: settings go on after the load.
    await setConfig(s.page, SET);
    await showThread(s.page, BIG);
  });
  afterAll(async () => {
    await s?.close();
    await stopServer();
  });

  it('is virtualized: few rows in the DOM, all of them reachable by scrolling', async () => {
    const inDom = await s.page.getByTestId('transcript-row').count();
    expect(inDom).toBeGreaterThan(5);
    expect(inDom).toBeLessThan(106);
    const seen = await walkRows(s.page);
    expect(seen.rows).toEqual(Array.from({ length: 106 }, (_, i) => i));
    // rows are dense (22 px); measured on the rows laid out in the viewport after scrolling settles
    await expect
      .poll(() =>
        s.page.evaluate(() => {
          const hs = [...document.querySelectorAll('[data-testid="transcript-row"]')].map(
            (e) => e.getBoundingClientRect().height,
          );
          return Math.max(0, ...hs);
        }),
      )
      .toBe(22);
  });

  it('moves the selection with j/k and [ ], and opens detail with Enter', async () => {
    await s.page.getByTestId('transcript-rows').click({ position: { x: 400, y: 5 } });
    await s.page.keyboard.press('Escape');
    await s.page.locator('[data-testid="transcript-row"][data-message-index="0"]').click();
    await expect.poll(selected).toBe('0');
    await s.page.keyboard.press('j');
    await s.page.keyboard.press('j');
    await expect.poll(selected).toBe('2');
    await s.page.keyboard.press('k');
    await expect.poll(selected).toBe('1');
    await s.page.keyboard.press(']');
    await expect.poll(selected).not.toBe('1');
    const afterReq = Number(await selected());
    expect(afterReq).toBeGreaterThan(1);
    expect(await s.page.locator(`[data-message-index="${afterReq}"]`).getAttribute('data-role')).toBe('assistant');
    await s.page.keyboard.press('Enter');
    await expect.poll(() => s.page.getByTestId('detail-header').textContent()).toContain(`#${afterReq}`);
  });

  it('searches with /, jumps with Enter and n, and filters', async () => {
    await s.page.keyboard.press('/');
    await expect
      .poll(() => s.page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('transcript-search');
    const before = await selected();
    await s.page.keyboard.type('Write');
    await expect.poll(() => s.page.getByTestId('transcript-search').inputValue()).toBe('Write');
    const count = await s.page.getByTestId('search-count').textContent();
    const total = Number(/(\d+) match/.exec(count ?? '')?.[1]);
    expect(total).toBeGreaterThan(1);
    await s.page.keyboard.press('Enter');
    await expect.poll(selected).not.toBe(before);
    const first = Number(await selected());
    const row = s.page.locator(`[data-testid="transcript-row"][data-message-index="${first}"]`);
    expect(((await row.textContent()) ?? '').toLowerCase()).toContain('write');
    await s.page.keyboard.press('Escape'); // clears the query
    await s.page.getByTestId('transcript-search').fill('Write');
    await s.page.getByTestId('transcript-search').blur();
    await s.page.keyboard.press('n');
    await expect.poll(async () => Number(await selected())).toBeGreaterThan(first);
    await s.page.getByTestId('search-filter').check();
    // The list renders the filtered rows as a deferred value: wait for it.
    await expect.poll(() => s.page.getByTestId('transcript-row').count()).toBe(total);
    await s.page.getByTestId('search-filter').uncheck();
    await s.page.getByTestId('transcript-search').fill('');
  });

  it('jumps from the heatmap strip and frames the visible rows', async () => {
    const map = s.page.getByTestId('token-heatmap');
    const box = await map.boundingBox();
    if (!box) throw new Error('no heatmap');
    await s.page.mouse.click(box.x + box.width / 2, box.y + box.height - 2);
    await expect.poll(async () => Number(await selected())).toBeGreaterThan(100);
    const last = s.page.locator('[data-testid="transcript-row"][data-message-index="105"]');
    await last.waitFor({ state: 'visible' });
    await expect.poll(() => s.page.locator('.footer-pos').textContent()).toMatch(/–105 of 106/);
    await s.page.mouse.click(box.x + box.width / 2, box.y + 0.5);
    await expect.poll(selected).toBe('0');
  });

  it('switches threads with t', async () => {
    const rows = s.page.getByTestId('transcript-rows');
    const before = await rows.getAttribute('data-thread');
    await s.page.keyboard.press('t');
    await expect.poll(() => rows.getAttribute('data-thread')).not.toBe(before);
    await showThread(s.page, BIG);
  });

  it('re-tiers the badges in place when threshold-tier3Window moves (no reload)', async () => {
    const want8 = expectedBadges(await cliReport(realPath(FE), SET)).get(BIG) ?? {};
    const want3 = expectedBadges(await cliReport(realPath(FE), { ...SET, tier3Window: 3 })).get(BIG) ?? {};
    expect(want3).not.toEqual(want8);
    expect((await walkRows(s.page)).badges).toEqual(want8);

    await s.page.evaluate(() => {
      (window as unknown as { noReload?: boolean }).noReload = true;
    });
    const loadTitle = await s.page.locator('[data-testid="load-status"] .loaded').getAttribute('title');
    const slider = s.page.getByTestId('threshold-tier3Window-slider');
    const before = await runId(s.page);
    await slider.focus();
    for (let i = 0; i < 5; i++) await s.page.keyboard.press('ArrowLeft');
    await expect.poll(() => s.page.getByTestId('threshold-tier3Window').inputValue()).toBe('3');
    await waitForRun(s.page, before);
    await expect.poll(async () => (await walkRows(s.page)).badges).toEqual(want3);

    expect(await s.page.evaluate(() => (window as unknown as { noReload?: boolean }).noReload)).toBe(true);
    expect(await s.page.locator('[data-testid="load-status"] .loaded').getAttribute('title')).toBe(loadTitle);
    expect(await s.page.getByTestId('transcript-rows').getAttribute('data-thread')).toBe(BIG);
    await setConfig(s.page, { tier3Window: 8 });
    expect(s.consoleErrors).toEqual([]);
    expect(s.externalRequests).toEqual([]);
  });
});
