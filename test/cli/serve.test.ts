// `tierscope serve`: 127.0.0.1 only (another --host is refused with the reason), the folder listing the app scans,
// byte ranges (what a follower asks for), every response with the app's security headers, and nothing outside the
// folder or the app: `..`, encoded `..`, absolute paths, symbolic links out of the folder, other Host headers. Several
// roots (the session homes) each under its name; one file with its sub-agent files and nothing else beside it.

import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRange } from '../../src/cli/byte-range.ts';
import { foundHomes, HOMES } from '../../src/cli/homes.ts';
import { type Serving, servedFile, servedHomes, startServe } from '../../src/cli/serve.ts';
import { uniqueNames } from '../../src/cli/served-roots.ts';
import { DOCUMENT_POLICY, isDocumentPath, WORKER_POLICY } from '../../src/lib/csp.ts';
import { AGENT_HOMES } from '../../src/sessions/agent-homes.ts';
import { runCapture } from '../helpers/cli.ts';

type Reply = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Reply> {
  return new Promise((ok, fail) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () =>
        ok({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }),
      );
    });
    req.on('error', fail);
    req.end();
  });
}

/** A raw request line (no URL normalization by the client), for `..` and odd paths. */
function raw(port: number, path: string, host = `127.0.0.1:${port}`): Promise<Reply> {
  return new Promise<Reply>((ok, fail) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET', headers: { host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () =>
        ok({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }),
      );
    });
    req.on('error', fail);
    req.end();
  });
}

describe('byte ranges', () => {
  it('reads a-b, a- and -n; refuses what lies past the end', () => {
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=50-500', 100)).toEqual({ start: 50, end: 99 });
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-1,5-6', 100)).toBeNull();
    expect(parseRange(undefined, 100)).toBeNull();
  });
});

