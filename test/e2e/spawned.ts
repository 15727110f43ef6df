// A server started the way a user starts it (`npm start`, `npx tierscope`): the command is spawned as written, in
// its own process group, and the test reads the URL it prints — never a port it assumed was free, since other test
// runs share the machine. `stop` ends that process group (and only it).
import { type ChildProcess, spawn } from 'node:child_process';
import { stripVTControlCharacters } from 'node:util';

export type Spawned = {
  /** The first http://127.0.0.1:<port>/… URL the command printed. */
  url: string;
  /** Everything printed so far, stdout and stderr. */
  output: () => string;
  child: ChildProcess;
  stop: () => Promise<void>;
};

/** The environment of a shell a user types into: without what the test runner set for itself. */
export function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...extra };
  for (const k of Object.keys(env)) if (k === 'NODE_ENV' || k.startsWith('VITEST') || k === 'TEST') delete env[k];
  return env;
}

/** Spawn `command args` in `cwd` and wait until it prints a loopback URL (or exits, or `timeout` ms pass). */
export async function spawnServer(
  command: string,
  args: string[],
  opts: { cwd: string; env?: NodeJS.ProcessEnv; timeout?: number },
): Promise<Spawned> {
  const child = spawn(command, args, { cwd: opts.cwd, env: opts.env ?? userEnv(), detached: true });
  let out = '';
  const exited = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      await exited;
    }
  };
  const url = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`no URL printed by ${command} ${args.join(' ')} in ${opts.timeout ?? 120_000} ms:\n${out}`)),
      opts.timeout ?? 120_000,
    );
    const onData = (b: Buffer) => {
      out += b.toString('utf8');
      // Vite colours and bolds parts of the URL unless NO_COLOR holds; strip escapes either way.
      const m = stripVTControlCharacters(out).match(/http:\/\/127\.0\.0\.1:\d+\/\S*/);
      if (m) {
        clearTimeout(timer);
        ok(m[0]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      fail(new Error(`${command} ${args.join(' ')} exited (${code}) before printing a URL:\n${out}`));
    });
  }).catch(async (e) => {
    await stop();
    throw e;
  });
  return { url, output: () => out, child, stop };
}
