// Sessions as people have them today (fixtures/wild), opened the way a person opens them: a Claude Code 2.1
// session picked with its subagents/ files (transcripts and .meta.json) shows its sub-agents titled from their
// .meta.json, every call answered (no pairing problem on a session the API accepted), and the counts the CLI
// reports; a miss of the estimate says why in the timeline hover.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Report } from '../../src/analyses/report.ts';
import { describeWild, WILD_DIR } from '../helpers/fixtures.ts';
import { type Session, screenshot, stopServer } from './harness.ts';
import { cliReport, counted, loadFiles, openApp } from './ui.ts';

const DIR = join(WILD_DIR, 'claude-code/projects/ccl--experiments-worktrees');
const SESSION = join(DIR, 'ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl');
const SUBAGENTS = join(DIR, 'ef958aa1-0e93-49f0-bb71-150f63befcd1/subagents');

describeWild('a Claude Code 2.1 session from the wild, opened with its sub-agents', () => {
  let s: Session;
  let report: Report;

  beforeAll(async () => {
    s = await openApp();
    report = await cliReport(SESSION, {});
    const companions = readdirSync(SUBAGENTS).map((f) => join(SUBAGENTS, f));
    await loadFiles(s.page, [SESSION, ...companions]);
  });
  afterAll(async () => {
    await s?.close();
    await stopServer();
  });

  it('lists every sub-agent titled from its .meta.json (description and agent type)', async () => {
    const items = s.page.locator('[data-testid="thread-item"][data-kind="sidechain"]');
    const names = (await items.locator('.thread-name').allTextContents()).sort();
    expect(names).toEqual(
      [
        'Research Claude Code plan mode (general-purpose)',
        'Research Claude Code teammates (general-purpose)',
        'Research Steve Yegge Beads (general-purpose)',
        'Round 2: alice comparison (general-purpose)',
        'Round 2: bob comparison (general-purpose)',
        'Round 2: carol comparison (general-purpose)',
      ].sort(),
    );
    await screenshot(s.page, 'wild-claude-code-2.1-subagents');
  });

  it('shows the counts the CLI reports and no pairing problem (the API accepted every request)', async () => {
    const status = (await s.page.getByTestId('load-status').textContent()) ?? '';
    const k = report.counts;
    expect(k.toolUses).toBe(117);
    expect(k.toolResults).toBe(117);
    for (const part of [counted(k.threads, 'thread'), counted(k.requests, 'request'), counted(k.toolUses, 'tool use')])
      expect(status).toContain(part);
    expect(await s.page.getByTestId('pairing-issue').count()).toBe(0);
    expect(s.consoleErrors).toEqual([]);
    expect(s.externalRequests).toEqual([]);
  });
});
