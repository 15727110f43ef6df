// Files in real Chromium (issue 19, item 3): the page hands picked, dropped and pasted files to the engine
// worker and never reads them itself (every Blob/FileReader read in the page is counted: none of the file's
// size); the file-size limit refuses an input on every path (picker, drop, paste, a same-origin URL as ?src= and
// samples use) with a clear message; gzip logs load from the picker and from ?src= (DecompressionStream), a
// truncated one keeps what decompressed, one that expands past the limit is refused; and an engine that stops in
// the middle of a load shows Retry with a smaller limit to try, after which the same file is refused, not crashed
// (the Limits tab's input shows the limit set there, and Defaults).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import { formatBytes } from '../../src/lib/bytes.ts';
import { generateClaudeCode } from './gen-claude-code.ts';
import { openSession, type Session, screenshot, servedFolder, stopServer } from './harness.ts';
import { loadFiles, pasteText, waitForRun } from './ui.ts';

const dir = mkdtempSync(join(tmpdir(), 'tierscope-big-files-'));
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await stopServer();
});

/** Count every read of a Blob over 64 KB made by the page's own scripts (before any of them runs). */
async function countPageReads(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __reads: string[] };
    w.__reads = [];
    const watch = <T extends object>(proto: T, names: string[], blobOf: (self: T, args: unknown[]) => unknown) => {
      for (const n of names) {
        const orig = (proto as Record<string, unknown>)[n] as (...a: unknown[]) => unknown;
        (proto as Record<string, unknown>)[n] = function (this: T, ...args: unknown[]) {
          const b = blobOf(this, args);
          if (b instanceof Blob && b.size > 65_536) w.__reads.push(`${n} ${b.size}`);
          return orig.apply(this, args);
        };
      }
    };
    watch(Blob.prototype, ['arrayBuffer', 'text', 'stream', 'bytes'], (self) => self);
    watch(
      FileReader.prototype,
      ['readAsArrayBuffer', 'readAsText', 'readAsBinaryString', 'readAsDataURL'],
      (_, a) => a[0],
    );
  });
}

async function openApp(s: Session): Promise<void> {
  await s.page.goto(s.baseUrl);
  await s.page.getByTestId('transcript-row').first().waitFor();
  await waitForRun(s.page);
}

async function setFileLimitMb(page: Page, mb: number): Promise<void> {
  await page.getByTestId('config-tab-limits').click();
  await page.getByTestId('limit-maxFileBytes').fill(String(mb));
}

/** Wait until the page says a load failed saying `what`: the note beside the analysis that stayed on screen
 *  (dismissed once read, so the next failure is a new one), or the error page when nothing was on screen. Each
 *  refusal replaces the one before it: waiting for any failure would read the previous one. */
async function loadError(page: Page, what: RegExp | string): Promise<void> {
  const failure = page.getByTestId('load-failure');
  const shown = async () => {
    if ((await failure.count()) > 0) return (await failure.textContent()) ?? '';
    return (await page.getByTestId('load-status').getAttribute('data-status')) === 'error'
      ? ((await page.getByTestId('load-status').textContent()) ?? '')
      : '';
  };
  await expect.poll(shown).toMatch(what);
  if ((await failure.count()) > 0) await failure.getByRole('button', { name: 'Dismiss' }).click();
}

async function statusText(page: Page): Promise<string> {
  return (await page.getByTestId('load-status').textContent()) ?? '';
}

