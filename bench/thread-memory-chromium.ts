// The hard case's memory in the app itself (SPEC §9: a 100 MB log ≤ 1.5 GB across main thread and workers): in real
// headless Chromium, load one long thread through the file input, then drag every key the Node sweep drags
// (phase-sweep.ts `hard`: `seeds` from a trigger of 0.6, then `claude-code`) through first-seen values typed into
// the config panel (test/e2e/ui.ts setConfig), as a person does; the whole browser's memory
// (test/e2e/chromium-memory.ts, Pss summed) is sampled throughout, and apart the renderers' (the page's main thread
// and its workers: SPEC §9's scope; the browser, GPU and utility processes are Chromium's own). `tsx bench/thread-memory-chromium.ts <file> [perKey]`; prints one JSON line.
// DRAG_MS=n: a fast drag instead — a key's values typed n ms apart without waiting for their runs (a run's reply can
// be overtaken by the next value's while the page fetches it), then the last one's run waited for.
import { type PresetId, presetConfig } from '../src/pipeline/presets.ts';
import { type ChromiumMemory, chromiumMemoryByType } from '../test/e2e/chromium-memory.ts';
import { openSession, stopServer } from '../test/e2e/harness.ts';
import { loadFiles, runId, setConfig, waitForRun } from '../test/e2e/ui.ts';

const [file, perKeyArg = '3'] = process.argv.slice(2);
const perKey = Number(perKeyArg);
const dragMs = Number(process.env.DRAG_MS ?? 0);
const s = await openSession();
let peak = 0;
let loadPeak = 0;
/** The renderers' peak (main thread and workers), and each process type's at the whole browser's peak. */
let rendererPeak = 0;
let loadRendererPeak = 0;
let atPeak: ChromiumMemory['byType'] = {};
const sample = () => {
  const m = chromiumMemoryByType(s.profileDir);
  if (m.total > peak) {
    peak = m.total;
    atPeak = m.byType;
  }
  rendererPeak = Math.max(rendererPeak, m.byType.renderer ?? 0);
  return m.total;
};
const sampler = setInterval(sample, 200);
const mb = (x: number) => Math.round(x / 2 ** 20);

/** Type `value` into a key's control, as a person does; wait for its run, then read the threads' heaps. */
async function set(key: string, value: number): Promise<void> {
  if (process.env.DEBUG) console.error(`${key} = ${value}`);
  await setConfig(s.page, { [key]: value });
  await heaps();
}

async function shownValue(key: string): Promise<number> {
  return Number(await s.page.getByTestId(`threshold-${key}`).first().inputValue());
}

/** The drags of phase-sweep.ts `hard`, as first-seen values from where each starts. */
const SWEEPS: Record<string, [string, (v: number, i: number) => number][]> = {
  seeds: [
    ['tier3Window', (v, i) => v + 1 + i],
    ['tier1Distance', (v, i) => v - 1 - i],
    ['tier2Cap', (v, i) => v + 25 * (i + 1)],
    ['triggerRatio', (v, i) => Math.round((v - 0.02 * (i + 1)) * 100) / 100],
    ['landingRatio', (v, i) => Math.round((v - 0.01 * (i + 1)) * 100) / 100],
    ['contextWindow', (v, i) => v - 12_000 * (i + 1)],
  ],
  'claude-code': [
    ['contextWindow', (v, i) => v - 12_000 * (i + 1)],
    ['triggerBufferTokens', (v, i) => v + 3_000 * (i + 1)],
    ['microcompact.keepRecent', (v, i) => v + 1 + i],
  ],
};

const result: Record<string, unknown> = { file };
let runs = 0;
/** Each thread's JS heap after each run (CDP Runtime.getHeapUsage: used, and what V8 has taken): the page's main
 *  thread, and every worker target (the engine; attached through the page's session, messages passed by id). */
