// Dollars in the app, checked against the CLI's report of the same file: the summary bar of the claude-trace
// fixture (recorded → simulated, a row per model: Sonnet and the Haiku side calls, the catalog's version), the
// timeline hover of a request (its dollars, and at the 7-minute TTL break what a 1-hour write would have cost
// and saved), the preset's saving and the re-fetch cost in the config panel, and a model the catalog lacks:
// "price unknown" until a price is typed, which the share link then carries.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/analyses/report.ts';
import { fmtUsd } from '../../src/lib/money.ts';
import { asst, jsonl, text, user } from '../helpers/claude-code-lines.ts';
import { describeReal, wildPath } from '../helpers/fixtures.ts';
import { ARTIFACTS, screenshot, stopServer } from './harness.ts';
import { cliReport, loadFiles, openApp, openSample, realPath, runId, waitForRun } from './ui.ts';

afterAll(async () => {
  await stopServer();
});

async function rows(page: Page): Promise<{ model: string; usd: string; pricing: string }[]> {
  return page.getByTestId('cost-model-row').evaluateAll((els) =>
    els.map((e) => ({
      model: e.getAttribute('data-model') ?? '',
      pricing: e.getAttribute('data-pricing') ?? '',
      usd: e.querySelector('[data-testid="cost-model-usd"]')?.textContent ?? '',
    })),
  );
}

