// Watches the page's main thread from before navigation: every long task (over 50 ms) and every long
// animation frame, a frame split into script time and style-and-layout time with the scripts in it (what a
// long task was made of). Shared by the perf e2e test and the benchmark's Chromium phase.
import type { Page } from 'playwright-core';

export type Task = { start: number; duration: number };
export type Frame = Task & { script: number; layout: number; scripts: string[] };
export type MainThread = { tasks: Task[]; frames: Frame[] };

/** Install the observers (before `page.goto`); they record into `window.__mainThread`. */
export async function probeMainThread(page: Page): Promise<void> {
  await page.addInitScript(() => {
    type Loaf = PerformanceEntry & {
      renderStart: number;
      styleAndLayoutStart: number;
      scripts: (PerformanceEntry & { invoker: string; sourceFunctionName: string })[];
    };
    const probe: MainThread = { tasks: [], frames: [] };
    (window as unknown as { __mainThread: MainThread }).__mainThread = probe;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) probe.tasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
    if (PerformanceObserver.supportedEntryTypes.includes('long-animation-frame'))
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as Loaf[]) {
          const end = e.startTime + e.duration;
          probe.frames.push({
            start: e.startTime,
            duration: e.duration,
            script: Math.round((e.renderStart || end) - e.startTime),
            layout: Math.round(end - (e.styleAndLayoutStart || end)),
            scripts: e.scripts.map((x) => `${x.invoker} ${x.sourceFunctionName} ${Math.round(x.duration)}ms`),
          });
        }
      }).observe({ type: 'long-animation-frame', buffered: true });
  });
}

/** What the probe recorded since the last take (taken entries leave the page). */
export function takeMainThread(page: Page): Promise<MainThread> {
  return page.evaluate(() => {
    const probe = (window as unknown as { __mainThread: MainThread }).__mainThread;
    return { tasks: probe.tasks.splice(0), frames: probe.frames.splice(0) };
  });
}

/** The longest of `frames` that start in [from, to), or null. */
export function worstFrame(frames: readonly Frame[], from = -Infinity, to = Infinity): Frame | null {
  let worst: Frame | null = null;
  for (const f of frames) if (f.start >= from && f.start < to && (!worst || f.duration > worst.duration)) worst = f;
  return worst;
}
