// Helpers for the UI end-to-end tests: open the app, load files through the visible file input, wait for
// runs, set config values through the config panel's `threshold-<key>` controls, and walk the virtualized
// transcript collecting what a person would see (rows, tier badges, pairing markers, cache-break markers).
import { basename } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Report } from '../../src/analyses/report.ts';
import { runCli } from '../../src/cli/main.ts';
import { openSession, type Session, stopServer } from './harness.ts';

export { HAVE_REAL, REAL_DIR, realPath } from '../helpers/fixtures.ts';

/** A fresh session on the app, after its default sample has loaded and run. */
export async function openApp(opts: { colorScheme?: 'light' | 'dark' } = {}): Promise<Session> {
  const s = await openSession(opts);
  await s.page.goto(s.baseUrl);
  await s.page.getByTestId('transcript-row').first().waitFor();
  await waitForRun(s.page);
  return s;
}

/** For a suite: a session on the app opened before its tests and closed (with the server) after them. */
export function appSession(): () => Session {
  let s: Session | undefined;
  beforeAll(async () => {
    s = await openApp();
  });
  afterAll(async () => {
    await s?.close();
    await stopServer();
  });
  return () => {
    if (!s) throw new Error('the app session is not open');
    return s;
  };
}

type Scheme = 'light' | 'dark';

/** For a suite whose tests open their own sessions: `app()` (the app with its default sample loaded) and
 *  `session()` (a bare fresh profile) each open one, checked free of console errors and non-local requests and
 *  closed after its test; the server stops after the suite. */
export function testSessions(): { app: (c?: Scheme) => Promise<Session>; session: (c?: Scheme) => Promise<Session> } {
  let open: Session[] = [];
  afterEach(async () => {
    const all = open;
    open = [];
    for (const s of all) {
      expect(s.consoleErrors).toEqual([]);
      expect(s.externalRequests).toEqual([]);
      await s.close();
    }
  });
  afterAll(async () => {
    await stopServer();
  });
  const keep = async (s: Promise<Session>) => {
    const done = await s;
    open.push(done);
    return done;
  };
  return {
    app: (colorScheme: Scheme = 'light') => keep(openApp({ colorScheme })),
    session: (colorScheme: Scheme = 'light') => keep(openSession({ colorScheme })),
  };
}

/** Put text into a text area as one paste does (one input event). Playwright's fill feeds it through the input
 *  pipeline, which for a megabyte of text outlasts its 30 s timeout on a busy machine (on main too). */
export async function pasteText(page: Page, testId: string, text: string): Promise<void> {
  await page.getByTestId(testId).evaluate((el, t) => {
    const area = el as HTMLTextAreaElement;
    Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')?.set?.call(area, t);
    area.dispatchEvent(new Event('input', { bubbles: true }));
  }, text);
}

/** The id of the run currently shown (0 before the first). */
export async function runId(page: Page): Promise<number> {
  return Number((await page.getByTestId('summary-bar').getAttribute('data-run-id')) ?? 0);
}

/** Wait until a run newer than `after` is shown and nothing is running; a failed run fails the test. */
export async function waitForRun(page: Page, after = 0, timeout = 120_000): Promise<number> {
  await page.waitForFunction(
    (a) => {
      const el = document.querySelector('[data-testid="summary-bar"]');
      const st = el?.getAttribute('data-run-status');
      return st === 'error' || (st === 'ready' && Number(el?.getAttribute('data-run-id')) > a);
    },
    after,
    { timeout },
  );
  const failed = await page.getByTestId('summary-bar').getAttribute('data-run-status');
  if (failed === 'error') throw new Error(`run failed: ${await page.getByTestId('run-state').textContent()}`);
  return runId(page);
}

