// The compaction view (issue 17) on the real session 24a90d02 from the wild: its one auto compaction has a marker on
// the timeline; clicking it opens the compaction view with the agent's summary beside Tierscope's anchored summary,
// the items each kept and lost (the five files only read and the one error string the agent's summary lost), the
// three re-reads that followed, tokens per task, and the presets compared per task. A lost item leads to its message.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Report } from '../../src/analyses/report.ts';
import { describeWild, wildPath } from '../helpers/fixtures.ts';
import { type Session, screenshot, stopServer } from './harness.ts';
import { cliReport, loadFiles, openApp } from './ui.ts';

const FILE = wildPath(
  'claude-code/projects/paismart--Users-pretor-Documents-PAI---TPOS/24a90d02-9724-4548-9f4f-97bcb9f93ef3.jsonl',
);

describeWild('the compaction view on 24a90d02 (one auto compaction)', () => {
  let s: Session;
  let report: Report;

  beforeAll(async () => {
    s = await openApp();
    report = await cliReport(FILE);
    await loadFiles(s.page, [FILE]);
  });
  afterAll(async () => {
    await s?.close();
    await stopServer();
  });

  it('the timeline has one compaction marker, at the request the CLI reports', async () => {
    const c = report.compactions?.[0];
    expect(report.compactions).toHaveLength(1);
    const marker = s.page.getByTestId('compaction-marker');
    await marker.waitFor();
    expect(await marker.count()).toBe(1);
    expect(await marker.getAttribute('data-request')).toBe(String(c?.request));
    expect(await marker.getAttribute('data-source')).toBe('agent');
    await screenshot(s.page, 'compaction-marker');
  });

  it('clicking it opens the compaction view with what the agent’s summary lost', async () => {
    await s.page.getByTestId('compaction-marker').click();
    const view = s.page.getByTestId('compaction-view');
    await view.getByTestId('compaction-facts').waitFor();
    const facts = (await view.getByTestId('compaction-facts').textContent()) ?? '';
    expect(facts).toContain('126,389 tokens (recorded by the agent)');
    const summary = view.getByTestId('compaction-summary');
    const lostRead = summary.locator('[data-testid="probe-item"][data-kind="filesRead"][data-kept="false"]');
    await expect.poll(() => lostRead.count()).toBe(5);
    const lostTexts = await lostRead.locator('.cv-text').allTextContents();
    expect(lostTexts).toContain('/Users/pretor/.claude/voice-server/voices.json');
    const keptModified = summary.locator('[data-testid="probe-item"][data-kind="filesModified"][data-kept="true"]');
    expect(await keptModified.count()).toBe(3);
    expect(
      await summary.locator('[data-testid="probe-item"][data-kind="filesModified"][data-kept="false"]').count(),
    ).toBe(0);
    const lostError = summary.locator('[data-testid="probe-item"][data-kind="errors"][data-kept="false"] .cv-text');
    expect(await lostError.allTextContents()).toEqual([
      'Shell 49a4cf is not running, so cannot be killed (status: killed)',
    ]);
    // Tierscope's anchored summary of the same span keeps every file read.
    const anchored = view.getByTestId('compaction-anchored');
    await expect
      .poll(() => anchored.locator('[data-testid="probe-item"][data-kind="filesRead"][data-kept="true"]').count())
      .toBe(5);
    // The re-fetches that followed: the three lost session files read again.
    await expect.poll(() => view.locator('[data-testid="refetch-after"]').count()).toBe(3);
    expect(await view.locator('[data-testid="refetch-after"][data-lost="true"]').count()).toBe(3);
    await expect.poll(() => view.getByTestId('task-row').count()).toBe(17);
    // Model probes need the user's own endpoint and key: none is set, so nothing can be sent.
    expect(await view.getByTestId('model-probes-off').textContent()).toContain('Nothing is sent without your endpoint');
    expect(await view.getByTestId('ask-model').count()).toBe(0);
    await screenshot(s.page, 'compaction-view');
  });

  it('compares the presets per task, the recording first', async () => {
    const view = s.page.getByTestId('compaction-view');
    await view.getByTestId('compare-presets').click();
    const rows = view.getByTestId('preset-task-row');
    await view.getByTestId('preset-tasks').waitFor({ timeout: 120_000 });
    const presets = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-preset')));
    expect(presets[0]).toBe('recording');
    expect(presets).toContain('seeds');
    expect(presets).toContain('sliding-window');
    await view.getByTestId('preset-tasks').scrollIntoViewIfNeeded();
    await screenshot(s.page, 'compaction-presets');
  });

  it('a lost item leads to the message it came from', async () => {
    const view = s.page.getByTestId('compaction-view');
    const item = view
      .getByTestId('compaction-summary')
      .locator('[data-testid="probe-item"][data-kind="errors"][data-kept="false"]');
    await item.locator('button').click();
    await view.waitFor({ state: 'detached' });
    const row = s.page.locator('[data-testid="transcript-row"][data-message-index="166"]');
    await expect.poll(() => row.getAttribute('aria-selected')).toBe('true');
    expect(s.consoleErrors).toEqual([]);
    expect(s.externalRequests).toEqual([]);
  });
});
