// Exact on this year's logs (issue 26), the way a person meets them: a real Codex 0.114 parent rollout and the three
// children its spawn_agent calls forked, picked as a folder, are one session with three sub-agents whose dollars
// count every billed response once (the CLI's figure for the parent with its children, not the parent's plus each
// child's replay of it); opened, the sub-agents are titled by nickname and the TOKENS headline is the billed total.
// And the TOKENS headline of a Claude Code session equals the billed tokens ccusage reports for it.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Report } from '../../src/analyses/report.ts';
import { fmtUsd } from '../../src/lib/money.ts';
import { describeReal, REPO_FIXTURES_DIR, WILD2_DIR } from '../helpers/fixtures.ts';
import { type Session, screenshot, stopServer } from './harness.ts';
import { cliReport, loadFiles, openApp, waitForRun } from './ui.ts';

const FAMILY = join(REPO_FIXTURES_DIR, 'codex-fork');
const PARENT = 'ship-rollout-2026-03-12T16-36-47-019ce3fb-1087-7980-8f92-8d0171aaea6a.jsonl';
const CLAUDE = join(
  WILD2_DIR,
  'claude-code/tpuinf--home-tarading-tpu-inference/19a2e244-9267-4afb-8908-2e5caa9374ba.jsonl',
);
const CCUSAGE = 'ccusage@20.0.24';
/** A Codex 0.114 gpt-5.4 session with one remote compaction (its summary encrypted). */
const SHIP = join(WILD2_DIR, 'codex/ship-rollout-2026-03-12T14-37-47-019ce38e-1d19-7260-adc0-9c32ac8b6007.jsonl');

/** ccusage's billed tokens (input + output + cache creation + cache read) for one Claude Code session file, run
 *  offline over a temp copy laid out as ~/.claude/projects. */
