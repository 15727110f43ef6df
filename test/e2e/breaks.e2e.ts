// The timeline a user can trust with the mouse (issue 28), on sessions from the wild: every observed break marker
// of a Codex rollout with 18 breaks names its own request when hovered (clusters zoomed apart first) and selects
// its divergence message when clicked; the breaks table lists every observed and simulated break the CLI reports,
// sub-agents included; a drag over the chart zooms to that range and the table and the transcript follow it.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Report } from '../../src/analyses/report.ts';
import { describeWild, WILD_DIR } from '../helpers/fixtures.ts';
import { type Session, screenshot, stopServer } from './harness.ts';
import { cliReport, loadFiles, openApp } from './ui.ts';

const CODEX = join(WILD_DIR, 'codex/parkinglot-rollout-2025-12-06T15-11-37-019af581-86ce-7d23-b9c6-0f99353d36af.jsonl');
const CC21 = join(WILD_DIR, 'claude-code/projects/ccl--experiments-worktrees');
const CC21_SESSION = join(CC21, 'ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl');
const CC21_SUBAGENTS = join(CC21, 'ef958aa1-0e93-49f0-bb71-150f63befcd1/subagents');

type Listed = { source: string; thread: string; request: number; cause: string };

/** Every row of the (virtualized) breaks table, scrolled top to bottom. */
async function tableRows(page: Page): Promise<Listed[]> {
  return page.evaluate(async () => {
    const list = document.querySelector<HTMLElement>('[data-testid="breaks-table"] .bt-rows');
    if (!list) return [];
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const seen = new Map<string, { source: string; thread: string; request: number; cause: string }>();
    list.scrollTop = 0;
    await frame();
    for (;;) {
      for (const r of list.querySelectorAll<HTMLElement>('[data-testid="break-row"]')) {
        const row = {
          source: r.dataset.source ?? '',
          thread: r.dataset.thread ?? '',
          request: Number(r.dataset.request),
          cause: r.dataset.cause ?? '',
        };
        seen.set(`${row.source}|${row.thread}|${row.request}`, row);
      }
      if (list.scrollTop + list.clientHeight >= list.scrollHeight - 1) break;
      const was = list.scrollTop;
      list.scrollTop += Math.max(22, list.clientHeight - 22);
      if (list.scrollTop === was) break;
      await frame();
    }
    list.scrollTop = 0;
    return [...seen.values()];
  });
}

function cliBreaks(report: Report): Listed[] {
  return report.requests.flatMap((q) => [
    ...(q.observedBreak
      ? [{ source: 'observed', thread: q.thread, request: q.index, cause: q.observedBreak.cause }]
      : []),
    ...(q.cacheBreak ? [{ source: 'simulated', thread: q.thread, request: q.index, cause: q.cacheBreak.cause }] : []),
  ]);
}

const key = (b: Listed) => `${b.source}|${b.thread}|${b.request}|${b.cause}`;

/** Zoom in around a clustered marker (a drag over it) until its break has a marker of its own. */
async function separate(page: Page, request: number): Promise<void> {
  for (let i = 0; i < 6; i++) {
    const own = page.locator(
      `[data-testid="cache-timeline"] g[data-testid="cache-break"][data-source="observed"][data-request="${request}"]:not([data-clustered])`,
    );
    if ((await own.count()) === 1) return;
    const cluster = page
      .locator('[data-testid="cache-break-cluster"][data-source="observed"]')
      .filter({ has: page.locator(`[data-request="${request}"]`) });
    const box = await cluster.boundingBox();
    if (!box) throw new Error(`no marker for request ${request}`);
    const y = box.y + 60;
    const before = await page.getByTestId('timeline-range').getAttribute('data-to');
    await page.mouse.move(box.x - 14, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2, y, { steps: 4 });
    await page.mouse.move(box.x + box.width + 14, y, { steps: 4 });
    await page.mouse.up();
    await expect.poll(() => page.getByTestId('timeline-range').getAttribute('data-to')).not.toBe(before);
  }
  throw new Error(`the break at request ${request} stayed clustered`);
}

