// Peak resident memory of one Chromium (the browser process of a session's profile and every process below it:
// renderers, workers' host, utilities), sampled from /proc while a test runs. The sum counts pages shared
// between processes more than once, so it is an upper bound of what the browser holds.
import { readdirSync, readFileSync } from 'node:fs';

function read(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** Resident bytes of the processes of the Chromium whose profile is `profileDir`, now. */
export function chromiumRss(profileDir: string): number {
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
  for (const pid of parent.keys()) {
    if (!inTree(pid)) continue;
    const kb = /VmRSS:\s+(\d+) kB/.exec(read(`/proc/${pid}/status`));
    if (kb) total += Number(kb[1]) * 1024;
  }
  return total;
}

/** Sample chromiumRss every `everyMs` until stopped; `stop()` returns the peak in bytes. */
export function sampleRss(profileDir: string, everyMs = 100): { stop: () => number } {
  let peak = chromiumRss(profileDir);
  const timer = setInterval(() => {
    peak = Math.max(peak, chromiumRss(profileDir));
  }, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, chromiumRss(profileDir));
    },
  };
}
