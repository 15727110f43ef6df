// CPU time (user + system, of this test process and its helper threads) a piece of work took, in ms. A time
// limit in a test is checked on CPU time, not wall time: a machine busy with other work stretches the wall time
// of the same work several times over, its CPU time hardly at all.
import { cpuUsage } from 'node:process';

export async function cpuMs<T>(work: () => T | Promise<T>): Promise<{ result: T; ms: number }> {
  const start = cpuUsage();
  const result = await work();
  const used = cpuUsage(start);
  return { result, ms: (used.user + used.system) / 1000 };
}