type Heap = { usedSize: number; totalSize: number };
const cdp = await s.page.context().newCDPSession(s.page);
const heapPeaks = new Map<string, { used: number; total: number }>();
const replies = new Map<number, (h: Heap) => void>();
let messageId = 0;
// Untyped: Target.sendMessageToTarget's replies arrive as events (the non-flat protocol Playwright leaves open).
const raw = cdp as unknown as {
  send(method: string, params?: object): Promise<Record<string, unknown>>;
  on(event: string, f: (e: { message: string }) => void): void;
};
raw.on('Target.receivedMessageFromTarget', (e) => {
  const m = JSON.parse(e.message) as { id?: number; result?: Heap };
  if (m.id !== undefined && m.result) replies.get(m.id)?.(m.result);
});
const workerSessions = new Map<string, string>();
function keep(name: string, h: Heap): void {
  const was = heapPeaks.get(name);
  if (!was || h.totalSize > was.total) heapPeaks.set(name, { used: h.usedSize, total: h.totalSize });
}
async function heaps(): Promise<void> {
  keep('main', (await raw.send('Runtime.getHeapUsage')) as Heap);
  const { targetInfos } = (await raw.send('Target.getTargets')) as {
    targetInfos: { targetId: string; type: string; title: string }[];
  };
  for (const t of targetInfos) {
    if (t.type !== 'worker') continue;
    let session = workerSessions.get(t.targetId);
    if (!session) {
      session = (await raw.send('Target.attachToTarget', { targetId: t.targetId, flatten: false })).sessionId as string;
      workerSessions.set(t.targetId, session);
    }
    const id = ++messageId;
    const h = await new Promise<Heap>((resolve) => {
      replies.set(id, resolve);
      void raw.send('Target.sendMessageToTarget', {
        sessionId: session,
        message: JSON.stringify({ id, method: 'Runtime.getHeapUsage' }),
      });
    });
    replies.delete(id);
    keep(`${t.title || 'worker'} ${t.targetId.slice(0, 6)}`, h);
  }
}
try {
  await s.page.goto(s.baseUrl);
  await s.page.getByTestId('transcript-row').first().waitFor({ timeout: 120_000 });
  const baseline = sample();
  await loadFiles(s.page, [file], 600_000);
  // Exact counts: counting is over (no progress bar) and a run on them is shown.
  await s.page.waitForFunction(() => !document.querySelector('[data-testid="load-progress"]'), undefined, {
    timeout: 600_000,
  });
  await waitForRun(s.page, (await runId(s.page)) - 1, 600_000);
  loadPeak = peak;
  loadRendererPeak = rendererPeak;
  for (const preset of ['seeds', 'claude-code'] as PresetId[]) {
    const b = await runId(s.page);
    await s.page.getByTestId('preset-select').selectOption(preset);
    await waitForRun(s.page, b);
    // The Node sweep's start: the preset's own window (the app starts from the log's), seeds' trigger lowered.
    await set('contextWindow', presetConfig(preset).contextWindow);
    if (preset === 'seeds') await set('triggerRatio', 0.6);
    const start = new Map<string, number>();
    for (const [key] of SWEEPS[preset]) start.set(key, await shownValue(key));
    for (const [key, step] of SWEEPS[preset]) {
      const before = await runId(s.page);
      for (let i = 0; i < perKey; i++) {
        if (dragMs > 0) {
          const control = s.page.getByTestId(`threshold-${key}`);
          await control.fill(String(step(start.get(key) as number, i)));
          await control.blur();
          await s.page.waitForTimeout(dragMs);
        } else await set(key, step(start.get(key) as number, i));
        runs++;
      }
      if (dragMs > 0) {
        await waitForRun(s.page, before);
        await heaps();
      }
      await set(key, start.get(key) as number); // back to where the drag started (a repeat)
    }
  }
  sample();
  Object.assign(result, {
    runs,
    ...(dragMs > 0 ? { dragMs } : {}),
    baselineRssMB: mb(baseline),
    loadPeakRssMB: mb(loadPeak),
    peakRssMB: mb(peak),
    // SPEC §9's scope: the processes that run the page's main thread and its workers.
    rendererLoadPeakMB: mb(loadRendererPeak),
    rendererPeakMB: mb(rendererPeak),
    byTypeAtPeakMB: Object.fromEntries(Object.entries(atPeak).map(([k, v]) => [k, mb(v)])),
    // Each thread's heap at its largest after a run (the page and its workers share the renderer process).
    heapsMB: Object.fromEntries([...heapPeaks].map(([k, v]) => [k, { used: mb(v.used), taken: mb(v.total) }])),
    consoleErrors: s.consoleErrors.length,
  });
} finally {
  clearInterval(sampler);
  await s.close().catch(() => {});
  await stopServer();
}
console.log(JSON.stringify(result));