describe('tierscope serve', () => {
  const base = mkdtempSync(join(tmpdir(), 'tierscope-serve-'));
  const root = join(base, 'projects');
  const app = join(base, 'dist');
  const outside = join(base, 'secret.txt');
  let s: Serving;
  let port = 0;
  beforeAll(async () => {
    mkdirSync(join(root, 'p'), { recursive: true });
    mkdirSync(app);
    writeFileSync(join(app, 'index.html'), '<!doctype html><title>app</title>');
    writeFileSync(join(app, 'engine.js'), 'export {}');
    writeFileSync(join(root, 'p', 'a b.jsonl'), '0123456789');
    writeFileSync(outside, 'secret');
    symlinkSync(outside, join(root, 'p', 'link.jsonl'));
    s = await startServe(root, app, 0);
    port = Number(new URL(s.url).port);
  });
  afterAll(async () => s?.close());

  it('prints a 127.0.0.1 URL that opens the app on the folder', () => {
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?folder=1$/);
  });

  it('lists the folder, and sends a file whole or by byte range', async () => {
    const list = await get(`http://127.0.0.1:${port}/_folder/list`);
    expect(list.status).toBe(200);
    const body = JSON.parse(list.body) as { root: string; files: { path: string; size: number }[] };
    expect(body.root).toBe('projects');
    expect(body.files).toEqual([{ path: 'p/a b.jsonl', size: 10 }]);
    const whole = await get(`http://127.0.0.1:${port}/_folder/file/p/a%20b.jsonl`);
    expect([whole.status, whole.body, whole.headers['accept-ranges']]).toEqual([200, '0123456789', 'bytes']);
    const tail = await get(`http://127.0.0.1:${port}/_folder/file/p/a%20b.jsonl`, { range: 'bytes=6-' });
    expect([tail.status, tail.body, tail.headers['content-range']]).toEqual([206, '6789', 'bytes 6-9/10']);
    const past = await get(`http://127.0.0.1:${port}/_folder/file/p/a%20b.jsonl`, { range: 'bytes=10-' });
    expect([past.status, past.headers['content-range']]).toEqual([416, 'bytes */10']);
  });

  it('sends the security headers: documents with frame-ancestors none, the rest the worker policy', async () => {
    const page = await get(`http://127.0.0.1:${port}/`);
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toBe(DOCUMENT_POLICY);
    expect(DOCUMENT_POLICY).toContain("frame-ancestors 'none'");
    expect([isDocumentPath('/'), isDocumentPath('/engine.js')]).toEqual([true, false]);
    const js = await get(`http://127.0.0.1:${port}/engine.js`);
    expect(js.headers['content-security-policy']).toBe(WORKER_POLICY);
    expect(js.headers['x-content-type-options']).toBe('nosniff');
    const file = await get(`http://127.0.0.1:${port}/_folder/file/p/a%20b.jsonl`);
    expect(file.headers['content-type']).toBe('application/octet-stream');
  });

  it('refuses paths outside the folder: .., encoded .., absolute, a symbolic link out', async () => {
    for (const path of [
      '/_folder/file/../secret.txt',
      '/_folder/file/p/../../secret.txt',
      '/_folder/file/%2e%2e/secret.txt',
      '/_folder/file/p%2f..%2f..%2fsecret.txt',
      `/_folder/file/${encodeURIComponent(outside)}`,
      '/_folder/file/p/link.jsonl',
      '/_folder/file/p/missing.jsonl',
    ]) {
      const r = await raw(port, path);
      // 403 from the folder route; a path the URL parser resolves out of /_folder/file/ is a 404 of the app route.
      expect({ path, refused: r.status === 403 || r.status === 404, leaked: r.body.includes('secret') }).toEqual({
        path,
        refused: true,
        leaked: false,
      });
    }
    const up = await raw(port, '/../secret.txt');
    expect(up.body).not.toContain('secret');
  });

  it('answers only to its loopback name, and only to GET and HEAD', async () => {
    const rebound = await raw(port, '/_folder/list', `evil.example:${port}`);
    expect(rebound.status).toBe(421);
    expect((await get(`http://127.0.0.1:${port}/_folder/list`, {}, 'POST')).status).toBe(405);
    expect((await get(`http://127.0.0.1:${port}/_folder/list`, {}, 'HEAD')).status).toBe(200);
  });

  it('refuses a non-loopback --host with the reason, and a missing folder', async () => {
    const r = await runCapture(['serve', root, '--host', '0.0.0.0']);
    expect(r.code).toBe(2);
    expect(r.err.split('\n')[0]).toBe(
      'tierscope: serve listens on 127.0.0.1 only (got --host 0.0.0.0): the folder would be readable from other machines',
    );
    expect((await runCapture(['serve', root, '--host', '192.168.1.5'])).code).toBe(2);
    expect((await runCapture(['serve', join(base, 'nope')])).err).toMatch(/^tierscope: no such file or folder/);
  });
});

