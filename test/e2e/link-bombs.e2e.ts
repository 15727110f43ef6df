// Link bombs (issue 19, item 2): a share link whose few hundred KB of deflate expand to hundreds of MB, or
// whose JSON is a five-million-element array, must get a clear message within 10 s while the whole Chromium
// stays under 1.5 GB (measured from /proc over the browser's process tree), and the page stays usable.
// The bombs are built here, streamed through deflate, as the issue describes them.
import { randomInt } from 'node:crypto';
import { afterAll, expect, it } from 'vitest';
import { toBase64Url } from '../../src/share/bytes.ts';
import { chromiumMemory, sampleMemory } from './chromium-memory.ts';
import { openSession, screenshot, stopServer } from './harness.ts';
import { waitForRun } from './ui.ts';

afterAll(async () => {
  await stopServer();
});

const MB = 1024 * 1024;
const enc = new TextEncoder();

/** Raw deflate of the concatenated parts, streamed (a 300 MB text is never one string). */
async function deflateParts(parts: Iterable<string>): Promise<Uint8Array> {
  const it = parts[Symbol.iterator]();
  const source = new ReadableStream<Uint8Array>({
    pull(c) {
      const n = it.next();
      if (n.done) c.close();
      else c.enqueue(enc.encode(n.value));
    },
  });
  const out = source.pipeThrough(new CompressionStream('deflate-raw') as TransformStream<Uint8Array, Uint8Array>);
  const chunks: Uint8Array[] = [];
  for await (const c of out as unknown as AsyncIterable<Uint8Array>) chunks.push(c);
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  return all;
}

const HEAD =
  '{"v":1,"transcript":{"tierscope":1,"format":"claude-code","meta":{},"parseIssues":[],"threads":[{"id":"main","kind":"main","requests":[],"prefix":{},"messages":[';

/** A bundle whose one user message is `mb` MB of one letter. */
function* textBomb(mb: number): Generator<string> {
  yield `${HEAD}{"role":"user","source":{"line":1},"blocks":[{"type":"text","text":"`;
  const chunk = 'a'.repeat(MB);
  for (let i = 0; i < mb; i++) yield chunk;
  yield '"}]}]}]}}';
}

/** A bundle whose messages array holds five million small numbers. */
function* arrayBomb(): Generator<string> {
  yield HEAD;
  for (let i = 0; i < 5_000_000; i += 100_000) {
    const part: number[] = [];
    for (let k = 0; k < 100_000; k++) part.push(randomInt(10) < 3 ? 1 : 0);
    yield (i > 0 ? ',' : '') + part.join(',');
  }
  yield ']}]}}';
}

const BOMBS: [string, () => Iterable<string>][] = [
  ['300 MB of one letter', () => textBomb(300)],
  ['100 MB of one letter', () => textBomb(100)],
  ['30 MB of one letter', () => textBomb(30)],
  ['a five-million-element array', arrayBomb],
];

const measured: string[] = [];
afterAll(() => {
  // The numbers the issue asks to report (peak RSS of the whole Chromium, time to the message).
  console.log(`link bombs:\n${measured.join('\n')}`);
});

for (const [name, parts] of BOMBS) {
  it(`${name}: a clear message within 10 s, Chromium under 1.5 GB, the page usable`, async () => {
    const packed = await deflateParts(parts());
    const link = `#s=1.${toBase64Url(packed)}`;
    expect(link.length).toBeLessThan(2 * MB);
    const s = await openSession();
    try {
      // The link is pasted into an open, idle tab (its sample loaded and run). A megabyte-long URL takes
      // Chromium itself seconds to navigate to (Playwright's goto over 30 s), which no page can shorten, so the
      // clock starts when the page is told of the link (hashchange); the wall time is reported beside.
      await s.page.goto(s.baseUrl);
      await s.page.getByTestId('transcript-row').first().waitFor();
      await waitForRun(s.page);
      const before = chromiumMemory(s.profileDir);
      const rss = sampleMemory(s.profileDir);
      const t0 = Date.now();
      await s.page.evaluate(() => {
        const w = window as unknown as { hashAt?: number };
        window.addEventListener('hashchange', () => {
          w.hashAt = performance.now();
        });
      });
      await s.page.evaluate((hash) => {
        location.hash = hash;
      }, link.slice(1));
      // The sample stays on screen; the note beside it says why the link was refused.
      const shown = await s.page.waitForFunction(
        () =>
          document.querySelector('[data-testid="load-failure"]') !== null &&
          performance.now() - ((window as unknown as { hashAt?: number }).hashAt ?? 0),
        undefined,
        { polling: 50 },
      );
      const ms = Math.round(Number(await shown.jsonValue()));
      const wall = Date.now() - t0;
      const peak = rss.stop();
      const text = (await s.page.getByTestId('load-failure').textContent()) ?? '';
      measured.push(
        `  ${name}: link ${(link.length / 1024).toFixed(0)} KB, message after ${ms} ms of the page (${wall} ms wall), peak Chromium memory (Pss) ${(peak / MB).toFixed(0)} MB (${(before / MB).toFixed(0)} MB before) — ${text.slice(0, 160)}`,
      );
      expect(text).toMatch(/refused|not what a transcript holds|cannot be read/);
      expect(ms).toBeLessThan(10_000);
      expect(peak).toBeLessThan(1.5 * 1024 * MB);
      // Still usable: the file input is there and the help overlay opens.
      expect(await s.page.getByTestId('file-input').count()).toBe(1);
      await s.page.keyboard.press('?');
      await s.page.getByTestId('help-overlay').waitFor();
      if (name.startsWith('300')) await screenshot(s.page, 'link-bomb-refused');
      expect(s.consoleErrors).toEqual([]);
      expect(s.externalRequests).toEqual([]);
    } finally {
      await s.close();
    }
  });
}
