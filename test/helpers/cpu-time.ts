// CPU time (user + system, of this test process and its helper threads) a piece of work took, in ms. A time
// limit or a time ratio in a test is checked on CPU time, not wall time: a machine busy with other work stretches
// the wall time of the same work several times over (and unevenly, run to run), its CPU time hardly at all.
import { cpuUsage } from 'node:process';

const since = (start: NodeJS.CpuUsage) => {
  const used = cpuUsage(start);
  return (used.user + used.system) / 1000;
};

export async function cpuMs<T>(work: () => T | Promise<T>): Promise<{ result: T; ms: number }> {
  const start = cpuUsage();
  const result = await work();
  return { result, ms: since(start) };
}

/** The same for synchronous work. */
export function cpuMsSync<T>(work: () => T): { result: T; ms: number } {
  const start = cpuUsage();
  const result = work();
  return { result, ms: since(start) };
}