/** Load files through the visible file input and wait for the load and its first run. */
export async function loadFiles(page: Page, paths: string[], timeout = 120_000): Promise<void> {
  const before = await runId(page);
  await page.getByTestId('file-input').setInputFiles(paths);
  const name = basename(paths[0]);
  await page.waitForFunction(
    (n) => {
      const el = document.querySelector('[data-testid="load-status"]');
      return el?.getAttribute('data-status') === 'ready' && (el.textContent ?? '').includes(n);
    },
    name,
    { timeout },
  );
  await waitForRun(page, before, timeout);
}

/** Pick a bundled sample in the sample picker and wait for its load and first run. */
export async function openSample(page: Page, id: string, file: string): Promise<void> {
  const before = await runId(page);
  await page.getByTestId('sample-picker').selectOption(id);
  await page.waitForFunction(
    (f) => {
      const el = document.querySelector('[data-testid="load-status"]');
      return el?.getAttribute('data-status') === 'ready' && (el.textContent ?? '').includes(f);
    },
    file,
    { timeout: 120_000 },
  );
  await waitForRun(page, before);
}

/** Set config keys the way a person does: typing into the config panel's `threshold-<key>` inputs. */
export async function setConfig(page: Page, values: Record<string, number>): Promise<void> {
  for (const [key, value] of Object.entries(values)) {
    const control = page.getByTestId(`threshold-${key}`);
    if (Number(await control.inputValue()) === value) continue;
    const before = await runId(page);
    await control.fill(String(value));
    await control.blur();
    await waitForRun(page, before);
  }
}

/** The CLI's JSON report for a file with `--set` values (run in this process, like a person would). */
export async function cliReport(path: string, set: Record<string, number | string> = {}): Promise<Report> {
  const out: string[] = [];
  const err: string[] = [];
  const argv = ['analyze', path, '--json', ...Object.entries(set).flatMap(([k, v]) => ['--set', `${k}=${v}`])];
  const code = await runCli(argv, { out: (s) => out.push(s), err: (s) => err.push(s) });
  expect(err.join('\n')).toBe('');
  expect(code).toBe(0);
  return JSON.parse(out.join('\n')) as Report;
}

/** load-status shows the format and the CLI report's counts of threads, messages, requests and tool uses. */
export async function expectLoadStatus(page: Page, report: Report): Promise<void> {
  const status = (await page.getByTestId('load-status').textContent()) ?? '';
  expect(status).toContain(report.format);
  const k = report.counts;
  for (const part of [
    counted(k.threads, 'thread'),
    counted(k.messages, 'message'),
    counted(k.requests, 'request'),
    counted(k.toolUses, 'tool use'),
  ])
    expect(status).toContain(part);
}

/** Switch the transcript to a thread (opening the side-call group when needed) and wait for its rows. */
export async function showThread(page: Page, id: string): Promise<void> {
  const item = page.locator(`[data-testid="thread-item"][data-thread-id=${JSON.stringify(id)}]`);
  if ((await item.count()) === 0) await page.getByTestId('side-call-group').click();
  await item.click();
  // The list names the thread at once; its rows arrive from the engine after: wait for that thread's rows, then for
  // the deferred passes to catch up.
  await page
    .locator(`[data-testid="transcript-rows"][data-rows-thread=${JSON.stringify(id)}]`)
    .locator('[data-testid="transcript-row"]')
    .first()
    .waitFor();
  await rowsShown(page, id);
}

/** Wait until the transcript shows the latest rows and run of thread `id` (or of whatever thread is shown): its
 *  deferred rendering passes have caught up. */
export async function rowsShown(page: Page, id?: string): Promise<void> {
  const thread = id === undefined ? '' : `[data-thread=${JSON.stringify(id)}]`;
  await page.locator(`[data-testid="transcript-rows"]${thread}[data-current="true"]`).waitFor();
}

export type Seen = {
  rows: number[];
  roles: Record<number, string>;
  badges: Record<string, number>;
  pairing: { index: number; text: string }[];
};

/** Scroll the virtualized list from top to bottom and collect every row, badge and pairing marker (the list
 *  unfiltered: a row's position is its message index). */
