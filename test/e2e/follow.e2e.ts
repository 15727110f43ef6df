// `tierscope serve` on a temporary folder, the app opened at the URL it prints: the folder's session is listed,
// opened, and followed while this test appends to it — a request written in one go, then one written in two
// halves (the first half waits for its end). New requests appear (read once a second), the selected row stays selected,
// the live badge says when the last line arrived (paused while the tab is hidden), the document carried the app's
// security headers, a session opened with `?src=` or from the directory picker is followed the same way, and so
// are a session's sub-agent files, one started after it was opened included.
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Serving, startServe } from '../../src/cli/serve.ts';
import { DOCUMENT_POLICY } from '../../src/lib/csp.ts';
import { builtApp, openSession, type Session, screenshot, stopServer } from './harness.ts';
import { clickRow, counted } from './ui.ts';

const SESSION = 'f0110w00-0000-4000-8000-000000000001';

/** One user prompt and the assistant's answer with usage: one request of a Claude Code session (of its sub-agent
 *  `agent` when one is named). */
function turn(k: number, agent?: string): string {
  const t = (s: number) => new Date(Date.UTC(2026, 0, 5, 10, 0, k * 10 + s)).toISOString();
  const p = agent ? `${agent}-` : '';
  const side = agent ? { isSidechain: true, agentId: agent } : {};
  const user = {
    type: 'user',
    uuid: `${p}u${k}`,
    parentUuid: k === 0 ? null : `${p}a${k - 1}`,
    sessionId: SESSION,
    ...side,
    timestamp: t(0),
    message: { role: 'user', content: `step ${k}: count the files` },
  };
  const assistant = {
    type: 'assistant',
    uuid: `${p}a${k}`,
    parentUuid: `${p}u${k}`,
    sessionId: SESSION,
    ...side,
    timestamp: t(5),
    requestId: `${p}req_${k}`,
    message: {
      id: `${p}msg_${k}`,
      role: 'assistant',
      model: 'claude-sonnet-4-5-20250929',
      content: [{ type: 'text', text: `There are ${k + 3} files.` }],
      usage: {
        input_tokens: 20,
        cache_read_input_tokens: 1000 * k,
        cache_creation_input_tokens: 500,
        output_tokens: 8,
      },
    },
  };
  return `${JSON.stringify(user)}\n${JSON.stringify(assistant)}\n`;
}

/** Wait until the load status counts `n` requests (the follower read them). */
async function requestsShown(s: Session, n: number): Promise<void> {
  const want = counted(n, 'request');
  await s.page.waitForFunction(
    (w) => (document.querySelector('[data-testid="load-status"]')?.textContent ?? '').includes(w),
    want,
    { polling: 50 },
  );
}

/** Wait until the follower holds the start of a line whose end has not arrived (it read the half line). */
async function halfLineHeld(s: Session): Promise<void> {
  await expect
    .poll(async () => Number(await s.page.getByTestId('live-badge').getAttribute('data-waiting')))
    .toBeGreaterThan(0);
}

