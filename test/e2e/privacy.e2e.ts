// Privacy (SPEC §6, §10): the page runs under a strict Content-Security-Policy (nothing remote: no script,
// style, font, image, frame or connection; object-src and base-uri 'none'), a remote fetch, beacon, image or
// script from the page is refused by it, the engine worker (which a <meta> policy does not bind) refuses
// too, the harness's route guard catches anything else, and a full session — sample, a real fixture, re-runs,
// detail, diff, JSON config, share dialog — makes only same-origin requests. No telemetry in the bundle.

import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { fullPolicy, STATIC_POLICY } from '../../src/state/csp.ts';
import { openSession, ROOT, stopServer } from './harness.ts';
import { clickRow, cliReport, HAVE_REAL, loadFiles, openApp, realPath, setConfig, waitForRun } from './ui.ts';

afterAll(async () => {
  await stopServer();
});

const STORY = join(ROOT, 'public/samples/story-37-1.tierscope.json');
const FE = 'claude-code/ccviewer-fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl';

/** Directive → sources of a policy string. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name, sources]),
  );
}

it('the page runs under the strict policy: remote script, style, image, beacon and fetch are refused', async () => {
  const s = await openApp();
  try {
    const { page } = s;
    const policies = await page.evaluate(() =>
      [...document.querySelectorAll('meta[http-equiv="Content-Security-Policy"]')].map((m) =>
        m.getAttribute('content'),
      ),
    );
    expect(policies).toEqual([STATIC_POLICY, fullPolicy(null)]);
    const local = new Set(["'self'", "'none'", "'unsafe-inline'", 'data:', 'blob:']);
    for (const p of policies)
      for (const [, sources] of directives(p ?? '')) for (const x of sources) expect(local).toContain(x);
    const full = directives(fullPolicy(null));
    expect(full.get('default-src')).toEqual(["'self'"]);
    expect(full.get('script-src')).toEqual(["'self'"]);
    expect(full.get('connect-src')).toEqual(["'self'"]);
    expect(full.get('object-src')).toEqual(["'none'"]);
    expect(full.get('base-uri')).toEqual(["'none'"]);
    expect(full.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    for (const d of ['img-src', 'font-src', 'frame-src', 'media-src', 'worker-src', 'form-action'])
      expect(full.has(d)).toBe(true);

    const tried = await page.evaluate(async () => {
      const seen: string[] = [];
      document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
      const fetched = await fetch('https://telemetry.example.com/collect', { method: 'POST', body: 'x' }).then(
        () => 'fetched',
        (e: Error) => e.name,
      );
      navigator.sendBeacon('https://telemetry.example.com/beacon', 'x');
      const img = document.createElement('img');
      img.src = 'https://cdn.example.com/pixel.png';
      document.body.append(img);
      const script = document.createElement('script');
      script.src = 'https://cdn.example.com/lib.js';
      document.head.append(script);
      const css = document.createElement('link');
      css.rel = 'stylesheet';
      css.href = 'https://cdn.example.com/font.css';
      document.head.append(css);
      // Violations are reported as events of their own: wait until all five arrived (a cap, not a pause).
      const deadline = performance.now() + 60_000;
      while (new Set(seen).size < 5 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      img.remove();
      script.remove();
      css.remove();
      return { fetched, seen, pwned: (window as unknown as { __cdn?: unknown }).__cdn };
    });
    expect(tried.fetched).toBe('TypeError');
    expect(new Set(tried.seen)).toEqual(
      new Set([
        'connect-src https://telemetry.example.com/collect',
        'connect-src https://telemetry.example.com/beacon',
        'img-src https://cdn.example.com/pixel.png',
        'script-src-elem https://cdn.example.com/lib.js',
        'style-src-elem https://cdn.example.com/font.css',
      ]),
    );
    // The policy refused them before the network: nothing reached the route guard.
    expect(s.externalRequests).toEqual([]);

    // A worker loaded from this origin is not bound by a <meta> policy: the engine binds itself.
    const engineWorker = s.page.workers().find((w) => w.url().includes('engine.worker'));
    expect(engineWorker).toBeDefined();
    const fromWorker = await engineWorker?.evaluate(() =>
      fetch('https://telemetry.example.com/w').then(
        () => 'fetched',
        (e: Error) => e.message,
      ),
    );
    expect(fromWorker).toBe('the engine does not connect to https://telemetry.example.com');

    // The second line of defence, the harness's route guard, is armed: a navigation (which no CSP governs)
    // to a remote page is aborted and recorded.
    const other = await s.context.newPage();
    await other.goto('https://example.com/leak').catch(() => undefined);
    expect(s.externalRequests).toEqual(['https://example.com/leak']);
    await other.close();
    const policyErrors = s.consoleErrors.filter((e) => /Content Security Policy|Refused to/.test(e));
    expect(s.consoleErrors.filter((e) => !policyErrors.includes(e))).toEqual([]);
  } finally {
    await s.close();
  }
});

it('a full session (sample, real fixture, re-run, detail, diff, JSON config, share) makes only same-origin requests', async () => {
  expect(HAVE_REAL).toBe(true);
  const s = await openSession();
  const requests: string[] = [];
  s.context.on('request', (r) => requests.push(r.url()));
  try {
    const { page } = s;
    await page.goto(s.baseUrl);
    await page.getByTestId('transcript-row').first().waitFor();
    await waitForRun(page);
    // Detail (Monaco and its worker) and a rewrite's diff on the sample, then a real fixture, re-run.
    const story = await cliReport(STORY, { contextWindow: 44_000, outputReserve: 8_000 });
    const tiered = story.toolResults.find((r) => r.thread === 'main' && (r.tier === 1 || r.tier === 2));
    expect(tiered).toBeDefined();
    await clickRow(page, tiered?.messageIndex ?? 0);
    await page.getByTestId('detail-editor').waitFor();
    await page.getByTestId('rewrite-event').first().click();
    await page.getByTestId('diff-editor').waitFor();
    await loadFiles(page, [realPath(FE)]);
    await setConfig(page, { tier3Window: 4 });
    await clickRow(page, 1);
    await page.getByTestId('detail-tab-normalized').click();
    await page.getByTestId('detail-editor').waitFor();
    await page.getByTestId('config-tab-json').click();
    await page.locator('[data-testid="config-panel"] .monaco-editor').first().waitFor();
    await page.getByTestId('config-tab-summarizer').click();
    await page.getByTestId('summarizer-settings').waitFor();
    await page.getByTestId('share-button').click();
    await expect
      .poll(async () => (await page.getByTestId('share-url').inputValue()).length, { timeout: 120_000 })
      .toBeGreaterThan(0);
    await page.keyboard.press('Escape');

    const origin = new URL(s.baseUrl).origin;
    const elsewhere = requests.filter((r) => {
      const u = new URL(r);
      return u.protocol !== 'data:' && u.protocol !== 'blob:' && u.origin !== origin;
    });
    expect(requests.length).toBeGreaterThan(10);
    expect(elsewhere).toEqual([]);
    expect(s.externalRequests).toEqual([]);
    expect(s.failedRequests).toEqual([]);
    expect(s.consoleErrors).toEqual([]);

    // No telemetry in what the page runs: no beacons, no analytics or error-reporting hosts in any script.
    const scripts = [...new Set(requests.filter((r) => r.endsWith('.js')))];
    expect(scripts.length).toBeGreaterThan(3);
    for (const url of scripts) {
      const text = await (await fetch(url)).text();
      expect(text).not.toMatch(/sendBeacon\s*\(/);
      expect(text).not.toMatch(
        /google-analytics|googletagmanager|segment\.(io|com)|sentry\.io|mixpanel|posthog|plausible\.io|datadoghq|amplitude\.com|hotjar|bugsnag|logrocket/i,
      );
    }
  } finally {
    await s.close();
  }
});
