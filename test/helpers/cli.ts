// Run the CLI in this process as a person would from a shell, capturing its exit code, stdout and stderr.
import { runCli } from '../../src/cli/main.ts';

export type CliRun = { code: number; out: string; err: string };

export async function runCapture(argv: string[]): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (s) => out.push(s), err: (s) => err.push(s) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}