describeReal('dollars in the summary bar and the hover', () => {
  it('claude-trace: recorded → simulated dollars and a row per model (Sonnet, Haiku side calls), as the CLI', async () => {
    const s = await openApp();
    try {
      const file = realPath('claude-trace/lemmy-test-traffic.redacted.jsonl');
      await loadFiles(s.page, [file]);
      const report = await cliReport(file);
      const rec = report.totals.cost.recorded;
      if (!rec) throw new Error('the fixture has usage');
      expect(await s.page.getByTestId('stat-cost-recorded').textContent()).toBe(fmtUsd(rec.usd));
      expect(await s.page.getByTestId('stat-cost-simulated').textContent()).toBe(
        `≈${fmtUsd(report.totals.cost.simulated.usd)}`,
      );
      expect(await rows(s.page)).toEqual(
        rec.byModel.map((m) => ({ model: m.model, pricing: 'catalog', usd: fmtUsd(m.usd?.usd ?? Number.NaN) })),
      );
      expect((await rows(s.page)).map((r) => r.model).sort()).toEqual([
        'claude-3-5-haiku-20241022',
        'claude-sonnet-4-20250514',
      ]);
      expect(await s.page.getByTestId('cost-catalog').textContent()).toBe('genai-prices 0.1.8');
      // per thread: the main conversation, and the side calls summed in their group
      const main = rec.byThread.find((t) => t.thread === 'main');
      const sides = rec.byThread.filter((t) => t.kind === 'side-call').reduce((n, t) => n + t.usd, 0);
      const mainItem = s.page.locator('[data-testid="thread-item"][data-thread-id="main"]');
      expect(await mainItem.getByTestId('thread-cost').textContent()).toBe(fmtUsd(main?.usd ?? Number.NaN));
      expect(await s.page.getByTestId('side-call-cost').textContent()).toBe(fmtUsd(sides));
      expect(await s.page.getByTestId('summary-bar').textContent()).not.toMatch(/assumed/);
      await screenshot(s.page, 'cost-trace');
      // the hover of request 13 (its tools changed): that request's dollars
      const q = report.requests.find((x) => x.thread === 'main' && x.index === 13);
      if (!q) throw new Error('no request 13');
      await s.page
        .locator('[data-testid="cache-timeline"] [data-testid="cache-break"][data-kind="observed"][data-request="13"]')
        .hover();
      const card = s.page.getByRole('tooltip');
      await expect.poll(() => card.textContent()).toMatch(/Request 13/);
      expect(await card.getByTestId('hover-cost-recorded').textContent()).toBe(
        fmtUsd(q.costUsd.recorded ?? Number.NaN),
      );
      expect(await card.getByTestId('hover-cost-simulated').textContent()).toBe(
        `≈${fmtUsd(q.costUsd.simulated ?? Number.NaN)}`,
      );
      await screenshot(s.page, 'cost-hover-trace');
      await s.page.mouse.move(5, 5);
      await s.page.getByTestId('summary-bar').screenshot({ path: join(ARTIFACTS, 'cost-summary-bar-trace.png') });
      expect(s.consoleErrors).toEqual([]);
      expect(s.externalRequests).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('a wild session with a rewound branch: the rewound dollars shown apart, included in the recorded total', async () => {
    const s = await openApp();
    try {
      const file = wildPath('claude-code/projects/ccl--experiments-ideas/03eb5929-52b3-4b13-ada3-b93ae35806b8.jsonl');
      await loadFiles(s.page, [file]);
      const report = await cliReport(file);
      const rec = report.totals.cost.recorded;
      if (!rec) throw new Error('the session has usage');
      expect(rec.abandonedUsd).toBeGreaterThan(0);
      expect(await s.page.getByTestId('stat-cost-recorded').textContent()).toBe(fmtUsd(rec.usd));
      expect(await s.page.getByTestId('stat-cost-apart').textContent()).toBe(
        ` (incl. ${fmtUsd(rec.abandonedUsd)} rewound)`,
      );
      await s.page.getByTestId('summary-bar').screenshot({ path: join(ARTIFACTS, 'cost-summary-bar-wild.png') });
      // hover the most expensive request of the main thread
      const box = await s.page.locator('[data-testid="cache-timeline"] svg').first().boundingBox();
      if (!box) throw new Error('no chart');
      await s.page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
      const card = s.page.getByRole('tooltip');
      await card.getByTestId('hover-cost').waitFor();
      expect(await card.getByTestId('hover-cost-recorded').textContent()).toMatch(/^\$\d+\.\d+$/);
      await screenshot(s.page, 'cost-hover-wild');
      expect(s.consoleErrors).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('the hover of a request shows its dollars, and at a TTL break what a 1-hour write would have changed', async () => {
    const s = await openApp();
    try {
      const { page } = s;
      await openSample(page, 'cache-break', 'cache-break.jsonl');
      const report = await cliReport('public/samples/cache-break.jsonl');
      const q = report.requests.find((x) => x.thread === 'main' && x.index === 6);
      const advice = q?.observedBreak?.oneHourWrite;
      if (!q || !advice || advice.extraUsd === null || advice.savedUsd === null) throw new Error('no TTL advice');
      const ttl = page.locator(
        '[data-testid="cache-timeline"] [data-testid="cache-break"][data-kind="observed"][data-cause="ttl-expired"]',
      );
      await ttl.hover();
      const card = page.getByRole('tooltip');
      await expect.poll(() => card.textContent()).toMatch(/Request 6/);
      expect(await card.getByTestId('hover-cost-recorded').textContent()).toBe(
        fmtUsd(q.costUsd.recorded ?? Number.NaN),
      );
      expect(await card.getByTestId('hover-cost-simulated').textContent()).toBe(
        `≈${fmtUsd(q.costUsd.simulated ?? Number.NaN)}`,
      );
      const one = card.getByTestId('ttl-one-hour').first();
      expect(await one.getAttribute('data-helps')).toBe('true');
      const words = (await one.textContent()) ?? '';
      expect(words).toContain(`+${fmtUsd(advice.extraUsd)}`);
      expect(words).toContain(`−${fmtUsd(advice.savedUsd)}`);
      expect(words).toContain(`saves ≈${fmtUsd(advice.savedUsd - advice.extraUsd)}`);
      await screenshot(page, 'cost-hover-ttl');
      expect(s.consoleErrors).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('the trade-off: the preset’s saving in dollars next to what its re-fetch costs (the 37.1 story)', async () => {
    const s = await openApp();
    try {
      const report: Report = await cliReport('public/samples/story-37-1.tierscope.json', {
        contextWindow: 44_000,
        outputReserve: 8000,
      });
      const without = report.totals.cost.withoutPipeline;
      if (!without || report.totals.refetchAfterPipelineUsd === null) throw new Error('no saving or re-fetch');
      const saved = without.requestsUsd - report.totals.cost.simulated.requestsUsd;
      expect(saved).toBeGreaterThan(0);
      await expect
        .poll(() => s.page.getByTestId('saved-usd').textContent())
        .toBe(`saves ≈${fmtUsd(saved)} of ≈${fmtUsd(without.requestsUsd)}`);
      expect(await s.page.getByTestId('refetch-risk-usd').textContent()).toBe(
        fmtUsd(report.totals.refetchAfterPipelineUsd),
      );
    } finally {
      await s.close();
    }
  });
});

describe('a model without a price', () => {
  it('says "price unknown"; a typed price re-prices the session and travels in the share link', async () => {
    const s = await openApp();
    try {
      const { page } = s;
      const answer = asst('a1', 'u1', 'msg_1', [text('hello')]);
      (answer.message as Record<string, unknown>).model = 'acme-llm-7';
      const before = await runId(page);
      await page.getByTestId('paste-button').click();
      await page.getByTestId('paste-text').fill(jsonl(user('u1', null, 'hi'), answer));
      await page.getByTestId('paste-load').click();
      await waitForRun(page, before);
      const row = page.locator('[data-testid="cost-model-row"][data-model="acme-llm-7"]');
      expect(await row.getAttribute('data-pricing')).toBe('unknown');
      expect(await row.getByTestId('cost-price-unknown').textContent()).toBe('price unknown');
      expect(await page.getByTestId('stat-cost-recorded').textContent()).toBe('$0.00');

      await row.getByTestId('cost-set-price').click();
      const at = await runId(page);
      await row.getByTestId('model-price-input').fill('2');
      await row.getByTestId('model-price-output').fill('8');
      await row.getByTestId('model-price-cacheRead').fill('0.2');
      await row.getByTestId('model-price-cacheWrite5m').fill('2.5');
      await row.getByTestId('model-price-save').click();
      await waitForRun(page, at);
      // the helper line's usage: 3 input, 5 output, 1,000 cache read, 10 cache write
      const usd = fmtUsd((3 * 2 + 5 * 8 + 1000 * 0.2 + 10 * 2.5) / 1e6);
      expect(await rows(page)).toEqual([{ model: 'acme-llm-7', pricing: 'user', usd }]);
      expect(await page.getByTestId('stat-cost-recorded').textContent()).toBe(usd);
      await screenshot(page, 'cost-user-price');

      await page.keyboard.press('s');
      await page.getByTestId('share-dialog').waitFor();
      await page.waitForFunction(() => {
        const el = document.querySelector<HTMLTextAreaElement>('[data-testid="share-url"]');
        return !!el?.value.includes('#s=1.') && !el.closest('[aria-busy="true"]');
      });
      const link = await page.getByTestId('share-url').inputValue();
      const other = await openApp();
      try {
        await other.page.goto(link);
        await other.page.locator('[data-testid="load-status"][data-status="ready"]').waitFor();
        await waitForRun(other.page);
        expect(await rows(other.page)).toEqual([{ model: 'acme-llm-7', pricing: 'user', usd }]);
      } finally {
        await other.close();
      }
      expect(s.consoleErrors).toEqual([]);
      expect(s.externalRequests).toEqual([]);
    } finally {
      await s.close();
    }
  });
});
