// The `http` summarizer in real Chromium against a local fake endpoint (a node:http server on 127.0.0.1 that
// answers in the OpenAI chat-completions and Anthropic messages shapes, and fails on demand): the endpoint is
// allowed by the page's CSP and nothing else is, the summaries show as `[micro-compact] …` results and an
// anchored turn summary, a failing endpoint shows its error plainly and meets the per-pass budget and the
// circuit breaker, and the API key is never stored (no localStorage, sessionStorage, IndexedDB, URL, share
// link, DOM or console) and is sent to that endpoint only.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { decodeShare } from '../../src/share/codec.ts';
import { fullPolicy } from '../../src/state/csp.ts';
import { fakeEndpoint, session } from './fake-endpoint.ts';
import { screenshot, stopServer } from './harness.ts';
import { editorText, loadFiles, openApp, setConfig } from './ui.ts';

const KEY = 'sk-test-Zq7Vn3KEYNEVERSTORED-4242';

let fake: Awaited<ReturnType<typeof fakeEndpoint>>;
let other: Awaited<ReturnType<typeof fakeEndpoint>>;
let dir: string;
let file: string;

beforeAll(async () => {
  fake = await fakeEndpoint();
  other = await fakeEndpoint();
  dir = mkdtempSync(join(tmpdir(), 'tierscope-summarizer-'));
  file = join(dir, 'flaky-cache.jsonl');
  writeFileSync(file, session(30));
});

