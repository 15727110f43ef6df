// The pairing panel in real Chromium on the pairing-bug sample: the provider's exact error texts (equal to
// the CLI's for the same file and provider), the blamed stage, switching provider re-runs and changes the
// texts, clicking an issue jumps to its message, and a clean session says so plainly.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import type { Report } from '../../src/analyses/report.ts';
import { runCli } from '../../src/cli/main.ts';
import { ROOT, screenshot, stopServer } from './harness.ts';
import { openApp, openSample, runId, waitForRun } from './ui.ts';

afterAll(async () => {
  await stopServer();
});

const SAMPLE = join(ROOT, 'public/samples/pairing-bug.jsonl');

async function cliPairing(provider: string): Promise<Report['pairing']> {
  const out: string[] = [];
  const code = await runCli(['analyze', SAMPLE, '--json', '--provider', provider], {
    out: (s) => out.push(s),
    err: () => {},
  });
  expect(code).toBe(0);
  return (JSON.parse(out.join('\n')) as Report).pairing;
}

type Shown = { rule: string; stage: string; index: number; text: string };

async function shownIssues(page: Page): Promise<Shown[]> {
  return page.getByTestId('pairing-issue').evaluateAll((els) =>
    els.map((e) => ({
      rule: e.getAttribute('data-rule') ?? '',
      stage: e.getAttribute('data-stage') ?? '',
      index: Number(e.getAttribute('data-message-index')),
      text: e.querySelector('.pp-error')?.textContent ?? '',
    })),
  );
}

function expected(p: Report['pairing']): Shown[] {
  return p.map((v) => ({ rule: v.rule, stage: v.stage, index: v.messageIndex, text: v.error }));
}

it('shows the provider’s exact errors, follows the provider selector, and jumps on click', async () => {
  const s = await openApp();
  try {
    const { page } = s;
    // The default sample pairs cleanly.
    await expect.poll(() => page.getByTestId('pairing-panel').textContent()).toContain('No pairing problems for');
    expect(await page.getByTestId('pairing-issue').count()).toBe(0);

    await openSample(page, 'pairing-bug', 'pairing-bug.jsonl');
    const anthropic = await cliPairing('anthropic');
    expect(anthropic.length).toBeGreaterThan(0);
    await expect.poll(() => shownIssues(page)).toEqual(expected(anthropic));
    const shown = await shownIssues(page);
    expect(shown.map((v) => v.rule)).toEqual(['missing-result', 'orphan-result']);
    expect(shown.every((v) => v.stage === 'input')).toBe(true);
    expect(shown[0].text).toBe(
      'messages.6: Did not find 1 `tool_result` block(s) at the beginning of this message. Messages following `tool_use` blocks must begin with a matching number of `tool_result` blocks.',
    );
    expect(await page.getByTestId('pairing-panel').textContent()).toContain('blamed: recorded input');
    await page.getByTestId('config-expand').click();
    await page.mouse.move(5, 5);
    await screenshot(page, 'pairing-panel-light');

    // Another provider: the worker re-runs and the texts are that provider's.
    const before = await runId(page);
    await page.getByTestId('provider-select').selectOption('openai-chat');
    await waitForRun(page, before);
    const openai = await cliPairing('openai-chat');
    await expect.poll(() => shownIssues(page)).toEqual(expected(openai));
    expect((await shownIssues(page)).map((v) => v.text).join('\n')).toContain(
      "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
    );
    const before2 = await runId(page);
    await page.getByTestId('provider-select').selectOption('gemini');
    await waitForRun(page, before2);
    await expect.poll(() => shownIssues(page)).toEqual(expected(await cliPairing('gemini')));

    // Click jumps to the message the error names.
    const issue = page.getByTestId('pairing-issue').last();
    const index = await issue.getAttribute('data-message-index');
    await issue.click();
    const row = page.locator(`[data-testid="transcript-row"][data-message-index="${index}"]`);
    await expect.poll(() => row.getAttribute('aria-selected')).toBe('true');
    expect(await row.isVisible()).toBe(true);
    expect(s.consoleErrors).toEqual([]);
    expect(s.externalRequests).toEqual([]);
  } finally {
    await s.close();
  }
});

it('dark theme screenshot of the pairing panel', async () => {
  const s = await openApp({ colorScheme: 'dark' });
  try {
    await openSample(s.page, 'pairing-bug', 'pairing-bug.jsonl');
    await s.page.getByTestId('pairing-issue').first().waitFor();
    await s.page.getByTestId('config-expand').click();
    await screenshot(s.page, 'pairing-panel-dark');
    expect(s.consoleErrors).toEqual([]);
  } finally {
    await s.close();
  }
});
