// The config panel in real Chromium: moving `threshold-tier3Window` re-runs in the worker and changes the
// transcript's tier badges without a reload (and they equal the CLI's for the same settings), presets and
// resets, the live trade-off, and the Monaco JSON editor that rejects an invalid value inline and applies
// a valid one. Screenshots in light and dark.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import { mergeConfig } from '../../src/pipeline/config.ts';
import { presetConfig } from '../../src/pipeline/presets.ts';
import { ROOT, screenshot, stopServer } from './harness.ts';
import { cliReport, expectedBadges, openApp, runId, waitForRun, walkRows } from './ui.ts';

afterAll(async () => {
  await stopServer();
});

const STORY = join(ROOT, 'public/samples/story-37-1.tierscope.json');
const STORY_SET = { contextWindow: 44_000, outputReserve: 8_000 };

async function badges(page: Page): Promise<Record<string, number>> {
  await page.getByTestId('tier-badge').first().waitFor();
  return (await walkRows(page)).badges;
}

it('moving tier3Window changes the tier badges without reloading, matching the CLI', async () => {
  const s = await openApp();
  try {
    const { page } = s;
    await page.evaluate(() => {
      (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
    });
    // The story opens with its own settings: two keys differ from the seeds preset.
    expect(await page.getByTestId('threshold-contextWindow').inputValue()).toBe('44000');
    expect(await page.getByTestId('config-changed').textContent()).toContain('2 keys differ');
    const start = await badges(page);
    const cli8 = expectedBadges(await cliReport(STORY, { ...STORY_SET, tier3Window: 8 })).get('main');
    expect(start).toEqual(cli8);
    const saved8 = await page.getByTestId('tokens-saved').textContent();

    // Move the slider with the keyboard, the way a person nudges it: 8 → 4.
    const slider = page.getByTestId('threshold-tier3Window-slider');
    let before = await runId(page);
    await slider.focus();
    for (let i = 0; i < 4; i++) await slider.press('ArrowLeft');
    await waitForRun(page, before);
    await expect.poll(() => page.getByTestId('threshold-tier3Window').inputValue()).toBe('4');
    await expect.poll(() => badges(page)).not.toEqual(start);
    const cli4 = expectedBadges(await cliReport(STORY, { ...STORY_SET, tier3Window: 4 })).get('main');
    await expect.poll(() => badges(page)).toEqual(cli4);
    expect(await page.getByTestId('tokens-saved').textContent()).not.toBe(saved8);
    expect(await page.getByTestId('config-changed').textContent()).toContain('3 keys differ');

    // Typing in the number input works the same once Enter (or leaving the field) commits it; the reset button
    // brings back the preset's value.
    before = await runId(page);
    await page.getByTestId('threshold-tier3Window').fill('12');
    await page.getByTestId('threshold-tier3Window').press('Enter');
    await waitForRun(page, before);
    const cli12 = expectedBadges(await cliReport(STORY, { ...STORY_SET, tier3Window: 12 })).get('main');
    await expect.poll(() => badges(page)).toEqual(cli12);
    before = await runId(page);
    await page.getByTestId('reset-tier3Window').click();
    await waitForRun(page, before);
    await expect.poll(() => badges(page)).toEqual(cli8);

    // An invalid value is refused beside the control and nothing re-runs.
    await page.getByTestId('threshold-tier2Cap').fill('3');
    await page.getByTestId('threshold-tier2Cap').press('Enter');
    await expect.poll(() => page.getByTestId('config-panel').textContent()).toContain('tier2Cap: must be ≥ 10');

    // Still the same document: nothing reloaded.
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    await page.getByTestId('threshold-tier2Cap').fill('300');
    await page.getByTestId('threshold-tier2Cap').press('Enter');
    // The dock grows on request so the controls have room; the timeline stays in view above.
    await page.getByTestId('config-expand').click();
    await page.getByTestId('threshold-tier3Window').scrollIntoViewIfNeeded();
    await page.mouse.move(5, 5);
    await screenshot(page, 'config-light');
    expect(s.consoleErrors).toEqual([]);
    expect(s.externalRequests).toEqual([]);
  } finally {
    await s.close();
  }
});

it('presets: choosing one replaces the config, shows its description, and re-runs', async () => {
  const s = await openApp();
  try {
    const { page } = s;
    const before = await runId(page);
    await page.getByTestId('preset-select').selectOption('none');
    await waitForRun(page, before);
    expect(await page.getByTestId('preset-description').textContent()).toContain('No rewriting at all');
    expect(await page.getByTestId('config-changed').getAttribute('data-count')).toBe('0');
    expect(await page.getByTestId('config-changed').textContent()).toBe('0 keys differ from the preset');
    expect(await page.getByTestId('reset-all').count()).toBe(0);
    expect(await page.getByTestId('threshold-tiersEnabled').isChecked()).toBe(false);
    await expect.poll(() => page.getByTestId('tokens-saved').textContent()).toBe('0');
    expect(s.consoleErrors).toEqual([]);
  } finally {
    await s.close();
  }
});

/** Select the value of `key` in the Monaco editor (the text between ": " and the trailing comma). Keys go to
 *  whatever Monaco focused after the click (its edit context), not to a located element. */
async function selectValue(page: Page, key: string, valueLength: number, line: number): Promise<void> {
  await page.locator('[data-testid="config-editor"]').click({ position: { x: 300, y: 20 }, force: true });
  const kb = page.keyboard;
  await kb.press('Control+Home');
  for (let i = 1; i < line; i++) await kb.press('ArrowDown');
  await kb.press('End');
  await kb.press('ArrowLeft');
  for (let i = 0; i < valueLength; i++) await kb.press('Shift+ArrowLeft');
  await expect
    .poll(() =>
      page
        .locator('[data-testid="config-editor"] .view-line')
        .filter({ hasText: `"${key}"` })
        .count(),
    )
    .toBe(1);
}

it('the JSON editor rejects an invalid value inline and applies a valid one', async () => {
  const s = await openApp();
  try {
    const { page } = s;
    await page.getByTestId('config-tab-json').click();
    await page.locator('[data-testid="config-editor"] .monaco-editor').waitFor();
    const text = JSON.stringify({ preset: 'seeds', ...mergeConfig(presetConfig('seeds'), STORY_SET) }, null, 2);
    const line = text.split('\n').findIndex((l) => l.includes('"tier3Window"')) + 1;
    expect(line).toBeGreaterThan(1);
    const status = page.getByTestId('config-json-status');

    // −3 breaks the schema (minimum 0): the editor marks it and the config is not applied.
    const before = await runId(page);
    await selectValue(page, 'tier3Window', 1, line);
    await page.keyboard.type('-3');
    await expect.poll(() => status.textContent()).toMatch(/^Not applied: .*(minimum|≥ 0)/);
    await page.locator('[data-testid="config-editor"] .squiggly-error').first().waitFor();
    // Not applied: the config still differs from the preset in the story's two keys only, so nothing re-ran.
    expect(await page.getByTestId('config-changed').getAttribute('data-count')).toBe('2');
    expect(await runId(page)).toBe(before);
    await page.mouse.move(5, 5);
    await screenshot(page, 'config-json-error-light');

    // 5 is valid: applied, the control follows, the worker re-runs.
    await selectValue(page, 'tier3Window', 2, line);
    await page.keyboard.type('5');
    await expect.poll(() => status.textContent()).toBe('Applied.');
    await waitForRun(page, before);
    await page.getByTestId('config-tab-controls').click();
    await expect.poll(() => page.getByTestId('threshold-tier3Window').inputValue()).toBe('5');
    expect(s.consoleErrors).toEqual([]);
    expect(s.externalRequests).toEqual([]);
  } finally {
    await s.close();
  }
});

it('dark theme screenshots of the config panel (controls and JSON)', async () => {
  const s = await openApp({ colorScheme: 'dark' });
  try {
    await s.page.getByTestId('config-expand').click();
    await screenshot(s.page, 'config-dark');
    await s.page.getByTestId('config-tab-json').click();
    await s.page.locator('[data-testid="config-editor"] .monaco-editor').waitFor();
    await screenshot(s.page, 'config-json-dark');
    await s.page.getByTestId('config-tab-aliases').click();
    await s.page.getByTestId('alias-table').waitFor();
    await expect.poll(() => s.page.getByTestId('alias-table').textContent()).toContain('file_read');
    expect(s.consoleErrors).toEqual([]);
  } finally {
    await s.close();
  }
});