export async function walkRows(page: Page): Promise<Seen> {
  await rowsShown(page);
  return page.evaluate(async () => {
    const list = document.querySelector<HTMLElement>('[data-testid="transcript-rows"]');
    const seen = { rows: [] as number[], roles: {} as Record<number, string>, badges: {} as Record<string, number> };
    const pairing = new Map<number, string>();
    if (!list) return { ...seen, pairing: [] };
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    // The virtualizer renders the rows of a new scroll position on a later frame (later still on a busy machine):
    // wait until the rows at the top and the bottom of the viewport are in the DOM (rows are 22 px) and their
    // notes (tiers, marks) are this run's (the list asks the engine for the window it renders: data-current).
    const total = Number(list.dataset.count);
    const shown = async () => {
      const deadline = performance.now() + 60_000;
      for (;;) {
        const first = Math.floor(list.scrollTop / 22);
        const last = Math.min(total - 1, Math.ceil((list.scrollTop + list.clientHeight) / 22) - 1);
        const at = (i: number) => list.querySelector(`[data-testid="transcript-row"][data-message-index="${i}"]`);
        const current = list.dataset.current === 'true';
        if (total === 0 || (at(first) && at(last) && current) || performance.now() > deadline) return;
        await frame();
      }
    };
    const rows = new Set<number>();
    list.scrollTop = 0;
    await shown();
    for (;;) {
      for (const r of list.querySelectorAll<HTMLElement>('[data-testid="transcript-row"]')) {
        const i = Number(r.dataset.messageIndex);
        rows.add(i);
        seen.roles[i] = r.dataset.role ?? '';
        for (const b of r.querySelectorAll<HTMLElement>('[data-testid="tier-badge"]'))
          seen.badges[b.dataset.toolUseId ?? ''] = Number(b.dataset.tier);
        const m = r.querySelector<HTMLElement>('[data-testid="pairing-marker"]');
        if (m) pairing.set(i, m.title);
      }
      if (list.scrollTop + list.clientHeight >= list.scrollHeight - 1) break;
      const was = list.scrollTop;
      list.scrollTop += Math.max(22, list.clientHeight - 44);
      if (list.scrollTop === was) break;
      await shown();
    }
    list.scrollTop = 0;
    return {
      ...seen,
      rows: [...rows].sort((a, b) => a - b),
      pairing: [...pairing].map(([index, text]) => ({ index, text })),
    };
  });
}

/** Expected tier badges per thread from a report (results that were tiered). */
export function expectedBadges(report: Report): Map<string, Record<string, number>> {
  const m = new Map<string, Record<string, number>>();
  for (const r of report.toolResults) {
    if (r.tier === null) continue;
    const t = m.get(r.thread) ?? {};
    t[r.toolUseId] = r.tier;
    m.set(r.thread, t);
  }
  return m;
}

/** "1 thread", "6 threads": how load-status writes a count. */
export function counted(n: number, one: string): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : `${one}s`}`;
}

/** Scroll the virtualized list so row `index` is rendered, then click it. */
export async function clickRow(page: Page, index: number): Promise<void> {
  await page.evaluate(async (i) => {
    const list = document.querySelector<HTMLElement>('[data-testid="transcript-rows"]');
    if (list) list.scrollTop = Math.max(0, i * 22 - list.clientHeight / 2);
  }, index);
  // The row appears once the virtualizer has rendered the new scroll position; the click waits for it.
  await page.locator(`[data-testid="transcript-row"][data-message-index="${index}"]`).click();
}

/** The text Monaco shows in an editor host (visible lines only), whitespace collapsed to single spaces. */
export async function editorText(page: Page, testId: string): Promise<string> {
  // innerText, not textContent: Monaco lays lines out as spans, and only the rendered text has line breaks.
  // Wrapped lines are joined by whitespace, so callers compare whitespace-normalized text.
  // biome-ignore lint/performance/useDomNodeTextContent: see above
  return page.getByTestId(testId).evaluate((el) => (el as HTMLElement).innerText.replace(/\s+/g, ' '));
}
