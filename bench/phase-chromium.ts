// Bench phase: in real headless Chromium, load a generated log through the file input and change a
// threshold; observers installed before navigation (test/e2e/main-thread-probe.ts) record every main-thread
// task over 50 ms and every long animation frame. Reports the longest task while loading and while
// re-running, the worst long animation frame of each (script / style-and-layout split), and load timings.
import { openSession, stopServer } from '../test/e2e/harness.ts';
import { probeMainThread, takeMainThread, worstFrame } from '../test/e2e/main-thread-probe.ts';

const [file] = process.argv.slice(2);
type FrameSplit = { ms: number; scriptMs: number; styleLayoutMs: number } | null;
type LongTasks = { longest: number; count: number; worstFrame: FrameSplit };
const s = await openSession();
try {
  await probeMainThread(s.page);
  await s.page.goto(s.baseUrl);
  await s.page.getByTestId('transcript-row').first().waitFor({ timeout: 120_000 });
  await s.page.getByTestId('stat-hit-rate-simulated').waitFor({ timeout: 120_000 });
  const take = async (): Promise<LongTasks> => {
    const { tasks, frames } = await takeMainThread(s.page);
    const f = worstFrame(frames);
    return {
      longest: tasks.reduce((m, t) => Math.max(m, t.duration), 0),
      count: tasks.length,
      worstFrame: f && { ms: Math.round(f.duration), scriptMs: f.script, styleLayoutMs: f.layout },
    };
  };
  await take(); // discard the sample app's startup
  const name = file.split('/').pop() as string;
  const runBefore = Number((await s.page.getByTestId('summary-bar').getAttribute('data-run-id')) ?? 0);
  const t0 = Date.now();
  await s.page.getByTestId('file-input').setInputFiles(file);
  // Structure: the status names the new file and is ready (rows shown, tokens still estimated).
  await s.page.waitForFunction(
    (n) => {
      const el = document.querySelector('[data-testid="load-status"]');
      return el?.getAttribute('data-status') === 'ready' && (el.textContent ?? '').includes(n);
    },
    name,
    { timeout: 300_000 },
  );
  const structureMs = Date.now() - t0;
  // Exact: counting is over (no progress bar) and a run on the exact counts finished after the load.
  await s.page.waitForFunction(() => !document.querySelector('[data-testid="load-progress"]'), undefined, {
    timeout: 600_000,
  });
  await s.page.waitForFunction(
    (before) => {
      const bar = document.querySelector('[data-testid="summary-bar"]');
      return Number(bar?.getAttribute('data-run-id') ?? 0) > before && bar?.getAttribute('data-run-status') === 'ready';
    },
    runBefore,
    { timeout: 600_000 },
  );
  const exactMs = Date.now() - t0;
  await new Promise((r) => setTimeout(r, 1000));
  const load: LongTasks = await take();
  const input = s.page.getByTestId('threshold-tier3Window');
  let rerun: LongTasks = { longest: 0, count: 0, worstFrame: null };
  if ((await input.count()) > 0) {
    for (const v of ['6', '10', '7']) {
      await input.first().fill(v);
      await new Promise((r) => setTimeout(r, 1500));
    }
    rerun = await take();
  }
  console.log(
    JSON.stringify({
      structureMs,
      exactMs,
      loadLongestTaskMs: load.longest,
      loadLongTasks: load.count,
      loadWorstFrame: load.worstFrame,
      rerunLongestTaskMs: rerun.longest,
      rerunLongTasks: rerun.count,
      rerunWorstFrame: rerun.worstFrame,
      consoleErrors: s.consoleErrors.length,
    }),
  );
} finally {
  await s.close();
  await stopServer();
}