function ccusageTokens(file: string): number {
  const dir = mkdtempSync(join(tmpdir(), 'tierscope-ccusage-e2e-'));
  try {
    const project = join(dir, 'projects', basename(dirname(file)));
    mkdirSync(project, { recursive: true });
    cpSync(file, join(project, basename(file)));
    const out = execFileSync('npx', ['-y', CCUSAGE, 'session', '--json', '--offline'], {
      env: { ...process.env, CLAUDE_CONFIG_DIR: dir },
      encoding: 'utf8',
      maxBuffer: 64 << 20,
      timeout: 240_000,
    });
    const sessions = (JSON.parse(out) as { session: { period: string; totalTokens: number }[] }).session;
    const mine = sessions.find((s) => s.period === basename(file, '.jsonl'));
    if (!mine) throw new Error(`ccusage lists no session ${basename(file)}: ${out.slice(0, 200)}`);
    return mine.totalTokens;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describeReal('this year’s logs, exact', () => {
  let s: Session;
  let family: Report;

  beforeAll(async () => {
    s = await openApp();
    family = await cliReport(join(FAMILY, PARENT));
  }, 180_000);
  afterAll(async () => {
    await s?.close();
    await stopServer();
  });

  it('a Codex parent and its forked children picked as a folder: one session, three sub-agents, dollars once', async () => {
    await s.page.getByTestId('open-folder-input').setInputFiles(FAMILY);
    await s.page.waitForFunction(() => document.querySelectorAll('[data-testid="session-row"]').length >= 1, null, {
      timeout: 120_000,
    });
    const rows = await s.page.getByTestId('session-row').evaluateAll((els) =>
      els.map((r) => ({
        path: r.getAttribute('data-path'),
        cells: Object.fromEntries(
          [...r.querySelectorAll('[data-col]')].map((c) => [c.getAttribute('data-col'), c.textContent ?? '']),
        ),
      })),
    );
    expect(rows.map((r) => r.path)).toEqual([PARENT]);
    const usd = family.totals.cost.recorded?.usd ?? 0;
    expect(rows[0].cells.subagents).toBe('3');
    expect(rows[0].cells.usd.replace(/ \*$/, '')).toBe(fmtUsd(usd));
    expect(rows[0].cells.requests).toBe(String(family.counts.requests));
    // Each child's replay of the parent is billed in the parent only: the family is far below the sum of the files.
    expect(usd).toBeLessThan(30);
    await screenshot(s.page, 'codex-fork-family-row');

    await s.page.locator(`[data-testid="session-row"][data-path="${PARENT}"]`).click();
    await s.page.waitForFunction(
      (n) => {
        const el = document.querySelector('[data-testid="load-status"]');
        return el?.getAttribute('data-status') === 'ready' && (el.textContent ?? '').includes(n);
      },
      PARENT,
      { timeout: 120_000 },
    );
    await waitForRun(s.page);
    const names = (
      await s.page.locator('[data-testid="thread-item"][data-kind="sidechain"] .thread-name').allTextContents()
    ).sort();
    expect(names.map((n) => n.split(' ')[0])).toEqual(['Kepler', 'Locke', 'Wegener']);
    const headline = s.page.getByTestId('stat-tokens');
    expect(await headline.getAttribute('data-kind')).toBe('billed');
    expect(Number(await headline.getAttribute('data-total'))).toBe(family.totals.billed?.total);
    expect(await s.page.getByTestId('stat-self-check').getAttribute('data-flagged')).toBe(
      String(family.selfCheck.flagged.length),
    );
    await screenshot(s.page, 'codex-fork-family-opened');
    expect(s.consoleErrors).toEqual([]);
  }, 300_000);

  it('the TOKENS headline of a Claude Code session is the billed tokens ccusage reports', async () => {
    const expected = ccusageTokens(CLAUDE);
    await loadFiles(s.page, [CLAUDE]);
    const headline = s.page.getByTestId('stat-tokens');
    expect(await headline.getAttribute('data-kind')).toBe('billed');
    expect(Number(await headline.getAttribute('data-total'))).toBe(expected);
    const report = await cliReport(CLAUDE);
    expect(report.totals.billed?.total).toBe(expected);
    await s.page.getByTestId('summary-bar').screenshot({ path: join(tmpdir(), 'tierscope-summary-billed.png') });
    await screenshot(s.page, 'claude-code-billed-headline');
  }, 300_000);

  it('a Codex remote compaction (encrypted summary): what it kept is unknown, not "none in the span"', async () => {
    await loadFiles(s.page, [SHIP]);
    await waitForRun(s.page);
    await s.page.getByTestId('compaction-marker').first().click();
    const view = s.page.getByTestId('compaction-view');
    await view.getByTestId('compaction-opaque').waitFor({ timeout: 60_000 });
    const sideOf = (side: string) =>
      view.locator(`[data-testid="probe-kind"][data-side="${side}"]`).evaluateAll((els) =>
        els.map((e) => ({
          kind: e.getAttribute('data-kind'),
          unknown: e.getAttribute('data-unknown') === 'true',
          head: e.querySelector('.cv-kind-head span:last-child')?.textContent ?? '',
          items: e.querySelectorAll('[data-testid="probe-item"]').length,
        })),
      );
    const summary = await sideOf('summary');
    const anchored = await sideOf('anchored');
    expect(summary.every((k) => k.unknown && k.items === 0)).toBe(true);
    // Each kind the anchored side finds in the span is unknown on the agent's side, with the same count.
    const inSpan = anchored.filter((k) => k.head !== 'none in the span');
    expect(inSpan.length).toBeGreaterThan(0);
    for (const k of inSpan) {
      const n = Number(k.head.match(/of (\d+)/)?.[1]);
      expect(summary.find((x) => x.kind === k.kind)?.head).toBe(`unknown: ${n} in the span, the summary unreadable`);
    }
    expect(await view.getByTestId('compaction-summary').textContent()).toContain('kept and lost unknown');
    await screenshot(s.page, 'codex-opaque-compaction');
    expect(s.consoleErrors).toEqual([]);
  }, 300_000);
});
