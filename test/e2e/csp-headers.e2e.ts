// CSP as response headers (issue 19, item 9) in real Chromium: the preview server sends src/lib/csp.ts's
// headers — HTML documents `frame-ancestors 'none'`, every other response (the worker scripts) the strict
// this-origin-only policy — so another loopback origin cannot frame the app, and from inside the engine and
// counting workers neither the prototype's `fetch` (which the engine's own override does not cover) nor a
// cross-origin `import()` reaches it: that origin's server receives nothing. The engine worker alone may compile
// WebAssembly (issue 31: sql.js); the counting worker and the page may not.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Worker } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DOCUMENT_POLICY, ENGINE_WORKER_POLICY, WORKER_POLICY } from '../../src/lib/csp.ts';
import { screenshot, stopServer } from './harness.ts';
import { openApp } from './ui.ts';

let other: { server: Server; origin: string; hits: string[] };
let appOrigin = '';

/** Another loopback origin: CORS-open data, a CORS-open module, and a page that frames the app. */
function otherOrigin(): Promise<typeof other> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    res.setHeader('access-control-allow-origin', '*');
    if (url.startsWith('/frame.html')) {
      res.setHeader('content-type', 'text/html');
      res.end(`<!doctype html><iframe id="app" src="${appOrigin}/" width="800" height="600"></iframe>`);
      return;
    }
    hits.push(`${req.method} ${url}`);
    if (url.startsWith('/mod.js')) {
      res.setHeader('content-type', 'text/javascript');
      res.end('export const leaked = "module from another origin";');
      return;
    }
    res.setHeader('content-type', 'application/json');
    res.end('{"leaked":true}');
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits }),
    ),
  );
}

beforeAll(async () => {
  other = await otherOrigin();
});

afterAll(async () => {
  await stopServer();
  await new Promise((r) => other.server.close(r));
});

/** From inside a worker: the prototype's fetch (no override can intercept it), plain fetch, and import().
 *  Passed as source text: vitest would rewrite a dynamic import() written in this file. */
async function tryEscape(w: Worker, origin: string): Promise<string[]> {
  const o = JSON.stringify(origin);
  return w.evaluate(`(async () => {
    const outcome = (p) => p.then(() => 'reached', (e) => 'refused (' + e.name + ')');
    return [
      'prototype fetch: ' + (await outcome(WorkerGlobalScope.prototype.fetch.call(self, ${o} + '/proto'))),
      'fetch: ' + (await outcome(fetch(${o} + '/plain'))),
      'import(): ' + (await outcome(import(${o} + '/mod.js'))),
    ];
  })()`);
}

it('documents and workers carry the header policies; another loopback origin can neither frame the app nor be reached from its workers', async () => {
  const s = await openApp();
  try {
    const { page } = s;
    appOrigin = new URL(s.baseUrl).origin;

    const engine = page.workers().find((w) => w.url().includes('engine.worker'));
    expect(engine).toBeDefined();
    if (!engine) return;
    const script = await fetch(engine.url());

    // The engine worker, and a counting worker started from the same script the engine starts them from.
    expect(await tryEscape(engine, other.origin)).toEqual([
      'prototype fetch: refused (TypeError)',
      'fetch: refused (TypeError)',
      'import(): refused (TypeError)',
    ]);
    // The counting workers' script, as the engine's bundle names it.
    const name = /count\.worker-[\w-]+\.js/.exec(await script.text())?.[0];
    const countUrl = name && new URL(name, engine.url()).href;
    expect(countUrl).toBeDefined();
    const [counting] = await Promise.all([
      page.waitForEvent('worker', (w) => w.url() === countUrl),
      page.evaluate((u) => {
        new Worker(u ?? '', { type: 'module' });
      }, countUrl),
    ]);
    expect(await tryEscape(counting, other.origin)).toEqual([
      'prototype fetch: refused (TypeError)',
      'fetch: refused (TypeError)',
      'import(): refused (TypeError)',
    ]);
    expect(other.hits).toEqual([]);

    // WebAssembly (sql.js reads opencode's database in the engine): the engine worker alone may compile it.
    const compile = `WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])).then(() => 'compiled', (e) => 'refused (' + e.name + ')')`;
    expect(await engine.evaluate(compile)).toBe('compiled');
    expect(await counting.evaluate(compile)).toMatch(/^refused/);
    expect(await page.evaluate(compile)).toMatch(/^refused/);

    // Framed by another origin: the browser refuses to render the app in the frame.
    const framer = await s.context.newPage();
    await framer.goto(`${other.origin}/frame.html`);
    await framer.waitForTimeout(1500);
    const child = framer.frames().find((f) => f !== framer.mainFrame());
    expect(child).toBeDefined();
    const rendered = await child
      ?.evaluate(() => document.querySelector('[data-testid="drop-zone"], #root') !== null)
      .catch(() => false);
    expect(rendered).toBe(false);
    await screenshot(framer, 'csp-frame-refused');
    await framer.close();
    expect(other.hits).toEqual([]);

    // The headers, as served: what refused all of the above.
    const doc = await fetch(s.baseUrl);
    expect(doc.headers.get('content-security-policy')).toBe(DOCUMENT_POLICY);
    expect(DOCUMENT_POLICY).toContain("frame-ancestors 'none'");
    expect(doc.headers.get('x-frame-options')).toBe('DENY');
    expect(script.headers.get('content-security-policy')).toBe(ENGINE_WORKER_POLICY);
    expect((await fetch(countUrl ?? '')).headers.get('content-security-policy')).toBe(WORKER_POLICY);
    expect(WORKER_POLICY).toMatch(/default-src 'self';.*connect-src 'self'; frame-ancestors 'none'$/);
  } finally {
    await s.close();
  }
});
