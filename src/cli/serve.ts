// `tierscope serve [dir…] [--port N] [--open]`, and `tierscope` with no arguments or with a file (SPEC §8): the built
// app and what it reads, read-only, on 127.0.0.1 only — another host would put the files on the network, so it is
// refused with the reason. With no folder it serves the session homes found on this machine (homes.ts); a file is
// served with its sub-agent files and opened. Prints the URL (and opens it in the browser with --open): the
// sessions table of the folders, or the file.
import { existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { option, type ParsedArgs, UsageError } from './args.ts';
import { foundHomes, HOMES } from './homes.ts';
import { companionFiles } from './node-input.ts';
import { serveHandler } from './serve-http.ts';
import { type ServedRoot, uniqueNames } from './served-roots.ts';

export type Serving = { url: string; server: Server; close: () => Promise<void> };

/** What one serve shows: its roots, the name the sessions page gives them, the page the URL opens, and what the
 *  CLI says it serves. */
export type Served = { roots: ServedRoot[]; rootName: string; page: string; what: string };

const LOOPBACK = new Set(['127.0.0.1', 'localhost']);
/** The port tried first when none is given (the next free one is taken when it is in use): the app's one port —
 *  `npm start`'s, and the base of the links `tierscope share` prints (share/codec.ts DEFAULT_BASE_URL). */
const DEFAULT_PORT = 5173;

/** The built app (vite's dist/) of the checkout or package this CLI runs from: the nearest folder above with one. */
function defaultAppDir(from = fileURLToPath(import.meta.url)): string | null {
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'dist', 'index.html'))) return join(dir, 'dist');
    if (dirname(dir) === dir) return null;
  }
}

const tilde = (dir: string, home: string) => (dir.startsWith(`${home}/`) ? `~${dir.slice(home.length)}` : dir);

/** Folders, each a root (one is served at the top; several each under its name). */
export function servedFolders(dirs: string[]): Served {
  const roots = uniqueNames(dirs.map((d) => ({ name: basename(resolve(d)), dir: resolve(d) })));
  return {
    roots,
    rootName: roots.length === 1 ? roots[0].name : 'folders',
    page: '?folder=1',
    what: roots.map((r) => r.dir).join(', '),
  };
}

/** The session homes found under `home` (null when there are none). */
export function servedHomes(home: string): Served | null {
  const found = foundHomes(home);
  if (found.length === 0) return null;
  return {
    roots: uniqueNames(found.map((h) => ({ name: h.name, dir: h.dir }))),
    rootName: found.length === 1 ? found[0].label : 'sessions',
    page: '?folder=1',
    what: found.map((h) => `${h.label} (${tilde(h.dir, home)})`).join(' and '),
  };
}

/** One file with the sub-agent files beside it (looked for again on every listing), opened by the page. */
export function servedFile(path: string): Served {
  const file = resolve(path);
  const name = basename(file);
  const files = () => {
    try {
      return [name, ...companionFiles(file).map((c) => c.name)];
    } catch {
      return []; // the file's folder went away: nothing to serve
    }
  };
  return {
    roots: [{ name: basename(dirname(file)), dir: dirname(file), files }],
    rootName: basename(dirname(file)),
    page: `?folder=1&open=${encodeURIComponent(name)}`,
    what: file,
  };
}

/** The app alone (no session folder found): it opens on its sample, and takes a dropped file. */
const appOnly: Served = { roots: [], rootName: '', page: '', what: '' };

async function listen(server: Server, port: number): Promise<void> {
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', fail);
      ok();
    });
  });
}

/**
 * Start serving `served` (or one folder) and the app in `appDir` on 127.0.0.1:`port` (0: any free port). With
 * `fallback`, a port in use moves to the next free one (as Vite does), else it is an error.
 */
export async function startServe(
  served: Served | string,
  appDir: string,
  port: number,
  fallback = false,
): Promise<Serving> {
  const s = typeof served === 'string' ? servedFolders([served]) : served;
  let bound = port;
  const server = createServer(serveHandler({ roots: s.roots, rootName: s.rootName, appDir, port: () => bound }));
  for (let p = port; ; p++) {
    try {
      await listen(server, p);
      break;
    } catch (e) {
      if (!fallback || (e as NodeJS.ErrnoException).code !== 'EADDRINUSE' || p >= port + 20) throw e;
    }
  }
  const addr = server.address();
  bound = typeof addr === 'object' && addr ? addr.port : port;
  return {
    url: `http://127.0.0.1:${bound}/${s.page}`,
    server,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

/** What the arguments ask to serve: a file, folders, or the session homes. */
function servedFor(paths: string[], home: string): Served {
  for (const p of paths) if (!existsSync(p)) throw new UsageError(`no such file or folder: ${p}`);
  const files = paths.filter((p) => !statSync(p).isDirectory());
  if (files.length > 0 && paths.length > 1) throw new UsageError('give one file, or one or more folders');
  if (files.length === 1) return servedFile(files[0]);
  if (paths.length > 0) return servedFolders(paths);
  return servedHomes(home) ?? appOnly;
}

export async function serveCommand(args: ParsedArgs, io: { out: (s: string) => void }): Promise<number> {
  const host = option(args, 'host') ?? '127.0.0.1';
  if (!LOOPBACK.has(host))
    throw new UsageError(
      `serve listens on 127.0.0.1 only (got --host ${host}): the folder would be readable from other machines`,
    );
  const portText = option(args, 'port');
  if (portText !== undefined && (!/^\d+$/.test(portText) || Number(portText) > 65535))
    throw new UsageError(`--port needs a port number`);
  const home = homedir();
  const served = servedFor(args.positional, home);
  const app = option(args, 'app') ?? defaultAppDir();
  if (!app || !existsSync(join(app, 'index.html')))
    throw new UsageError('the app is not built: run `npm run build` (or give --app <dist folder>)');
  const s = await startServe(served, app, portText === undefined ? DEFAULT_PORT : Number(portText), !portText);
  if (served === appOnly) {
    io.out(`tierscope: no session folder found (looked for ${HOMES.map((h) => `~/${h.path}`).join(', ')})`);
    io.out(`tierscope: the app is at ${s.url} — drop a session log on it, or run \`tierscope <file>\``);
  } else io.out(`tierscope: serving ${served.what} (read-only) and the app at ${s.url}`);
  io.out('tierscope: 127.0.0.1 only; Ctrl-C stops');
  if (args.switches.has('open')) await openBrowser(s.url, io);
  // Serving goes on until the server closes (Ctrl-C ends the process).
  await new Promise((ok) => s.server.once('close', ok));
  return 0;
}

/** Open `url` in the default browser (the `open` package: macOS, Windows, WSL, Linux desktops); a machine without
 *  one says so and keeps serving. */
async function openBrowser(url: string, io: { out: (s: string) => void }): Promise<void> {
  try {
    const { default: open } = await import('open');
    const child = await open(url);
    child.once('error', () => io.out(`tierscope: could not open a browser; open ${url}`));
  } catch {
    io.out(`tierscope: could not open a browser; open ${url}`);
  }
}
