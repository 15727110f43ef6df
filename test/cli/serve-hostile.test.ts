// `tierscope serve` cannot be killed by a request (issue 29, item 4): the real CLI process is started and sent
// malformed request lines and URLs (`GET http://%zz/` threw in `new URL` and ended the process), a file deleted or
// cut short while it streams, and a file it may not read (a root-owned session left by `sudo claude`: when these tests
// run as root the server runs as `nobody`, so permissions apply); each gets a status (or, mid-body, a closed
// connection), and the server keeps serving. A listing of 20,000 files does not hold up other requests.
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/fixtures.ts';

const base = mkdtempSync(join(tmpdir(), 'tierscope-serve-hostile-'));
const root = join(base, 'projects');
const app = join(base, 'dist');
const BIG = 48 * 1024 * 1024;
let server: ChildProcess;
let port = 0;
let exited: string | null = null;

beforeAll(async () => {
  mkdirSync(join(root, 'p'), { recursive: true });
  mkdirSync(join(root, 'many'));
  mkdirSync(app);
  writeFileSync(join(app, 'index.html'), '<!doctype html><title>app</title>');
  writeFileSync(join(root, 'p', 'ok.jsonl'), '{"type":"user"}\n');
  writeFileSync(join(root, 'p', 'locked.jsonl'), 'secret session\n');
  chmodSync(join(root, 'p', 'locked.jsonl'), 0o000);
  for (let i = 0; i < 20_000; i++) writeFileSync(join(root, 'many', `s${i}.jsonl`), '');
  for (const d of [base, root, app, join(root, 'p'), join(root, 'many')]) chmodSync(d, 0o755);
  // As root every file is readable: run the server as nobody so the locked file is what a user's server meets.
  const asRoot = process.getuid?.() === 0;
  server = spawn(
    process.execPath,
    [join(REPO_ROOT, 'bin', 'tierscope.cjs'), 'serve', root, '--port', '0', '--app', app],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
      env: { ...process.env, HOME: base },
    },
  );
  server.on('exit', (code, signal) => {
    exited = `exit ${code} ${signal ?? ''}`;
  });
  let out = '';
  port = await new Promise<number>((ok, fail) => {
    server.stdout?.on('data', (c) => {
      out += String(c);
      const m = /127\.0\.0\.1:(\d+)\//.exec(out);
      if (m) ok(Number(m[1]));
    });
    server.stderr?.on('data', (c) => {
      out += String(c);
    });
    server.on('exit', () => fail(new Error(`serve ended: ${out}`)));
  });
}, 120_000);

afterAll(() => {
  server?.kill();
  rmSync(base, { recursive: true, force: true });
});

/** Send raw bytes; the status code of the first response line (0: the connection closed without one). */
function rawStatus(text: string | Buffer): Promise<number> {
  return new Promise((ok, fail) => {
    const s = connect(port, '127.0.0.1');
    let got = '';
    s.on('data', (c) => {
      got += c.toString('latin1');
    });
    s.on('error', () => ok(Number(/^HTTP\/1\.[01] (\d{3})/.exec(got)?.[1] ?? 0)));
    s.on('close', () => ok(Number(/^HTTP\/1\.[01] (\d{3})/.exec(got)?.[1] ?? 0)));
    s.setTimeout(30_000, () => fail(new Error(`no answer to ${JSON.stringify(String(text).slice(0, 80))}`)));
    s.write(text);
  });
}

type Got = { status: number; bytes: number; complete: boolean };

