// Defaults come from the log, in real Chromium: the bundled sample opens with its own settings (said so); a real
// Codex and a real SWE-agent fixture opened after it show the provider and window their log implies ("from the
// log", with the model), 0 keys differ from the preset, and nothing of the previous file's overrides survives;
// overriding the provider or the window is shown as such and resets to the log's value. Screenshots.

import type { Page } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import { describeReal } from '../helpers/fixtures.ts';
import { screenshot, stopServer } from './harness.ts';
import { loadFiles, openApp, realPath, runId, setConfig, waitForRun } from './ui.ts';

afterAll(async () => {
  await stopServer();
});

const CODEX = 'codex/simonw-codex-0.77-homelab.jsonl';
const SWE = 'swe-agent/swe-agent-marshmallow-1867-function-calling-replace.traj';

type Shown = {
  provider: string;
  providerNote: string | null;
  providerSource: string | null;
  providerOverridden: string | null;
  window: string;
  windowNote: string | null;
  windowSource: string | null;
  windowOverridden: string | null;
  differ: string | null;
  origin: string | null;
};

async function shown(page: Page): Promise<Shown> {
  const note = page.getByTestId('default-contextWindow');
  const prov = page.getByTestId('default-provider');
  const origin = page.getByTestId('config-origin');
  return {
    provider: await page.getByTestId('provider-select').inputValue(),
    providerNote: await prov.textContent(),
    providerSource: await prov.getAttribute('data-source'),
    providerOverridden: await prov.getAttribute('data-overridden'),
    window: await page.getByTestId('threshold-contextWindow').inputValue(),
    windowNote: await note.textContent(),
    windowSource: await note.getAttribute('data-source'),
    windowOverridden: await note.getAttribute('data-overridden'),
    differ: await page.getByTestId('config-changed').locator('span').first().textContent(),
    origin: (await origin.count()) > 0 ? await origin.getAttribute('data-kind') : null,
  };
}

describeReal('defaults from the log', () => {
  it('Codex and SWE-agent after the sample: their own provider and window, 0 keys differ', async () => {
    const s = await openApp();
    try {
      const { page } = s;
      // The sample brings its own window (44,000 over the log's 200,000), and the panel says whose it is.
      expect(await shown(page)).toEqual({
        provider: 'anthropic',
        providerNote: 'from the log · claude-sonnet-4-5-20250929',
        providerSource: 'model',
        providerOverridden: 'false',
        window: '44000',
        windowNote: 'from the sample · the log says 200,000',
        windowSource: 'override',
        windowOverridden: 'true',
        differ: '2 keys differ from the preset',
        origin: 'sample',
      });

      await loadFiles(page, [realPath(CODEX)]);
      expect(await shown(page)).toEqual({
        provider: 'openai-responses',
        providerNote: 'from the log · codex format',
        providerSource: 'format',
        providerOverridden: 'false',
        window: '400000',
        windowNote: 'from the log · gpt-5.2-codex in the catalog',
        windowSource: 'catalog',
        windowOverridden: 'false',
        differ: '0 keys differ from the preset',
        origin: null,
      });
      expect(await page.getByTestId('threshold-outputReserve').inputValue()).toBe('32000');
      expect(await page.getByTestId('default-contextWindow').getAttribute('title')).toBe(
        '@pydantic/genai-prices 0.1.8 lists 400,000 for gpt-5.2-codex (as gpt-5.2)',
      );
      await page.getByTestId('config-expand').click();
      await page.mouse.move(5, 5);
      await screenshot(page, 'defaults-codex-light');

      await loadFiles(page, [realPath(SWE)]);
      expect(await shown(page)).toEqual({
        provider: 'openai-chat',
        providerNote: 'from the log · gpt-4o',
        providerSource: 'model',
        providerOverridden: 'false',
        window: '128000',
        windowNote: 'from the log · gpt-4o in the catalog',
        windowSource: 'catalog',
        windowOverridden: 'false',
        differ: '0 keys differ from the preset',
        origin: null,
      });
      // OpenAI's rules: the repeated call ids are flagged, not rejected as Anthropic would.
      const issues = page.getByTestId('pairing-issue');
      await expect.poll(() => issues.count()).toBe(3);
      expect(await page.locator('[data-testid="pairing-issue"][data-severity="error"]').count()).toBe(0);
      expect((await issues.allTextContents()).some((t) => t.includes('ids must be unique'))).toBe(false);
      await screenshot(page, 'defaults-swe-agent-light');

      // Overrides are shown as such and reset to the log's value.
      let before = await runId(page);
      await page.getByTestId('provider-select').selectOption('anthropic');
      await waitForRun(page, before);
      expect(await page.getByTestId('default-provider').textContent()).toMatch(
        /^override · the log says OpenAI Chat Completions/,
      );
      expect(await page.getByTestId('default-provider').getAttribute('data-overridden')).toBe('true');
      await expect.poll(() => page.locator('[data-testid="pairing-issue"][data-severity="error"]').count()).toBe(3);
      expect((await issues.allTextContents()).every((t) => t.includes('`tool_use` ids must be unique'))).toBe(true);
      await setConfig(page, { contextWindow: 50_000, tier3Window: 4 });
      expect(await shown(page)).toMatchObject({
        windowNote: 'override · the log says 128,000',
        windowOverridden: 'true',
        differ: '2 keys differ from the preset',
      });
      await page.mouse.move(5, 5);
      await screenshot(page, 'defaults-overrides-light');
      before = await runId(page);
      await page.getByTestId('reset-provider').click();
      await waitForRun(page, before);
      expect(await page.getByTestId('provider-select').inputValue()).toBe('openai-chat');
      before = await runId(page);
      await page.getByTestId('reset-contextWindow').click();
      await waitForRun(page, before);
      expect(await shown(page)).toMatchObject({ window: '128000', windowOverridden: 'false' });

      // A file opened after overrides starts from its own defaults again (nothing carries over).
      await page.getByTestId('provider-select').selectOption('bedrock');
      await setConfig(page, { contextWindow: 60_000 });
      await loadFiles(page, [realPath(CODEX)]);
      expect(await shown(page)).toMatchObject({
        provider: 'openai-responses',
        providerOverridden: 'false',
        window: '400000',
        differ: '0 keys differ from the preset',
      });
      expect(await page.getByTestId('threshold-tier3Window').inputValue()).toBe('8');
      expect(s.consoleErrors).toEqual([]);
      expect(s.externalRequests).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('a preset chosen by the user stays for the next file, with that file’s window', async () => {
    const s = await openApp({ colorScheme: 'dark' });
    try {
      const { page } = s;
      const before = await runId(page);
      await page.getByTestId('preset-select').selectOption('kocoro-source');
      await waitForRun(page, before);
      await loadFiles(page, [realPath(SWE)]);
      expect(await page.getByTestId('preset-select').inputValue()).toBe('kocoro-source');
      expect(await shown(page)).toMatchObject({ window: '128000', differ: '0 keys differ from the preset' });
      await page.getByTestId('config-expand').click();
      await page.mouse.move(5, 5);
      await screenshot(page, 'defaults-swe-agent-dark');
      expect(s.consoleErrors).toEqual([]);
    } finally {
      await s.close();
    }
  });
});
