// `tierscope serve [dir] [--port N] [--host 127.0.0.1]` (SPEC §8): the built app and a folder (default
// ~/.claude/projects), read-only, on 127.0.0.1 only — another host would put the folder on the network, so it is
// refused with the reason. Prints the URL that opens the app on the folder's sessions.
import { existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { option, type ParsedArgs, UsageError } from './args.ts';
import { serveHandler } from './serve-http.ts';

export type Serving = { url: string; server: Server; close: () => Promise<void> };

const LOOPBACK = new Set(['127.0.0.1', 'localhost']);

/** The built app (vite's dist/) of the checkout this CLI runs from: the nearest folder above with one. */
function defaultAppDir(from = fileURLToPath(import.meta.url)): string | null {
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'dist', 'index.html'))) return join(dir, 'dist');
    if (dirname(dir) === dir) return null;
  }
}

/** Start serving `dir` and the app in `appDir` on 127.0.0.1:`port` (0: any free port). */
export async function startServe(dir: string, appDir: string, port: number): Promise<Serving> {
  const root = resolve(dir);
  let bound = port;
  const server = createServer(serveHandler({ root, rootName: basename(root), appDir, port: () => bound }));
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => ok());
  });
  const addr = server.address();
  bound = typeof addr === 'object' && addr ? addr.port : port;
  return {
    url: `http://127.0.0.1:${bound}/?folder=1`,
    server,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

export async function serveCommand(args: ParsedArgs, io: { out: (s: string) => void }): Promise<number> {
  const host = option(args, 'host') ?? '127.0.0.1';
  if (!LOOPBACK.has(host))
    throw new UsageError(
      `serve listens on 127.0.0.1 only (got --host ${host}): the folder would be readable from other machines`,
    );
  const dir = args.positional[0] ?? join(homedir(), '.claude', 'projects');
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`no such folder: ${dir}`);
  const portText = option(args, 'port') ?? '5179';
  if (!/^\d+$/.test(portText) || Number(portText) > 65535) throw new UsageError(`--port needs a port number`);
  const app = option(args, 'app') ?? defaultAppDir();
  if (!app || !existsSync(join(app, 'index.html')))
    throw new UsageError('the app is not built: run `npm run build` (or give --app <dist folder>)');
  const s = await startServe(dir, app, Number(portText));
  io.out(`tierscope: serving ${resolve(dir)} (read-only) and the app at ${s.url}`);
  io.out('tierscope: 127.0.0.1 only; Ctrl-C stops');
  return 0;
}