/** GET a path; `during` runs once the first body bytes arrived (the rest of the body waits for it). */
function get(path: string, during?: () => void): Promise<Got> {
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}` } }, (res) => {
      let bytes = 0;
      let first = true;
      res.on('data', (c: Buffer) => {
        bytes += c.length;
        if (first && during) {
          first = false;
          res.pause();
          during();
          setImmediate(() => res.resume());
        }
      });
      res.on('end', () => ok({ status: res.statusCode ?? 0, bytes, complete: res.complete }));
      res.on('aborted', () => ok({ status: res.statusCode ?? 0, bytes, complete: false }));
      res.on('error', () => ok({ status: res.statusCode ?? 0, bytes, complete: false }));
    });
    req.on('error', fail);
    req.end();
  });
}

async function stillServing(): Promise<void> {
  expect(exited).toBeNull();
  expect((await get('/_folder/file/p/ok.jsonl')).status).toBe(200);
}

describe('serve answers every request and keeps serving', () => {
  it('malformed request lines and URLs get a status', async () => {
    const host = () => `Host: 127.0.0.1:${port}\r\n`;
    const cases: [string, string | Buffer, number[]][] = [
      [
        'absolute URL with a bad escape, our Host',
        () => `GET http://%zz/ HTTP/1.1\r\n${host()}Connection: close\r\n\r\n`,
        [400],
      ],
      [
        'absolute URL with a bad escape, any Host',
        'GET http://%zz/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
        [400],
      ],
      ['a bad escape in the path', () => `GET /%zz HTTP/1.1\r\n${host()}Connection: close\r\n\r\n`, [404]],
      [
        'a bad escape in a folder path',
        () => `GET /_folder/file/%E0%A4%A HTTP/1.1\r\n${host()}Connection: close\r\n\r\n`,
        [403],
      ],
      ['a bare star', () => `GET * HTTP/1.1\r\n${host()}Connection: close\r\n\r\n`, [400, 404]],
      [
        'an absolute URL of another host',
        () => `GET http://evil.example/_folder/list HTTP/1.1\r\n${host()}Connection: close\r\n\r\n`,
        [200, 421],
      ],
      ['a path starting with //', () => `GET //evil.example/x HTTP/1.1\r\n${host()}Connection: close\r\n\r\n`, [404]],
      ['no Host (HTTP/1.0)', 'GET / HTTP/1.0\r\n\r\n', [421]],
      ['garbage', Buffer.from([0x00, 0x01, 0xff, 0x20, 0x0d, 0x0a, 0x0d, 0x0a]), [400]],
      ['a request line without a version', 'GET /\r\n\r\n', [400, 421]],
      ['a header with a control character', () => `GET / HTTP/1.1\r\n${host()}X-A: a\u0001b\r\n\r\n`, [400]],
      ['a 100 KB URL', () => `GET /${'a'.repeat(100_000)} HTTP/1.1\r\n${host()}\r\n`, [414, 431, 400]],
      ['an unknown method', () => `BREW / HTTP/1.1\r\n${host()}Connection: close\r\n\r\n`, [400, 405]],
      [
        'a NUL in the path',
        () => `GET /_folder/file/p/ok.jsonl%00 HTTP/1.1\r\n${host()}Connection: close\r\n\r\n`,
        [403],
      ],
    ].map(([name, text, ok]) => [
      name as string,
      typeof text === 'function' ? text() : (text as string | Buffer),
      ok as number[],
    ]);
    for (const [name, text, ok] of cases) {
      const status = await rawStatus(text);
      expect({ name, answered: ok.includes(status) ? 'yes' : status }).toEqual({ name, answered: 'yes' });
      expect(exited, name).toBeNull();
    }
    await stillServing();
  });

  it('a file deleted while it streams is sent whole; one cut short closes the connection', async () => {
    const path = join(root, 'p', 'big.jsonl');
    writeFileSync(path, Buffer.alloc(BIG, 0x61));
    chmodSync(path, 0o644);
    const deleted = await get('/_folder/file/p/big.jsonl', () => unlinkSync(path));
    expect(deleted).toEqual({ status: 200, bytes: BIG, complete: true });
    await stillServing();
    writeFileSync(path, Buffer.alloc(BIG, 0x62));
    chmodSync(path, 0o644);
    const cut = await get('/_folder/file/p/big.jsonl', () => truncateSync(path, 1000));
    expect(cut.status).toBe(200);
    expect(cut.complete).toBe(false);
    expect(cut.bytes).toBeLessThan(BIG);
    await stillServing();
    // Gone before it is asked for.
    unlinkSync(path);
    expect((await get('/_folder/file/p/big.jsonl')).status).toBe(403);
    await stillServing();
  });

  it('a file it may not read is a 403, not a crash', async () => {
    const r = await get('/_folder/file/p/locked.jsonl');
    expect(r.status).toBe(403);
    await stillServing();
  });

  it('listing 20,000 files does not hold up a request sent after it', async () => {
    const order: string[] = [];
    const list = get('/_folder/list').then((r) => {
      order.push('list');
      return r;
    });
    const small = get('/_folder/file/p/ok.jsonl').then((r) => {
      order.push('file');
      return r;
    });
    const [l, f] = await Promise.all([list, small]);
    expect([l.status, f.status]).toEqual([200, 200]);
    expect(order).toEqual(['file', 'list']);
    await stillServing();
  });
});