describe('tierscope serve over several roots, and over one file', () => {
  const base = mkdtempSync(join(tmpdir(), 'tierscope-roots-'));
  const claude = join(base, 'home', '.claude', 'projects');
  const codex = join(base, 'home', '.codex', 'sessions');
  const app = join(base, 'dist');
  let s: Serving;
  let port = 0;
  beforeAll(async () => {
    mkdirSync(join(claude, 'p', 'abc', 'subagents'), { recursive: true });
    mkdirSync(join(codex, '2025', '11', '13'), { recursive: true });
    mkdirSync(app);
    writeFileSync(join(app, 'index.html'), '<!doctype html><title>app</title>');
    writeFileSync(join(claude, 'p', 'abc.jsonl'), '{"a":1}\n');
    writeFileSync(join(claude, 'p', 'abc', 'subagents', 'agent-1.jsonl'), '{"b":2}\n');
    writeFileSync(join(claude, 'p', 'other.jsonl'), 'other');
    writeFileSync(join(codex, '2025', '11', '13', 'rollout-x.jsonl'), '0123');
    const served = servedHomes(join(base, 'home'));
    if (!served) throw new Error('no homes found');
    s = await startServe(served, app, 0);
    port = Number(new URL(s.url).port);
  });
  afterAll(async () => s?.close());

  it('finds the homes of the table that exist, and only those', () => {
    expect(foundHomes(join(base, 'home')).map((h) => h.name)).toEqual(['claude-code', 'codex']);
    expect(foundHomes(join(base, 'nowhere'))).toEqual([]);
    expect(servedHomes(join(base, 'nowhere'))).toBeNull();
    // One table: Claude Code and Codex first, then the agents of issue 31 (sessions/agent-homes.ts).
    expect(HOMES.slice(0, 2).map((h) => h.path)).toEqual(['.claude/projects', '.codex/sessions']);
    expect(HOMES.slice(2)).toEqual(AGENT_HOMES);
    expect(foundHomes(join(base, 'home'), [{ path: '.', label: 'Cline (VS Code)', format: 'cline' }])[0]?.name).toBe(
      'cline-vs-code',
    );
  });

  it('lists every root under its own name and sends each root its files, byte ranges included', async () => {
    const list = JSON.parse((await get(`http://127.0.0.1:${port}/_folder/list`)).body) as {
      files: { path: string }[];
    };
    expect(list.files.map((f) => f.path).sort()).toEqual([
      'claude-code/p/abc.jsonl',
      'claude-code/p/abc/subagents/agent-1.jsonl',
      'claude-code/p/other.jsonl',
      'codex/2025/11/13/rollout-x.jsonl',
    ]);
    const tail = await get(`http://127.0.0.1:${port}/_folder/file/codex/2025/11/13/rollout-x.jsonl`, {
      range: 'bytes=2-',
    });
    expect([tail.status, tail.body]).toEqual([206, '23']);
    for (const path of [
      '/_folder/file/nope/p/abc.jsonl',
      '/_folder/file/claude-code/../codex/x',
      '/_folder/file/p/abc.jsonl',
    ])
      expect([path, (await raw(port, path)).status]).toEqual([path, 403]);
  });

  it('names roots apart when two folders share a name', () => {
    expect(uniqueNames([{ name: 'projects' }, { name: 'projects' }, { name: 'x' }]).map((r) => r.name)).toEqual([
      'projects',
      'projects-2',
      'x',
    ]);
  });

  it('one file: the file and its sub-agent files only (new ones too), opened by the URL', async () => {
    const one = await startServe(servedFile(join(claude, 'p', 'abc.jsonl')), app, 0);
    try {
      expect(one.url).toMatch(/\/\?folder=1&open=abc\.jsonl$/);
      const at = `http://127.0.0.1:${new URL(one.url).port}`;
      const listed = async () =>
        (JSON.parse((await get(`${at}/_folder/list`)).body) as { files: { path: string }[] }).files.map((f) => f.path);
      expect(await listed()).toEqual(['abc.jsonl', 'abc/subagents/agent-1.jsonl']);
      writeFileSync(join(claude, 'p', 'abc', 'subagents', 'agent-2.jsonl'), '{}\n');
      expect(await listed()).toEqual(['abc.jsonl', 'abc/subagents/agent-1.jsonl', 'abc/subagents/agent-2.jsonl']);
      expect((await get(`${at}/_folder/file/abc/subagents/agent-2.jsonl`)).body).toBe('{}\n');
      expect((await get(`${at}/_folder/file/other.jsonl`)).status).toBe(403);
    } finally {
      await one.close();
    }
  });

  it('no command, or a file in its place, serves; a mix of a file and folders is refused', async () => {
    const mixed = await runCapture([join(claude, 'p', 'abc.jsonl'), claude]);
    expect([mixed.code, mixed.err.split('\n')[0]]).toEqual([2, 'tierscope: give one file, or one or more folders']);
    expect((await runCapture(['nope-not-a-command'])).err.split('\n')[0]).toBe(
      'tierscope: unknown command "nope-not-a-command"',
    );
  });
});
