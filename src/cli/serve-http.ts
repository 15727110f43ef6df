// The HTTP side of `tierscope serve`: the built app and the served roots (served-roots.ts), read-only, to this
// machine only. Every response carries the app's security headers (lib/csp.ts). A request must name this server by
// its loopback host (a page elsewhere cannot reach it through DNS rebinding); only GET and HEAD; `/_folder/list`
// lists the roots, `/_folder/file/<path>` sends a file of them with byte ranges (how the app follows a growing
// session); anything outside the roots or the app is refused.
import { createReadStream, statSync } from 'node:fs';
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

function sendFile(req: IncomingMessage, res: ServerResponse, path: string, type: string, cache: string): void {
  const size = statSync(path).size;
  const range = parseRange(req.headers.range, size);
  const head = { 'Content-Type': type, 'Accept-Ranges': 'bytes', 'Cache-Control': cache };
  if (range === 'unsatisfiable') {
    res.writeHead(416, { ...head, 'Content-Range': `bytes */${size}` });
    res.end();
    return;
  }
  const { start, end } = range ?? { start: 0, end: size - 1 };
  const length = Math.max(0, end - start + 1);
  res.writeHead(range ? 206 : 200, {
    ...head,
    'Content-Length': String(length),
    ...(range ? { 'Content-Range': `bytes ${start}-${end}/${size}` } : {}),
  });
  if (req.method === 'HEAD' || length === 0) {
    res.end();
    return;
  }
  createReadStream(path, { start, end }).pipe(res);
}

/** The request handler of a serve of `o.roots` and the app in `o.appDir`. */
export function serveHandler(o: ServeOptions): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    for (const [k, v] of Object.entries(securityHeaders(url.pathname))) res.setHeader(k, v);
    const host = req.headers.host ?? '';
    if (host !== `127.0.0.1:${o.port()}` && host !== `localhost:${o.port()}`)
      return send(res, 421, 'tierscope serve answers to 127.0.0.1 only\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'read-only\n');
    if (url.pathname === LIST_PATH) {
      const body = JSON.stringify({ root: o.rootName, files: listRoots(o.roots) });
      return send(res, 200, body, 'application/json');
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
  };
}