it('the page never reads a file; the limit holds on every path; gzip loads, truncated gzip keeps what it has, a gzip bomb is refused', async () => {
  const plain = generateClaudeCode(3 * 1024 * 1024, 11);
  const session = join(dir, 'session.jsonl');
  writeFileSync(session, plain);
  const gz = gzipSync(plain);
  writeFileSync(join(dir, 'session.jsonl.gz'), gz);
  writeFileSync(join(dir, 'cut.jsonl.gz'), gz.subarray(0, Math.floor(gz.length / 2)));
  // 1 MB of compressed lines that expand to 40 MB.
  writeFileSync(join(dir, 'bomb.jsonl.gz'), gzipSync(Buffer.alloc(40 * 1024 * 1024, '{"type":"summary"}\n')));
  const s = await openSession();
  try {
    const { page } = s;
    await countPageReads(page);
    await openApp(s);
    writeFileSync(join(servedFolder(), 'served.jsonl.gz'), gz);

    // Picker: the plain file and its gzip give the same transcript.
    await loadFiles(page, [session]);
    const named = async (name: RegExp) => (await statusText(page)).replace(name, 'NAME');
    const plainStatus = await named(/session\.jsonl/);
    expect(plainStatus).toMatch(/claude-code/);
    await loadFiles(page, [join(dir, 'session.jsonl.gz')]);
    expect(await named(/session\.jsonl\.gz/)).toBe(plainStatus);
    // ?src= of a gzip file on this origin (fetched and undone by the worker).
    await page.goto(`${s.baseUrl}?src=served.jsonl.gz`);
    await page.waitForFunction(
      () => document.querySelector('[data-testid="load-status"]')?.getAttribute('data-status') === 'ready',
      undefined,
      { timeout: 120_000 },
    );
    await waitForRun(page);
    expect(await named(/served\.jsonl\.gz/)).toBe(plainStatus);
    // A truncated gzip: what decompressed loads, and a parse issue says where it stopped.
    await loadFiles(page, [join(dir, 'cut.jsonl.gz')]);
    await page.getByTestId('parse-issues').click();
    await expect.poll(() => page.getByTestId('parse-issues').textContent()).toMatch(/gzip stream ended early/);
    // No file was read by the page: every read above happened in the worker.
    expect(await page.evaluate(() => (window as unknown as { __reads: string[] }).__reads)).toEqual([]);

    // A 1 MB limit, then every path: picker, drop, paste, a same-origin URL (a sample; ?src= takes the same
    // path), and the gzip bomb.
    await setFileLimitMb(page, 1);
    await page.getByTestId('file-input').setInputFiles(session);
    await loadError(page, /session\.jsonl is 3(\.\d)? MB, over the 1 MB file-size limit/);
    await page.evaluate(
      (size) => {
        const dt = new DataTransfer();
        dt.items.add(new File(['{"type":"user"}\n'.repeat(Math.ceil(size / 16))], 'dropped.jsonl'));
        window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      },
      2 * 1024 * 1024,
    );
    await loadError(page, /dropped\.jsonl is 2 MB, over the 1 MB file-size limit/);
    await page.getByTestId('paste-button').click();
    await pasteText(page, 'paste-text', plain.slice(0, 1_500_000));
    await page.getByTestId('paste-load').click();
    await loadError(page, /pasted\.jsonl is [\d.]+ MB, over the 1 MB file-size limit/);
    await setFileLimitMb(page, 0.015625); // 16 KB
    await page.getByTestId('sample-picker').selectOption('cache-break');
    await loadError(page, /cache-break\.jsonl is (31\.4 KB, )?over the 16 KB file-size limit/);
    await setFileLimitMb(page, 1);
    await page.getByTestId('file-input').setInputFiles(join(dir, 'bomb.jsonl.gz'));
    await loadError(page, /bomb\.jsonl\.gz is gzip-compressed and decompresses to more than the 1 MB/);
    await screenshot(page, 'big-files-refused');
    expect(s.consoleErrors).toEqual([]);
  } finally {
    await s.close();
  }
});

it('an engine that stops in the middle of a load: Retry, and a smaller limit that refuses the file next time', async () => {
  // A gzip log: the worker undoes it in an async stream, so the stop lands in the middle of the load (a worker
  // busy in synchronous parsing would only see the close request after it).
  const gz = gzipSync(generateClaudeCode(60 * 1024 * 1024, 5));
  const file = join(dir, 'big.jsonl.gz');
  writeFileSync(file, gz);
  const MB = 1024 * 1024;
  const suggested = Math.floor(gz.length / 2 / MB) * MB;
  const s = await openSession();
  try {
    const { page } = s;
    await openApp(s);
    await page.getByTestId('file-input').setInputFiles(file);
    await page.waitForFunction(
      () => document.querySelector('[data-testid="load-status"]')?.getAttribute('data-status') === 'loading',
    );
    // The worker ends without a word, as the browser ends a worker out of memory.
    const engine = page.workers().find((w) => /engine/.test(w.url()));
    await engine?.evaluate(() => self.close()).catch(() => {});
    const banner = page.getByTestId('engine-stopped');
    await banner.waitFor();
    const suggestion = await page.getByTestId('engine-stopped-suggestion').textContent();
    expect(suggestion).toContain(`stopped while working on a ${formatBytes(gz.length)} file`);
    expect(suggestion).toContain(`Try a smaller file-size limit (${formatBytes(suggested)};`);
    await screenshot(page, 'engine-stopped-while-loading');
    // The Limits tab open beside the banner: its input shows the limit the banner sets (it kept the old one).
    await page.getByTestId('config-tab-limits').click();
    const input = page.getByTestId('limit-maxFileBytes');
    expect(await input.inputValue()).toBe(String(384));
    await page.getByTestId('engine-lower-limit').click();
    await expect.poll(() => input.inputValue()).toBe(String(suggested / MB));
    await page.getByTestId('engine-retry').click();
    await banner.waitFor({ state: 'detached' });
    await loadError(
      page,
      `big.jsonl.gz is ${formatBytes(gz.length)}, over the ${formatBytes(suggested)} file-size limit`,
    );
    // Defaults puts every input back to the default it applies.
    await page.getByTestId('limit-maxThreads').fill('7');
    await page.getByTestId('limits-reset').click();
    await expect.poll(() => input.inputValue()).toBe(String(384));
    expect(await page.getByTestId('limit-maxThreads').inputValue()).toBe('10000');
    // The page is usable: a sample loads.
    await page.getByTestId('sample-picker').selectOption('pairing-bug');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="load-status"]')?.getAttribute('data-status') === 'ready',
      undefined,
      { timeout: 120_000 },
    );
  } finally {
    await s.close();
  }
});