afterAll(async () => {
  await stopServer();
  await new Promise((r) => fake.server.close(r));
  await new Promise((r) => other.server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

async function openTab(page: Page): Promise<void> {
  await page.getByTestId('config-tab-summarizer').click();
  await page.getByTestId('summarizer-settings').waitFor();
}

type Status = { phase: string; counts: string; outputs: number; errors: string[] };

async function status(page: Page): Promise<Status> {
  return page.evaluate(() => {
    const el = document.querySelector('[data-testid="summarizer-status"]');
    return {
      phase: el?.getAttribute('data-phase') ?? '',
      counts: document.querySelector('[data-testid="summarizer-counts"]')?.textContent ?? '',
      outputs: document.querySelectorAll('[data-testid="summarizer-output"]').length,
      errors: [...document.querySelectorAll('[data-testid="summarizer-error"]')].map((e) => e.textContent ?? ''),
    };
  });
}

/** Wait until the summarizer settled (every pending call answered and the re-run shown). */
async function settled(page: Page, check: (s: Status) => boolean): Promise<Status> {
  await expect
    .poll(
      async () => {
        const s = await status(page);
        return s.phase === 'done' && !s.counts.includes('in flight') && check(s);
      },
      { timeout: 120_000, interval: 250 },
    )
    .toBe(true);
  return status(page);
}

/** Everything the page keeps: web storage, IndexedDB, URL, DOM. */
async function everythingStored(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const dump: string[] = [location.href, document.documentElement.outerHTML];
    for (const st of [localStorage, sessionStorage])
      for (let i = 0; i < st.length; i++) {
        const k = st.key(i) ?? '';
        dump.push(k, st.getItem(k) ?? '');
      }
    for (const info of await indexedDB.databases()) {
      if (!info.name) continue;
      const db = await new Promise<IDBDatabase>((res, rej) => {
        const r = indexedDB.open(info.name ?? '');
        r.onsuccess = () => res(r.result);
        r.onerror = () => rej(r.error);
      });
      for (const store of db.objectStoreNames) {
        const all = await new Promise<unknown[]>((res) => {
          const r = db.transaction(store).objectStore(store).getAll();
          r.onsuccess = () => res(r.result);
          r.onerror = () => res([]);
        });
        dump.push(store, JSON.stringify(all));
      }
      db.close();
    }
    return dump.join('\n');
  });
}

it('summarizes through an OpenAI-shaped, then an Anthropic-shaped local endpoint; a failing one meets the budget and the breaker; the key is never stored', async () => {
  const s = await openApp();
  const requests: string[] = [];
  s.context.on('request', (r) => requests.push(r.url()));
  try {
    const { page } = s;
    // 1. Allow the endpoint: the page reloads with a policy naming that origin (and nothing else).
    await openTab(page);
    expect(await page.getByTestId('summarizer-allowed-origin').textContent()).toBe('this origin only');
    await page.getByTestId('summarizer-kind').selectOption('openai');
    await page.getByTestId('summarizer-endpoint').fill(`${fake.origin}/v1/chat/completions`);
    await page.getByTestId('summarizer-model').fill('fake-mini');
    await expect.poll(() => page.getByTestId('summarizer-apply').textContent()).toBe('Allow & reload');
    await Promise.all([page.waitForEvent('load'), page.getByTestId('summarizer-apply').click()]);
    await page.getByTestId('transcript-row').first().waitFor();
    const policies = await page.evaluate(() =>
      [...document.querySelectorAll('meta[http-equiv="Content-Security-Policy"]')].map((m) =>
        m.getAttribute('content'),
      ),
    );
    expect(policies).toContain(fullPolicy(fake.origin));
    expect(fullPolicy(fake.origin).endsWith(`connect-src 'self' ${fake.origin}`)).toBe(true);
    await openTab(page);
    expect(await page.getByTestId('summarizer-allowed-origin').textContent()).toBe(fake.origin);

    // Another local origin stays blocked by the policy (and receives nothing).
    const blocked = await page.evaluate(async (url) => {
      const seen: string[] = [];
      document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
      const r = await fetch(url, { method: 'POST', body: '{}' }).then(
        () => 'fetched',
        (e: Error) => e.name,
      );
      // The violation is reported as an event of its own: wait until it arrived (a cap, not a pause).
      const deadline = performance.now() + 60_000;
      while (seen.length === 0 && performance.now() < deadline) await new Promise((res) => setTimeout(res, 20));
      return { r, seen };
    }, `${other.origin}/v1/chat/completions`);
    expect(blocked.r).toBe('TypeError');
    expect(blocked.seen).toEqual([`connect-src ${other.origin}/v1/chat/completions`]);
    expect(other.calls).toEqual([]);

    // 2. A session that needs Tier-2 summaries and a turn summary.
    await loadFiles(page, [file]);
    await page.getByTestId('config-tab-controls').click();
    await setConfig(page, { contextWindow: 6000, outputReserve: 1000, tier3Window: 8 });
    await openTab(page);
    await page.getByTestId('summarizer-key').fill(KEY);
    await page.getByTestId('summarizer-key').press('Enter');
    await expect.poll(() => page.getByTestId('summarizer-key').inputValue()).toBe('');
    await expect
      .poll(() => page.getByTestId('summarizer-key').getAttribute('placeholder'))
      .toContain('set for this tab');
    expect(await page.getByTestId('summarizer-key-note').textContent()).toMatch(/memory only.*never saved/);
    await page.getByTestId('summarizer-use').click();
    const openai = await settled(page, (st) => st.outputs > 0);
    expect(openai.errors).toEqual([]);
    const openaiCalls = fake.calls.slice();
    expect(openaiCalls.length).toBeGreaterThan(0);
    for (const c of openaiCalls) {
      expect(c.path).toBe('/v1/chat/completions');
      expect(c.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(c.body.model).toBe('fake-mini');
    }
    expect(openaiCalls.some((c) => c.kind === 'result')).toBe(true);
    expect(openaiCalls.some((c) => c.kind === 'turns')).toBe(true);
    const countText = await page.getByTestId('summarizer-output-count').textContent();
    expect(countText).toMatch(/In this run: [1-9]\d* tool-result summar(y|ies) · [1-9]\d* turn summar/);

    // The summaries as the detail shows them: a `[micro-compact] …` result and an anchored turn summary.
    await page.locator('[data-testid="summarizer-output"][data-action="tier2-summary"]').first().click();
    await page.getByTestId('diff-editor').waitFor();
    // The inline diff draws the long original above the summary, and Monaco renders only the lines in view:
    // scroll to the end of the diff first, so the summary is drawn whatever the pane's height.
    const diffEnd = async () => {
      await page.getByTestId('diff-editor').hover();
      await page.mouse.wheel(0, 10_000);
      return editorText(page, 'diff-editor');
    };
    await expect.poll(diffEnd).toContain('[micro-compact] FAKE RESULT SUMMARY: go test output, cache errors noted.');
    await page.locator('[data-testid="summarizer-output"][data-action="summarize"]').first().click();
    await expect.poll(() => editorText(page, 'diff-editor')).toContain('written by the http summarizer');
    await expect.poll(() => editorText(page, 'diff-editor')).toContain('FAKE TURN SUMMARY: the agent ran go test');
    await screenshot(page, 'summarizer-openai');

    // 3. Anthropic messages on the same origin: no reload, the answers start over.
    fake.calls.length = 0;
    await page.getByTestId('summarizer-kind').selectOption('anthropic');
    await page.getByTestId('summarizer-endpoint').fill(`${fake.origin}/v1/messages`);
    await expect.poll(() => page.getByTestId('summarizer-apply').textContent()).toBe('Apply');
    await page.getByTestId('summarizer-apply').click();
    await expect.poll(() => fake.calls.length, { timeout: 120_000 }).toBeGreaterThan(0);
    const anthropic = await settled(page, (st) => st.outputs > 0);
    expect(anthropic.errors).toEqual([]);
    for (const c of fake.calls) {
      expect(c.path).toBe('/v1/messages');
      expect(c.headers['x-api-key']).toBe(KEY);
      expect(c.headers['anthropic-version']).toBe('2023-06-01');
      expect(c.headers.authorization).toBeUndefined();
      expect(c.body.model).toBe('fake-mini');
      expect(typeof c.body.max_tokens).toBe('number');
    }
    await page.locator('[data-testid="summarizer-output"][data-action="tier2-summary"]').first().click();
    await expect.poll(() => editorText(page, 'diff-editor')).toContain('[micro-compact] FAKE RESULT SUMMARY');

    // 4. A failing endpoint: the error in plain words, truncation instead of summaries, and only as many calls
    // as the per-pass attempt budget and the circuit breaker allow.
    fake.calls.length = 0;
    await page.getByTestId('summarizer-kind').selectOption('openai');
    await page.getByTestId('summarizer-endpoint').fill(`${fake.origin}/fail/v1/chat/completions`);
    await page.getByTestId('summarizer-apply').click();
    const failing = await settled(page, (st) => st.errors.length > 0);
    expect(failing.errors[0]).toMatch(/^HTTP 500 Internal Server Error: overloaded \(fake endpoint\)/);
    expect(failing.outputs).toBe(0);
    expect(failing.counts).toMatch(/^0 answered · [1-9]\d* failed$/);
    const requestCount = 31;
    const resultCalls = fake.calls.filter((c) => c.kind === 'result').length;
    const turnCalls = fake.calls.filter((c) => c.kind === 'turns').length;
    expect(resultCalls).toBeGreaterThan(0);
    expect(resultCalls).toBeLessThanOrEqual(2 * requestCount); // summaryAttemptsPerPass = 2
    expect(turnCalls).toBeGreaterThan(0);
    // With the breaker effectively off, the stage tries (and fails) on requests the breaker had skipped.
    await page.getByTestId('config-tab-controls').click();
    await setConfig(page, { 'summarize.breakerFailures': 1000 });
    await openTab(page);
    await expect.poll(() => fake.calls.filter((c) => c.kind === 'turns').length).toBeGreaterThan(turnCalls);
    await settled(page, () => true);
    await screenshot(page, 'summarizer-failing');

    // 5. The key: sent only as a header to the endpoint, stored nowhere, never in a share link or the console.
    expect(await everythingStored(page)).not.toContain(KEY);
    await page.getByTestId('share-button').click();
    const url = page.getByTestId('share-url');
    await expect.poll(async () => (await url.inputValue()).length, { timeout: 120_000 }).toBeGreaterThan(0);
    const link = await url.inputValue();
    expect(link).not.toContain(KEY);
    const decoded = await decodeShare(link);
    expect(decoded.ok).toBe(true);
    expect(JSON.stringify(decoded)).not.toContain(KEY);
    expect(JSON.stringify(decoded)).not.toContain(fake.origin);
    expect(s.consoleErrors.filter((e) => e.includes(KEY))).toEqual([]);

    // Every request went to this origin or the allowed endpoint; other origins got nothing.
    const base = new URL(s.baseUrl).origin;
    const elsewhere = requests.filter((r) => {
      const o = new URL(r);
      return o.protocol !== 'data:' && o.protocol !== 'blob:' && o.origin !== base && o.origin !== fake.origin;
    });
    expect(elsewhere).toEqual([]);
    expect(s.externalRequests).toEqual([]);
    expect(other.calls).toEqual([]);
    // The console errors allowed: the policy refusing the other origin (step 1), the failing endpoint's 500s.
    expect(s.consoleErrors.filter((e) => !e.includes(other.origin) && !e.includes('status of 500'))).toEqual([]);
  } finally {
    await s.close();
  }
});
