// Big-file measurement in real headless Chromium (issue 19, item 3: what file size this design can hold):
// `tsx bench/big-file-chromium.ts <file> [rssCapMB] [timeoutS] [chromium flags…]` loads the file through the file input and
// samples the whole browser's resident memory (test/e2e/chromium-memory.ts) until the load, the exact counts and the
// first run are done — or the engine stops, the load fails, the RSS passes the cap or the time runs out (the
// session is then closed at once). Prints one JSON line: outcome, time to structure and to ready, peak RSS.
import { statSync } from 'node:fs';
import { chromiumMemory } from '../test/e2e/chromium-memory.ts';
import { openSession, stopServer } from '../test/e2e/harness.ts';

const [file, capArg = '3000', timeoutArg = '600', ...chromiumArgs] = process.argv.slice(2);
const capBytes = Number(capArg) * 1024 * 1024;
const s = await openSession({ args: chromiumArgs });
let peak = 0;
let outcome = 'ready';
const result: Record<string, unknown> = { file, bytes: statSync(file).size };
try {
  await s.page.goto(s.baseUrl);
  await s.page.getByTestId('transcript-row').first().waitFor({ timeout: 120_000 });
  const name = file.split('/').pop() as string;
  const baseline = chromiumMemory(s.profileDir);
  const t0 = Date.now();
  await s.page.getByTestId('file-input').setInputFiles(file);
  const deadline = t0 + Number(timeoutArg) * 1000;
  let structureMs: number | null = null;
  for (;;) {
    const rss = chromiumMemory(s.profileDir);
    peak = Math.max(peak, rss);
    if (rss > capBytes) {
      outcome = `stopped: RSS ${Math.round(rss / 2 ** 20)} MB over the cap`;
      break;
    }
    if (Date.now() > deadline) {
      outcome = 'stopped: timeout';
      break;
    }
    const st = await s.page
      .evaluate((n) => {
        const el = document.querySelector('[data-testid="load-status"]');
        const bar = document.querySelector('[data-testid="summary-bar"]');
        return {
          status: el?.getAttribute('data-status') ?? '',
          named: (el?.textContent ?? '').includes(n),
          text: (el?.textContent ?? '').slice(0, 300),
          progress: document.querySelector('[data-testid="load-progress"]') !== null,
          run: bar?.getAttribute('data-run-status') ?? '',
          stopped: document.querySelector('[data-testid="engine-stopped"]')?.textContent ?? null,
        };
      }, name)
      .catch((e: Error) => ({ crashed: e.message }));
    if ('crashed' in st) {
      outcome = `page crashed: ${st.crashed.slice(0, 200)}`;
      break;
    }
    if (st.stopped) {
      outcome = `engine stopped: ${st.stopped.slice(0, 300)}`;
      break;
    }
    if (st.status === 'error') {
      outcome = `load error: ${st.text}`;
      break;
    }
    if (st.status === 'ready' && st.named && structureMs === null) structureMs = Date.now() - t0;
    if (structureMs !== null && !st.progress && st.run === 'ready') break;
    await new Promise((r) => setTimeout(r, 250));
  }
  Object.assign(result, {
    outcome,
    structureMs,
    totalMs: Date.now() - t0,
    baselineRssMB: Math.round(baseline / 2 ** 20),
    peakRssMB: Math.round(peak / 2 ** 20),
  });
} finally {
  await s.close().catch(() => {});
  await stopServer();
}
console.log(JSON.stringify(result));
