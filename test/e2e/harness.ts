// End-to-end harness: build the app once per test file into a private temp dir (so concurrent e2e runs
// never overwrite each other's files; E2E_SKIP_BUILD=1 serves an existing dist/ instead), serve it with
// `vite preview` on an ephemeral loopback port, and drive Debian's Chromium (playwright-core, fresh
// profile, hard offline). Every non-loopback request is aborted and recorded, console errors and page
// errors are collected, and tests assert both lists stay empty.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { build, type PreviewServer, preview } from 'vite';

export const ROOT = resolve(import.meta.dirname, '../..');
export const ARTIFACTS = join(ROOT, 'e2e-artifacts');
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost',
];

export type Session = {
  context: BrowserContext;
  /** The fresh profile folder: its browser's processes name it (see chromium-memory.ts). */
  profileDir: string;
  page: Page;
  baseUrl: string;
  consoleErrors: string[];
  externalRequests: string[];
  failedRequests: string[];
  close: () => Promise<void>;
};

let server: PreviewServer | undefined;
let baseUrl = '';
let outDir: string | undefined;
let servedDir: string | undefined;

/** The folder the preview server serves (a test may add files to it, to open them with `?src=`). */
export function servedFolder(): string {
  if (!servedDir) throw new Error('the server is not started');
  return servedDir;
}

/** Build the app (once per test file) and return the folder it is in. */
export async function builtApp(): Promise<string> {
  if (outDir) return outDir;
  let dist = join(ROOT, 'dist');
  if (!(process.env.E2E_SKIP_BUILD === '1' && existsSync(join(dist, 'index.html')))) {
    outDir = mkdtempSync(join(tmpdir(), 'tierscope-e2e-dist-'));
    dist = outDir;
    // vitest sets NODE_ENV=test, which would bundle React's development build: test what users get.
    const env = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      const minify = process.env.E2E_NO_MINIFY === '1' ? false : undefined; // readable profiles when debugging
      await build({
        root: ROOT,
        mode: 'production',
        logLevel: 'warn',
        build: { outDir: dist, emptyOutDir: true, minify },
      });
    } finally {
      process.env.NODE_ENV = env;
    }
  }
  return dist;
}

/** Build (once) and start the preview server; returns its base URL. */
export async function startServer(): Promise<string> {
  if (server) return baseUrl;
  const dist = await builtApp();
  servedDir = dist;
  server = await preview({
    root: ROOT,
    logLevel: 'warn',
    build: { outDir: dist },
    preview: { host: '127.0.0.1', port: 0, strictPort: false },
  });
  const addr = server.httpServer.address();
  const port = typeof addr === 'object' && addr ? addr.port : 4173;
  baseUrl = `http://127.0.0.1:${port}/`;
  return baseUrl;
}

export async function stopServer(): Promise<void> {
  await new Promise<void>((r) => (server ? server.httpServer.close(() => r()) : r()));
  server = undefined;
  if (outDir) rmSync(outDir, { recursive: true, force: true });
  outDir = undefined;
}

type BrowserOptions = { colorScheme?: 'light' | 'dark'; width?: number; height?: number; args?: string[] };

/** A fresh Chromium profile on the built app (served by `startServer`), with the offline guard and collectors. */
export async function openSession(opts: BrowserOptions = {}): Promise<Session> {
  return openBrowser(await startServer(), opts);
}

/** A fresh Chromium profile for a server at `url` started some other way (`npm start`, `npx tierscope`), with
 *  the offline guard and the error collectors installed. */
export async function openBrowser(url: string, opts: BrowserOptions = {}): Promise<Session> {
  const dir = mkdtempSync(join(tmpdir(), 'tierscope-chromium-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    chromiumSandbox: false,
    args: [...ARGS, ...(opts.args ?? [])],
    viewport: { width: opts.width ?? 1440, height: opts.height ?? 900 },
    colorScheme: opts.colorScheme ?? 'light',
    timeout: 120_000,
  });
  // Every wait on state (waitFor, waitForFunction, auto-waiting actions, navigation) may take this long on a busy
  // machine before it fails: a cap, never a pause.
  context.setDefaultTimeout(120_000);
  const consoleErrors: string[] = [];
  const externalRequests: string[] = [];
  const failedRequests: string[] = [];
  await context.route('**/*', (route) => {
    const u = new URL(route.request().url());
    if (u.protocol === 'data:' || u.protocol === 'blob:' || u.hostname === '127.0.0.1' || u.hostname === 'localhost')
      return route.continue();
    externalRequests.push(route.request().url());
    return route.abort();
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => failedRequests.push(`${r.url()} ${r.failure()?.errorText ?? ''}`));
  return {
    context,
    profileDir: dir,
    page,
    baseUrl: url,
    consoleErrors,
    externalRequests,
    failedRequests,
    close: async () => {
      await context.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const p = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: p });
  return p;
}