describeWild('breaks on a Codex rollout with 18 observed breaks', () => {
  let s: Session;
  let report: Report;
  beforeAll(async () => {
    s = await openApp();
    report = await cliReport(CODEX, {});
    await loadFiles(s.page, [CODEX]);
  });
  afterAll(async () => {
    await s?.close();
    await stopServer();
  });

  it('hovering each observed marker names its request; clicking selects its divergence message', async () => {
    const { page } = s;
    const observed = report.requests.filter((q) => q.observedBreak);
    expect(observed.length).toBeGreaterThanOrEqual(10);
    // Breaks a request or two apart share a cluster until zoomed apart (separate() drags over them).
    await expect.poll(() => page.getByTestId('cache-break-cluster').count()).toBeGreaterThan(0);
    for (const q of observed) {
      await separate(page, q.index);
      const marker = page.locator(
        `[data-testid="cache-timeline"] g[data-testid="cache-break"][data-source="observed"][data-request="${q.index}"]:not([data-clustered])`,
      );
      await marker.hover();
      const card = page.getByTestId('break-hover');
      await expect.poll(() => card.getAttribute('data-request')).toBe(String(q.index));
      expect(await card.textContent()).toContain(`Observed break at request ${q.index}`);
      await marker.click();
      const want = q.observedBreak?.divergence?.messageIndex;
      const row = page.locator('[data-testid="transcript-row"][aria-selected="true"]');
      await expect.poll(() => row.getAttribute('data-message-index')).toBe(String(want));
      // The table marks the same break.
      await expect
        .poll(() => page.locator('[data-testid="break-row"][aria-pressed="true"]').getAttribute('data-request'))
        .toBe(String(q.index));
      if ((await page.getByTestId('timeline-reset').count()) > 0) {
        await page.getByTestId('timeline-reset').click();
        await expect.poll(() => page.getByTestId('timeline-range').getAttribute('data-zoomed')).toBe('false');
      }
    }
    await page.mouse.move(5, 5);
    await screenshot(page, 'breaks-codex-light');
    expect(s.consoleErrors).toEqual([]);
  });

  it('lists every break the CLI reports, and a drag zooms the chart with the table and transcript following', async () => {
    const { page } = s;
    const want = cliBreaks(report);
    const table = page.getByTestId('breaks-table');
    expect(await table.getAttribute('data-observed')).toBe(String(want.filter((b) => b.source === 'observed').length));
    expect(await table.getAttribute('data-simulated')).toBe(
      String(want.filter((b) => b.source === 'simulated').length),
    );
    expect((await tableRows(page)).map(key).sort()).toEqual(want.map(key).sort());

    // Drag over the middle third of the chart.
    const plot = await page.getByTestId('timeline-plot').boundingBox();
    if (!plot) throw new Error('no chart');
    const y = plot.y + 70;
    await page.mouse.move(plot.x + plot.width * 0.35, y);
    await page.mouse.down();
    await page.mouse.move(plot.x + plot.width * 0.45, y, { steps: 5 });
    await page.mouse.move(plot.x + plot.width * 0.6, y, { steps: 5 });
    await page.mouse.up();
    const range = page.getByTestId('timeline-range');
    await expect.poll(() => range.getAttribute('data-zoomed')).toBe('true');
    const from = Number(await range.getAttribute('data-from'));
    const to = Number(await range.getAttribute('data-to'));
    expect(from).toBeGreaterThan(0);
    expect(to).toBeLessThan(report.requests.length - 1);
    const inRange = want.filter((b) => b.request >= from && b.request <= to);
    await expect.poll(async () => (await tableRows(page)).map(key).sort()).toEqual(inRange.map(key).sort());
    await expect(page.getByTestId('breaks-filter').textContent()).resolves.toContain(`requests ${from}–${to}`);
    // The transcript shows the messages of those requests.
    const span = page.getByTestId('transcript-range');
    expect(await span.textContent()).toContain(`requests ${from}–${to}`);
    // The range is view state: in the page URL and in history (Back shows every request, Forward the range again).
    await expect.poll(() => page.url()).toContain(`range=${from}-${to}`);
    await page.goBack();
    await expect.poll(() => range.getAttribute('data-zoomed')).toBe('false');
    await page.goForward();
    await expect.poll(() => range.getAttribute('data-zoomed')).toBe('true');
    expect([await range.getAttribute('data-from'), await range.getAttribute('data-to')]).toEqual([`${from}`, `${to}`]);
    // Breadcrumbs lead back out.
    await page.getByTestId('timeline-reset').click();
    await expect.poll(() => range.getAttribute('data-zoomed')).toBe('false');
    expect((await tableRows(page)).length).toBe(want.length);
    expect(s.consoleErrors).toEqual([]);
  });
});

describeWild('breaks of a Claude Code 2.1 session with sub-agents', () => {
  it('the table lists every observed and simulated break of every thread, as the CLI counts them', async () => {
    const s = await openApp();
    try {
      const report = await cliReport(CC21_SESSION, {});
      const companions = readdirSync(CC21_SUBAGENTS).map((f) => join(CC21_SUBAGENTS, f));
      await loadFiles(s.page, [CC21_SESSION, ...companions]);
      const want = cliBreaks(report);
      expect(new Set(want.map((b) => b.thread)).size).toBeGreaterThan(1);
      expect(want.some((b) => b.source === 'simulated')).toBe(true);
      const table = s.page.getByTestId('breaks-table');
      expect(await table.getAttribute('data-observed')).toBe(
        String(want.filter((b) => b.source === 'observed').length),
      );
      expect((await tableRows(s.page)).map(key).sort()).toEqual(want.map(key).sort());
      // A row of a sub-agent opens that thread, its request and its message.
      const side = want.find((b) => b.thread !== 'main' && b.source === 'observed');
      if (!side) throw new Error('no sub-agent break');
      await s.page
        .locator(
          `[data-testid="break-row"][data-thread=${JSON.stringify(side.thread)}][data-request="${side.request}"]`,
        )
        .first()
        .click();
      await s.page.locator(`[data-testid="transcript-rows"][data-thread=${JSON.stringify(side.thread)}]`).waitFor();
      expect(s.consoleErrors).toEqual([]);
    } finally {
      await s.close();
    }
  });
});
