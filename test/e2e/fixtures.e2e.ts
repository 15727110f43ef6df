// Every real fixture through the visible file input, one after another in one tab (each load replaces
// the previous one): load-status names the format and counts, every row renders, the tier badges equal
// the CLI's tiers for the same file and config, pairing problems show the provider's text (in the
// pairing panel and as row markers), and cache-break markers carry the CLI's causes.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Report } from '../../src/analyses/report.ts';
import { DEFAULT_CONFIG } from '../../src/pipeline/config.ts';
import { describeReal, loadReal } from '../helpers/fixtures.ts';
import { type Session, screenshot, stopServer } from './harness.ts';
import {
  cliReport,
  expectedBadges,
  expectLoadStatus,
  loadFiles,
  openApp,
  REAL_DIR,
  realPath,
  setConfig,
  showThread,
  walkRows,
} from './ui.ts';

type Case = { rel: string; extra?: string[]; set?: Record<string, number>; tiers?: boolean; pairing?: boolean };

const SUB = 'claude-code/synthetic-agentsessions-subagent/0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f';
const CASES: Case[] = [
  {
    rel: 'claude-code/ccviewer-fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl',
    set: { contextWindow: 30_000, outputReserve: 2000 },
    tiers: true,
  },
  { rel: 'claude-code/ccviewer-5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl' },
  { rel: 'claude-code/ccviewer-1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl' },
  { rel: 'claude-code/synthetic-ccviewer-agent-test-hash-123.jsonl' },
  { rel: 'claude-code/synthetic-agentsessions-claude-linetypes.jsonl' },
  { rel: `${SUB}.jsonl`, extra: [`${SUB}/subagents/agent-a0ad4f44468bdf20d.jsonl`] },
  {
    rel: 'claude-trace/lemmy-test-traffic.redacted.jsonl',
    set: { contextWindow: 8000, outputReserve: 1000 },
    tiers: true,
  },
  { rel: 'codex/simonw-codex-0.77-homelab.jsonl' },
  { rel: 'codex/synthetic-agentsessions-codex-itemtypes.jsonl', pairing: true },
  { rel: 'openai-chat/inspect-browser-gpt4o-mini.chat-completions.jsonl' },
  {
    rel: 'swe-agent/swe-agent-marshmallow-1867-function-calling-replace.traj',
    set: { contextWindow: 8000, outputReserve: 1000 },
    tiers: true,
    pairing: true,
  },
  { rel: 'inspect/inspect-browser-gpt4o-mini.json' },
];

function allFixtureFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? allFixtureFiles(p) : [relative(REAL_DIR, p)];
  });
}

describeReal('every real fixture, loaded through the file input', () => {
  let s: Session;

  beforeAll(async () => {
    s = await openApp();
  });
  afterAll(async () => {
    await s?.close();
    await stopServer();
  });

  it('covers every fixture file', () => {
    const covered = new Set(CASES.flatMap((c) => [c.rel, ...(c.extra ?? [])]));
    const files = allFixtureFiles(REAL_DIR).filter((f) => !f.endsWith('.md'));
    expect(files.filter((f) => !covered.has(f))).toEqual([]);
  });

  for (const c of CASES) {
    it(`${c.rel}: format, counts, rows, tiers, pairing and cache breaks as the CLI reports them`, async () => {
      // Each file opens with its own defaults (the log's provider and window, nothing of the previous file);
      // a case's own settings go on after the load, and the CLI gets the same ones.
      const set = c.set ?? {};
      const report: Report = await cliReport(realPath(c.rel), set);
      await loadFiles(s.page, [realPath(c.rel), ...(c.extra ?? []).map(realPath)]);
      expect(await s.page.getByTestId('provider-select').inputValue()).toBe(report.settings.provider);
      expect(Number(await s.page.getByTestId('threshold-contextWindow').inputValue())).toBe(
        report.defaults?.contextWindow.log.value ?? DEFAULT_CONFIG.contextWindow,
      );
      expect(await s.page.getByTestId('config-changed').getAttribute('data-count')).toBe('0');
      await setConfig(s.page, set);

      // load-status: format and counts
      await expectLoadStatus(s.page, report);

      // parse issues with their line numbers
      if (report.parseIssues.length > 0) {
        const issues = s.page.getByTestId('parse-issues');
        expect(await issues.locator('summary').textContent()).toContain(`${report.parseIssues.length} parse issue`);
        const lines = await issues
          .getByTestId('parse-issue')
          .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-line'))));
        expect(lines.sort((a, b) => a - b)).toEqual(report.parseIssues.map((i) => i.line).sort((a, b) => a - b));
      } else expect(await s.page.getByTestId('parse-issues').count()).toBe(0);

      // every thread with something to see: rows, badges, pairing markers, break markers
      const transcript = loadReal(c.rel);
      const badges = expectedBadges(report);
      const threads = transcript.threads.filter(
        (t) =>
          t.kind === 'main' ||
          badges.has(t.id) ||
          report.pairing.some((v) => v.thread === t.id) ||
          report.requests.some((q) => q.thread === t.id && (q.cacheBreak || q.observedBreak)),
      );
      let sawBadges = 0;
      for (const t of threads) {
        await showThread(s.page, t.id);
        const seen = await walkRows(s.page);
        expect(seen.rows, `rows of ${t.id}`).toEqual(t.messages.map((m) => m.index));
        expect(seen.roles[0], `role of the first row of ${t.id}`).toBe(t.messages[0]?.role);
        expect(seen.badges, `tier badges of ${t.id}`).toEqual(badges.get(t.id) ?? {});
        sawBadges += Object.keys(seen.badges).length;

        for (const v of report.pairing.filter((x) => x.thread === t.id)) {
          expect(
            seen.pairing.some((m) => m.text.includes(v.error)),
            `a row marker with "${v.error}"`,
          ).toBe(true);
        }

        const marks = () =>
          s.page
            .locator(`[data-testid="cache-break"][data-thread=${JSON.stringify(t.id)}]`)
            .evaluateAll((els) =>
              els
                .map(
                  (e) =>
                    `${e.getAttribute('data-kind')} ${e.getAttribute('data-request')} ${e.getAttribute('data-cause')}`,
                )
                .sort(),
            );
        const want = report.requests
          .filter((q) => q.thread === t.id)
          .flatMap((q) => [
            ...(q.observedBreak ? [`observed ${q.index} ${q.observedBreak.cause}`] : []),
            ...(q.cacheBreak ? [`simulated ${q.index} ${q.cacheBreak.cause}`] : []),
          ]);
        // The timeline draws the shown thread's markers once it has caught up with the switch: wait for them.
        await expect.poll(marks, { message: `cache-break markers of ${t.id}` }).toEqual(want.sort());
      }
      if (c.tiers) expect(sawBadges).toBeGreaterThan(0);

      // the pairing panel shows the provider's own words
      if (c.pairing) expect(report.pairing.length).toBeGreaterThan(0);
      const panel = await s.page.getByTestId('pairing-issue').allTextContents();
      for (const v of report.pairing)
        expect(
          panel.some((p) => p.includes(v.error)),
          `pairing-issue with "${v.error}"`,
        ).toBe(true);

      expect(s.consoleErrors).toEqual([]);
      expect(s.externalRequests).toEqual([]);
    });
  }

  it('shows a fixture with tiers in the overview screenshot', async () => {
    await screenshot(s.page, 'fixtures-last-loaded');
    expect(s.consoleErrors).toEqual([]);
  });
});
