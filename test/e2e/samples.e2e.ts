// The bundled samples in real Chromium: the manifest lists them, the app opens on the 37.1 story with the
// story's settings applied (the Read of session.go keeps head and tail at Tier 2, the bash output beside
// it is a Tier-1 stub, and the re-run shows as re-fetch risk), and every sample loads from the picker.
import type { Page } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import type { SampleEntry } from '../../src/protocol/samples.ts';
import { screenshot, stopServer } from './harness.ts';
import { openApp, runId, waitForRun } from './ui.ts';

afterAll(async () => {
  await stopServer();
});

async function tierOfRow(page: Page, index: number): Promise<string | null> {
  const badge = page.locator(
    `[data-testid="transcript-row"][data-message-index="${index}"] [data-testid="tier-badge"]`,
  );
  await badge.first().waitFor();
  return badge.first().getAttribute('data-tier');
}

it('opens on the 37.1 story with its settings, and the story shows', async () => {
  const s = await openApp();
  try {
    const { page } = s;
    const manifest = (await (await page.request.get(`${s.baseUrl}samples/index.json`)).json()) as {
      samples: SampleEntry[];
    };
    expect(manifest.samples.map((e) => e.id)).toEqual(['story-37-1', 'cache-break', 'pairing-bug']);
    for (const e of manifest.samples) {
      expect(e.title.length).toBeGreaterThan(10);
      expect(e.description.length).toBeGreaterThan(40);
      const body = await (await page.request.get(`${s.baseUrl}samples/${e.file}`)).body();
      expect(body.length).toBeGreaterThan(1000);
      expect(body.length).toBeLessThan(1_000_000);
    }

    expect(await page.getByTestId('sample-picker').inputValue()).toBe('story-37-1');
    expect(await page.getByTestId('load-status').textContent()).toContain('story-37-1.tierscope.json');
    expect(await page.getByTestId('threshold-contextWindow').inputValue()).toBe('44000');
    expect(await page.getByTestId('threshold-outputReserve').inputValue()).toBe('8000');
    // Message 4 is the Read of internal/auth/session.go, message 6 the bash `sed` of token.go beside it.
    expect(await page.locator('[data-testid="transcript-row"][data-message-index="3"]').textContent()).toContain(
      'session.go',
    );
    expect(await tierOfRow(page, 4)).toBe('2');
    expect(await tierOfRow(page, 6)).toBe('1');
    await expect.poll(() => page.getByTestId('refetch-risk').textContent()).toBe('1 result');
    expect(s.consoleErrors).toEqual([]);
    expect(s.externalRequests).toEqual([]);
  } finally {
    await s.close();
  }
});

it('every sample loads from the picker with its settings and no parse issues', async () => {
  const s = await openApp();
  try {
    const { page } = s;
    const options = await page
      .getByTestId('sample-picker')
      .locator('option:not([disabled])')
      .evaluateAll((els) => els.map((e) => ({ id: (e as HTMLOptionElement).value, title: e.getAttribute('title') })));
    expect(options.map((o) => o.id)).toEqual(['story-37-1', 'cache-break', 'pairing-bug']);
    expect(options.every((o) => (o.title ?? '').length > 40)).toBe(true);
    for (const id of ['cache-break', 'pairing-bug', 'story-37-1']) {
      const before = await runId(page);
      await page.getByTestId('sample-picker').selectOption(id);
      await page.waitForFunction(
        (x) => {
          const el = document.querySelector('[data-testid="load-status"]');
          return el?.getAttribute('data-status') === 'ready' && (el.textContent ?? '').includes(x);
        },
        id,
        { timeout: 120_000 },
      );
      await waitForRun(page, before);
      expect(await page.getByTestId('sample-picker').inputValue()).toBe(id);
      expect(await page.getByTestId('parse-issues').count()).toBe(0);
      const contextWindow = await page.getByTestId('threshold-contextWindow').inputValue();
      expect(contextWindow).toBe(id === 'story-37-1' ? '44000' : '200000');
    }
    await screenshot(page, 'samples-story');
    expect(s.consoleErrors).toEqual([]);
    expect(s.externalRequests).toEqual([]);
  } finally {
    await s.close();
  }
});