describe('following a session that tierscope serve serves', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tierscope-follow-'));
  const project = join(dir, '-home-me-work');
  const file = join(project, `${SESSION}.jsonl`);
  let serve: Serving;
  let s: Session;
  const documentPolicies: string[] = [];

  beforeAll(async () => {
    mkdirSync(project);
    writeFileSync(file, turn(0) + turn(1));
    serve = await startServe(dir, await builtApp(), 0);
    s = await openSession();
    s.page.on('response', (r) => {
      if (r.request().resourceType() === 'document')
        documentPolicies.push(r.headers()['content-security-policy'] ?? '');
    });
    await s.page.goto(serve.url);
    await s.page.locator(`[data-testid="session-row"][data-path="-home-me-work/${SESSION}.jsonl"]`).click();
    await s.page.waitForFunction(
      () => (document.querySelector('[data-testid="load-status"]')?.textContent ?? '').includes('2 requests'),
      undefined,
      { timeout: 120_000 },
    );
  }, 180_000);
  afterAll(async () => {
    await s?.close();
    await serve?.close();
    await stopServer();
    rmSync(dir, { recursive: true, force: true });
  });

  it('opens the served session from the sessions table, with the security headers', async () => {
    expect(documentPolicies[0]).toBe(DOCUMENT_POLICY);
    await expect.poll(() => s.page.getByTestId('live-badge').getAttribute('data-state')).toBe('live');
  });

  it('shows appended requests and keeps the selection', async () => {
    await clickRow(s.page, 1);
    const selected = s.page.locator('[data-testid="transcript-row"][data-message-index="1"]');
    await expect.poll(() => selected.getAttribute('aria-selected')).toBe('true');
    appendFileSync(file, turn(2));
    await requestsShown(s, 3);
    await expect.poll(() => selected.getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => s.page.getByTestId('live-badge').getAttribute('data-last-line')).not.toBeNull();
  });

  it('waits for the end of a line written in two halves', async () => {
    const next = turn(3);
    const cut = next.length - 40; // inside the assistant line
    appendFileSync(file, next.slice(0, cut));
    await halfLineHeld(s);
    expect((await s.page.getByTestId('load-status').textContent()) ?? '').toContain(counted(3, 'request'));
    expect(await s.page.getByTestId('parse-issues').count()).toBe(0);
    appendFileSync(file, next.slice(cut));
    await requestsShown(s, 4);
    await screenshot(s.page, 'follow-live');
    expect(s.consoleErrors).toEqual([]);
    expect(s.externalRequests).toEqual([]);
  });

  it('pauses while the tab is hidden and resumes when it is shown', async () => {
    const set = (hidden: boolean) =>
      s.page.evaluate((h) => {
        Object.defineProperty(document, 'visibilityState', {
          configurable: true,
          get: () => (h ? 'hidden' : 'visible'),
        });
        document.dispatchEvent(new Event('visibilitychange'));
      }, hidden);
    await set(true);
    await expect.poll(() => s.page.getByTestId('live-badge').getAttribute('data-state')).toBe('paused');
    appendFileSync(file, turn(4));
    // Nothing may be read while hidden: an observation window of two poll periods (a busy machine can only make
    // it read less, so this never fails for lack of time; what must happen is waited for on its state below).
    await s.page.waitForTimeout(2000);
    expect((await s.page.getByTestId('load-status').textContent()) ?? '').toContain(counted(4, 'request'));
    await set(false);
    await requestsShown(s, 5);
    await expect.poll(() => s.page.getByTestId('live-badge').getAttribute('data-state')).toBe('live');
  });

  it('follows a session opened with ?src= as well', async () => {
    const src = `/_folder/file/-home-me-work/${SESSION}.jsonl`;
    await s.page.goto(`${new URL(serve.url).origin}/?src=${encodeURIComponent(src)}`);
    await s.page.waitForFunction(
      () => (document.querySelector('[data-testid="load-status"]')?.textContent ?? '').includes('5 requests'),
      undefined,
      { timeout: 120_000 },
    );
    await expect.poll(() => s.page.getByTestId('live-badge').getAttribute('data-state')).toBe('live');
    appendFileSync(file, turn(5));
    await requestsShown(s, 6);
    expect(s.consoleErrors).toEqual([]);
  });

  it('follows the sub-agent files of a session opened from the table, new ones too', async () => {
    const subagents = join(project, SESSION, 'subagents');
    mkdirSync(subagents, { recursive: true });
    const agent = join(subagents, 'agent-a1.jsonl');
    writeFileSync(agent, turn(0, 'a1'));
    await s.page.goto(serve.url);
    await s.page.locator(`[data-testid="session-row"][data-path="-home-me-work/${SESSION}.jsonl"]`).click();
    await s.page.waitForFunction(
      () => (document.querySelector('[data-testid="load-status"]')?.textContent ?? '').includes('7 requests'),
      undefined,
      { timeout: 120_000 },
    );
    const next = turn(1, 'a1');
    appendFileSync(agent, next.slice(0, 30)); // half a line: waits
    await halfLineHeld(s);
    expect((await s.page.getByTestId('load-status').textContent()) ?? '').toContain(counted(7, 'request'));
    appendFileSync(agent, next.slice(30));
    await requestsShown(s, 8);
    appendFileSync(file, turn(6));
    await requestsShown(s, 9);
    // A sub-agent started after the session was opened: found within a few seconds (a listing every 3 polls).
    writeFileSync(join(subagents, 'agent-a2.jsonl'), turn(0, 'a2'));
    await requestsShown(s, 10);
    expect(s.consoleErrors).toEqual([]);
  });

  it('follows a session opened from the directory picker, through its file handles', async () => {
    const picked = join(dir, '-home-me-picked');
    mkdirSync(picked);
    const session = join(picked, `${SESSION}.jsonl`);
    writeFileSync(session, turn(0) + turn(1));
    // The picker stands in for the person choosing the served folder: handles whose getFile reads the file as it
    // is now (through the server), folders listed afresh each time, as the browser's handles behave.
    await s.page.evaluate(() => {
      type Handle = { kind: 'file' | 'directory'; name: string };
      const fileHandle = (path: string, name: string) => ({
        kind: 'file' as const,
        name,
        getFile: async () => {
          const url = `/_folder/file/${path.split('/').map(encodeURIComponent).join('/')}`;
          return new File([await (await fetch(url, { cache: 'no-store' })).arrayBuffer()], name);
        },
      });
      const dirHandle = (prefix: string, name: string): Handle & { values(): AsyncIterable<Handle> } => ({
        kind: 'directory',
        name,
        async *values() {
          const listing = (await (await fetch('/_folder/list', { cache: 'no-store' })).json()) as {
            files: { path: string }[];
          };
          const seen = new Set<string>();
          for (const f of listing.files) {
            if (prefix && !f.path.startsWith(`${prefix}/`)) continue;
            const [head, ...rest] = (prefix ? f.path.slice(prefix.length + 1) : f.path).split('/');
            if (seen.has(head)) continue;
            seen.add(head);
            const path = prefix ? `${prefix}/${head}` : head;
            yield rest.length > 0 ? dirHandle(path, head) : fileHandle(path, head);
          }
        },
      });
      (window as unknown as { showDirectoryPicker: () => Promise<unknown> }).showDirectoryPicker = async () =>
        dirHandle('', 'projects');
    });
    await s.page.getByTestId('open-folder').click();
    await s.page.locator(`[data-testid="session-row"][data-path="-home-me-picked/${SESSION}.jsonl"]`).click();
    await s.page.waitForFunction(
      () => (document.querySelector('[data-testid="load-status"]')?.textContent ?? '').includes('2 requests'),
      undefined,
      { timeout: 120_000 },
    );
    await expect.poll(() => s.page.getByTestId('live-badge').getAttribute('data-state')).toBe('live');
    appendFileSync(session, turn(2));
    await requestsShown(s, 3);
    // A sub-agent file that appears later is found through the session's folder handle.
    mkdirSync(join(picked, SESSION, 'subagents'), { recursive: true });
    writeFileSync(join(picked, SESSION, 'subagents', 'agent-p1.jsonl'), turn(0, 'p1'));
    await requestsShown(s, 4);
    expect(s.consoleErrors).toEqual([]);
  });
});
