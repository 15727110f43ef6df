// The HTTP side of `tierscope serve`: the built app and the served roots (served-roots.ts), read-only, to this
// machine only. Every response carries the app's security headers (lib/csp.ts). A request must name this server by
// its loopback host (a page elsewhere cannot reach it through DNS rebinding); only GET and HEAD; `/_folder/list`
// lists the roots, `/_folder/file/<path>` sends a file of them with byte ranges (how the app follows a growing
// session); anything outside the roots or the app is refused. Every request gets a status, a malformed one too
// (400), and a file that vanishes or cannot be read fails that request only (404/403; cut off mid-body: the
// connection is closed).
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname } from 'node:path';
import { securityHeaders } from '../lib/csp.ts';
import { parseRange } from './byte-range.ts';
import { fileInside } from './safe-path.ts';
import { fileOfRoots, listRoots, type ServedRoot } from './served-roots.ts';

const LIST_PATH = '/_folder/list';
const FILE_PREFIX = '/_folder/file/';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.wasm': 'application/wasm',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.jsonl': 'application/octet-stream',
};

export type ServeOptions = { roots: ServedRoot[]; rootName: string; appDir: string; port: () => number };

function send(res: ServerResponse, status: number, body: string, type = 'text/plain; charset=utf-8'): void {
  res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store' });
  res.end(body);
}

/** A path of the request as '/'-separated decoded segments; null when it does not decode. */
function decodedPath(encoded: string): string | null {
  try {
    return encoded
      .split('/')
      .map((s) => decodeURIComponent(s))
      .join('/');
  } catch {
    return null;
  }
}

/** Answer a file that could not be opened: gone (404) or unreadable (403, e.g. a root-owned session). */
function openFailure(res: ServerResponse, e: unknown): void {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') send(res, 404, 'the file is gone\n');
  else if (code === 'EACCES' || code === 'EPERM') send(res, 403, 'the file cannot be read (permission denied)\n');
  else send(res, 500, `the file cannot be read (${code ?? 'error'})\n`);
}

/** Send a file (or a byte range of it). The file is opened before the status is written, so a file that is gone or
 *  unreadable is a 404/403; one deleted while it streams is still read whole (the open descriptor keeps it); one
 *  that shrinks or fails mid-body closes the connection, so the client sees a cut response, never a short 200. */
async function sendFile(req: IncomingMessage, res: ServerResponse, path: string, type: string, cache: string) {
  let handle: Awaited<ReturnType<typeof open>>;
  let size: number;
  try {
    handle = await open(path, 'r');
  } catch (e) {
    return openFailure(res, e);
  }
  try {
    size = (await handle.stat()).size;
  } catch (e) {
    await handle.close().catch(() => undefined);
    return openFailure(res, e);
  }
  const range = parseRange(req.headers.range, size);
  const head = { 'Content-Type': type, 'Accept-Ranges': 'bytes', 'Cache-Control': cache };
  const { start, end } = range !== null && range !== 'unsatisfiable' ? range : { start: 0, end: size - 1 };
  const length = Math.max(0, end - start + 1);
  if (range === 'unsatisfiable' || req.method === 'HEAD' || length === 0) {
    await handle.close().catch(() => undefined);
    if (range === 'unsatisfiable') res.writeHead(416, { ...head, 'Content-Range': `bytes */${size}` });
    else res.writeHead(range ? 206 : 200, { ...head, 'Content-Length': String(length) });
    res.end();
    return;
  }
  res.writeHead(range ? 206 : 200, {
    ...head,
    'Content-Length': String(length),
    ...(range ? { 'Content-Range': `bytes ${start}-${end}/${size}` } : {}),
  });
  const stream = createReadStream('', { fd: handle, start, end });
  let sent = 0;
  stream.on('data', (c) => {
    sent += c.length;
  });
  stream.on('error', () => res.destroy());
  stream.on('end', () => {
    if (sent < length) res.destroy();
  });
  res.on('close', () => stream.destroy());
  stream.pipe(res);
}

/** The request URL, or null when it does not parse (`GET http://%zz/`). */
function requestUrl(req: IncomingMessage): URL | null {
  try {
    return new URL(req.url ?? '/', 'http://127.0.0.1');
  } catch {
    return null;
  }
}

/** Answer a request whose handling failed: a status when none was sent yet, else close the connection. */
function failed(res: ServerResponse): void {
  if (!res.headersSent) send(res, 500, 'the server could not answer this request\n');
  else res.destroy();
}

/** The request handler of a serve of `o.roots` and the app in `o.appDir`. */
export function serveHandler(o: ServeOptions): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    answer(o, req, res).catch(() => failed(res));
  };
}

async function answer(o: ServeOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = requestUrl(req);
  for (const [k, v] of Object.entries(securityHeaders(url?.pathname ?? '/'))) res.setHeader(k, v);
  if (!url) return send(res, 400, 'malformed request URL\n');
  const host = req.headers.host ?? '';
  if (host !== `127.0.0.1:${o.port()}` && host !== `localhost:${o.port()}`)
    return send(res, 421, 'tierscope serve answers to 127.0.0.1 only\n');
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'read-only\n');
  if (url.pathname === LIST_PATH) {
    const files = await listRoots(o.roots);
    return send(res, 200, JSON.stringify({ root: o.rootName, files }), 'application/json');
  }
  if (url.pathname.startsWith(FILE_PREFIX)) {
    const rel = decodedPath(url.pathname.slice(FILE_PREFIX.length));
    const path = rel === null ? null : fileOfRoots(o.roots, rel);
    if (!path) return send(res, 403, 'not a file of the served folder\n');
    // Bytes only: a hostile log is never rendered as a page (nosniff is among the security headers).
    return sendFile(req, res, path, 'application/octet-stream', 'no-store');
  }
  const rel = url.pathname === '/' ? 'index.html' : decodedPath(url.pathname.slice(1));
  const path = rel === null ? null : fileInside(o.appDir, rel);
  if (!path) return send(res, 404, 'not found\n');
  const type = TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
  return sendFile(req, res, path, type, rel === 'index.html' ? 'no-cache' : 'public, max-age=3600');
}
