// Controls that cannot mislead (issue 28), in Chromium: a typed window that puts the hard cap under the trigger is
// warned about while it is typed, before anything runs; the window moves by its documented steps (↑ ↓ 1,000, with
// Shift 4,000); switching through every preset logs no console error. And the pipeline that does nothing at the
// defaults on a real Claude Code 2.0 session says why in one line, and its what-if makes tier badges appear. A
// result the hard cap dropped says so with its size, and its Diff tab opens the drop; the heatmap explains itself.
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { PRESET_IDS } from '../../src/pipeline/presets.ts';
import { describeWild, WILD_DIR } from '../helpers/fixtures.ts';
import { ROOT, screenshot, stopServer } from './harness.ts';
import { clickRow, cliReport, editorText, loadFiles, openApp, runId, setConfig, waitForRun, walkRows } from './ui.ts';

afterAll(async () => {
  await stopServer();
});

it('warns about a hard cap under the trigger before the run, steps the window by 1k/4k, switches presets cleanly', async () => {
  const s = await openApp();
  try {
    const { page } = s;
    // The sample opens with a 44,000 window and an 8,000 reserve: no contradiction. A 200,000 window with the
    // usual 32,000 reserve has none either (hard cap 168k over the 160k trigger).
    const win = page.getByTestId('threshold-contextWindow');
    expect(await win.inputValue()).toBe('44000');
    expect(await page.getByTestId('config-conflict-active').count()).toBe(0);
    let before = await runId(page);
    await win.fill('200000');
    await win.press('Enter');
    before = await waitForRun(page, before);
    const reserve = page.getByTestId('threshold-outputReserve');
    await reserve.fill('32000');
    await reserve.press('Enter');
    before = await waitForRun(page, before);
    expect(await page.getByTestId('config-conflict-active').count()).toBe(0);

    // Typing 100000: the hard cap (68k) would sit under the trigger (80k). Said while typing, nothing has run.
    await win.fill('100000');
    const warning = page.getByTestId('config-conflict');
    await expect.poll(() => warning.first().textContent()).toMatch(/hard cap \(68k = window 100k − reserve 32k\)/);
    expect(await warning.first().getAttribute('data-id')).toBe('hardcap-under-trigger');
    expect(await win.inputValue()).toBe('100000');
    expect(await runId(page)).toBe(before);
    await page.mouse.move(5, 5);
    await screenshot(page, 'config-conflict-light');
    // Enter runs it anyway; the panel keeps saying so while it is in effect.
    await win.press('Enter');
    before = await waitForRun(page, before);
    expect(await page.getByTestId('config-conflict-active').getAttribute('data-id')).toBe('hardcap-under-trigger');

    // Arrow keys move the window by its steps, each a run.
    await win.press('ArrowUp');
    before = await waitForRun(page, before);
    expect(await win.inputValue()).toBe('101000');
    await win.press('Shift+ArrowDown');
    before = await waitForRun(page, before);
    expect(await win.inputValue()).toBe('97000');
    // A typed value that is no number is refused beside the control, and nothing runs.
    await win.fill('lots');
    await win.press('Enter');
    await expect
      .poll(() => page.getByTestId('config-panel').textContent())
      .toContain('contextWindow: must be a number');
    expect(await runId(page)).toBe(before);
    await win.press('Escape');
    expect(await win.inputValue()).toBe('97000');

    // Every preset, one after the other: each runs, and nothing is logged — neither an error nor Chromium's
    // warning about a number field given "null" (six of them, one per switch, before).
    const warnings: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'warning') warnings.push(m.text());
    });
    for (const id of [...PRESET_IDS.slice(1), PRESET_IDS[0]]) {
      await page.getByTestId('preset-select').selectOption(id);
      before = await waitForRun(page, before);
    }
    expect(warnings).toEqual([]);
    expect(s.consoleErrors).toEqual([]);
    expect(s.externalRequests).toEqual([]);
  } finally {
    await s.close();
  }
});

const CC20 = join(
  WILD_DIR,
  'claude-code/projects/paismart--Users-pretor-Documents-PAI---TPOS/24a90d02-9724-4548-9f4f-97bcb9f93ef3.jsonl',
);

describeWild('a Claude Code session where the default preset does not fire', () => {
  it('says why in one line and its what-if makes tier badges appear', async () => {
    const s = await openApp();
    try {
      const { page } = s;
      await loadFiles(page, [CC20]);
      const idle = page.getByTestId('idle-reason');
      await expect
        .poll(() => idle.textContent())
        .toMatch(/The agent compacted once at 126k, below this preset's trigger of 160k \(80% of 200k\)/);
      expect(Object.keys((await walkRows(page)).badges)).toHaveLength(0);
      // The transcript's legend shows no tier it has not got.
      expect(await page.getByTestId('tier-legend').locator('.tier-badge').count()).toBe(0);
      await page.mouse.move(5, 5);
      await screenshot(page, 'idle-reason-light');
      const raw = page.locator('[data-testid="idle-action"][data-kind="mode"]');
      expect(await raw.textContent()).toContain('raw mode');
      const before = await runId(page);
      await raw.click();
      await waitForRun(page, before);
      expect(await page.getByTestId('mode-select').inputValue()).toBe('raw');
      await expect.poll(() => idle.count()).toBe(0);
      await page.getByTestId('tier-badge').first().waitFor();
      const tiers = Object.values((await walkRows(page)).badges);
      expect(tiers.filter((t) => t === 1).length).toBeGreaterThan(0);
      expect(await page.getByTestId('tier-legend').locator('.tier-badge').count()).toBeGreaterThan(0);
      expect(s.consoleErrors).toEqual([]);
    } finally {
      await s.close();
    }
  });
});

it('a dropped result reads as dropped, its Diff tab opens the drop, and the heatmap explains its colours', async () => {
  const s = await openApp();
  try {
    const { page } = s;
    const set = { contextWindow: 36_000, outputReserve: 8000 };
    const first = await runId(page);
    await page.getByTestId('threshold-summarize.enabled').uncheck();
    await waitForRun(page, first);
    await setConfig(page, set);
    const report = await cliReport(join(ROOT, 'public/samples/story-37-1.tierscope.json'), {
      ...set,
      'summarize.enabled': 'false',
    });
    const dropped = report.toolResults.find((r) => r.dropped);
    if (!dropped) throw new Error('nothing dropped');
    await clickRow(page, dropped.messageIndex);
    const fate = page.locator(`[data-testid="result-fate"][data-tool-use-id="${dropped.toolUseId}"]`);
    await expect.poll(() => fate.textContent()).toMatch(/chars → dropped at request \d+/);
    const diff = page.getByTestId('detail-tab-diff');
    expect(await diff.isDisabled()).toBe(false);
    await diff.click();
    await page.getByTestId('diff-editor').waitFor();
    await expect.poll(() => editorText(page, 'diff-editor')).toContain(dropped.toolUseId);

    // The strip of tokens per message has a legend and a hover that names the message.
    expect(await page.getByTestId('heatmap-legend').textContent()).toMatch(/^1.*\d/);
    const strip = await page.getByTestId('token-heatmap').boundingBox();
    if (!strip) throw new Error('no heatmap');
    await page.mouse.move(strip.x + strip.width / 2, strip.y + 3);
    await expect.poll(() => page.getByTestId('heatmap-hover').textContent()).toMatch(/^#0 user.*tokens \(counted\)/);
    expect(s.consoleErrors).toEqual([]);
  } finally {
    await s.close();
  }
});
