// Peak memory of one Chromium (the browser process of a session's profile and every process below it: renderers,
// workers' host, utilities), sampled from /proc while a test runs: the sum of each process's proportional set size
// (Pss: a page shared by n processes counts 1/n in each), which is what the browser holds. Summing resident sizes
// (VmRSS) counted Chromium's shared code and memory once per process: ~0.1–0.2 GB more, varying with how many
// processes were up at the sample. Where smaps_rollup cannot be read, VmRSS is used (an upper bound). By process
// type too: the renderers host the page's main thread and its workers (SPEC §9's scope); the browser, GPU and
// utility processes are Chromium's own.
import { readdirSync, readFileSync } from 'node:fs';

function read(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** Bytes held by the processes of the Chromium whose profile is `profileDir`, now (their Pss summed). */
export function chromiumMemory(profileDir: string): number {
  return chromiumMemoryByType(profileDir).total;
}

/** Pss of a Chromium by process type (`--type=` of its command line; the browser process has none), and in total. */
export type ChromiumMemory = { total: number; byType: Record<string, number> };

/** chromiumMemory, split by process type: `renderer` is the page's main thread and its workers (with any spare
 *  renderer Chromium keeps warm), `browser` the browser process, the rest Chromium's GPU and utility processes. */
export function chromiumMemoryByType(profileDir: string): ChromiumMemory {
  const parent = new Map<number, number>();
  const roots: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    const stat = read(`/proc/${pid}/stat`);
    const m = /\) \S (\d+)/.exec(stat);
    if (m) parent.set(pid, Number(m[1]));
    if (read(`/proc/${pid}/cmdline`).includes(`--user-data-dir=${profileDir}`)) roots.push(pid);
  }
  const inTree = (pid: number): boolean => {
    for (let p: number | undefined = pid, hops = 0; p !== undefined && p > 1 && hops < 64; hops++) {
      if (roots.includes(p)) return true;
      p = parent.get(p);
    }
    return false;
  };
  let total = 0;
  const byType: Record<string, number> = {};
  for (const pid of parent.keys()) {
    if (!inTree(pid)) continue;
    const kb =
      /^Pss:\s+(\d+) kB/m.exec(read(`/proc/${pid}/smaps_rollup`)) ??
      /VmRSS:\s+(\d+) kB/.exec(read(`/proc/${pid}/status`));
    if (!kb) continue;
    const bytes = Number(kb[1]) * 1024;
    total += bytes;
    // The type is an argument of the command line: NUL-separated, or spaces once Chromium rewrote its title.
    const type = /(?:^|[\s\0])--type=([^\s\0]+)/.exec(read(`/proc/${pid}/cmdline`))?.[1] ?? 'browser';
    byType[type] = (byType[type] ?? 0) + bytes;
  }
  return { total, byType };
}

/** Sample chromiumMemory every `everyMs` until stopped; `stop()` returns the peak in bytes. */
export function sampleMemory(profileDir: string, everyMs = 100): { stop: () => number } {
  let peak = chromiumMemory(profileDir);
  const timer = setInterval(() => {
    peak = Math.max(peak, chromiumMemory(profileDir));
  }, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, chromiumMemory(profileDir));
    },
  };
}
