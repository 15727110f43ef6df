// The page's main-thread tasks with the CPU time each one took, from Chromium's own trace (a task's thread time)
// beside its wall time. The long-task observer measures wall time, which a busy machine stretches: a 150 ms loop
// in the page measured 152 ms wall and 52 ms of thread time at load average 20 on 2 CPUs. What the app's code
// costs the main thread — and so whether it keeps every task short — is the CPU time; the tests assert on it and
// report the wall time beside. Phases are cut by `performance.mark` (in the trace with their own timestamps).
import type { CDPSession, Page } from 'playwright-core';

export type CpuTask = { start: number; wall: number; cpu: number };

type TraceEvent = {
  name: string;
  cat: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
};

export type CpuTrace = {
  /** Mark a phase boundary now (a `performance.mark` in the page). */
  mark(name: string): Promise<void>;
  /** Stop tracing: the page's main-thread tasks (ms) and the marks by name (ms, the same clock). */
  stop(): Promise<{ tasks: CpuTask[]; marks: Map<string, number> }>;
};

const PREFIX = 'tierscope-phase:';

/** Start tracing the page's tasks (before what is measured). */
export async function traceMainThread(page: Page): Promise<CpuTrace> {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...(e.value as unknown as TraceEvent[])));
  await cdp.send('Tracing.start', {
    traceConfig: { includedCategories: ['toplevel', 'blink.user_timing', '__metadata'], excludedCategories: ['*'] },
    transferMode: 'ReportEvents',
  });
  return {
    async mark(name) {
      await page.evaluate((n) => performance.mark(n), `${PREFIX}${name}`);
    },
    async stop() {
      const done = new Promise((ok) => cdp.once('Tracing.tracingComplete', ok));
      await cdp.send('Tracing.end');
      await done;
      await cdp.detach();
      const marks = events.filter((e) => e.name.startsWith(PREFIX));
      // The page's main thread is the one its marks were made on.
      const main = marks[0] ? `${marks[0].pid}/${marks[0].tid}` : null;
      const tasks = events
        .filter((e) => e.ph === 'X' && e.name === 'ThreadControllerImpl::RunTask' && `${e.pid}/${e.tid}` === main)
        .map((e) => ({ start: e.ts / 1000, wall: (e.dur ?? 0) / 1000, cpu: (e.tdur ?? e.dur ?? 0) / 1000 }));
      return { tasks, marks: new Map(marks.map((e) => [e.name.slice(PREFIX.length), e.ts / 1000])) };
    },
  };
}

/** The tasks that started in [from, to) (marks by name; a missing `to` is the end). */
export function tasksBetween(
  traced: { tasks: CpuTask[]; marks: Map<string, number> },
  from: string,
  to?: string,
): CpuTask[] {
  const a = traced.marks.get(from) ?? Number.NEGATIVE_INFINITY;
  const b = to === undefined ? Number.POSITIVE_INFINITY : (traced.marks.get(to) ?? Number.POSITIVE_INFINITY);
  return traced.tasks.filter((t) => t.start >= a && t.start < b);
}

/** The CPU time (rounded, ms) of every task over `limit` ms of CPU, with its wall time: `cpu/wall`. */
export function overCpu(tasks: readonly CpuTask[], limit: number): string[] {
  return tasks.filter((t) => t.cpu > limit).map((t) => `${Math.round(t.cpu)}/${Math.round(t.wall)} ms`);
}
