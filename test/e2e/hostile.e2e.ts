// Hostile content (SPEC §6, §10; issue 6 item 3): transcripts generated here (nothing big is committed) whose
// text holds markup, script, event-handler, `javascript:` and markdown links, template syntax, RTL overrides,
// zero-width and tag characters, control characters, deep nesting (inside the parser's limit, and past it),
// a 10 MB single line and huge tool inputs, loaded through the visible file input. A trap on window.__pwned,
// alert/confirm/prompt and dialogs, a MutationObserver over the whole document, a navigation listener, a CSP
// violation listener and the request log prove nothing executes, nothing is injected and nothing is fetched;
// rows, previews and the Monaco detail show the payloads as text; bidi and invisible characters are shown as
// ⟨U+202E⟩-style marks in previews; Chromium's trace shows no main-thread task over 100 ms of CPU while a 10 MB
// line loads (main-thread-cpu.ts; the long-task observer's wall times are logged beside), and j/k still move the
// selection.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/lib/json.ts';
import { openSession, type Session, screenshot, stopServer } from './harness.ts';
import { overCpu, tasksBetween, traceMainThread } from './main-thread-cpu.ts';
import { clickRow, editorText, rowsShown, waitForRun } from './ui.ts';

const dir = mkdtempSync(join(tmpdir(), 'tierscope-hostile-'));
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await stopServer();
});

/** Payloads that would run, inject or mislead if any view rendered content as HTML or trusted it. */
const MARKUP = {
  script: '<script>window.__pwned="script";alert(1)</script>',
  img: `<img src=x onerror="window.__pwned='img';alert(2)">`,
  svg: `<svg onload="window.__pwned='svg'"><circle r="5"/></svg>`,
  iframe: `<iframe src="javascript:parent.__pwned='iframe'"></iframe>`,
  anchor: `<a href="javascript:window.__pwned='anchor'">click me</a>`,
  markdown: `[click me](javascript:window.__pwned='md') ![x](x" onerror="window.__pwned='mdimg')`,
  bareJs: `javascript:window.__pwned='bare';void(0)`,
  template: `{{constructor.constructor('window.__pwned="tpl"')()}} \${window.__pwned='tpl2'}`,
  breakout: `</span></div></textarea><script>window.__pwned='breakout'</script>`,
  style: '<style>body{display:none}</style><link rel="stylesheet" href="https://evil.example/x.css">',
  meta: '<meta http-equiv="refresh" content="0;url=https://evil.example/">',
  base: '<base href="https://evil.example/">',
  form: `<form action="https://evil.example/"><button formaction="javascript:window.__pwned='form'">go</button></form>`,
  object: '<object data="https://evil.example/x.swf"></object><embed src="https://evil.example/y">',
  entity: '&lt;script&gt;window.__pwned=&quot;entity&quot;&lt;/script&gt; &#60;img src=x onerror=alert(3)&#62;',
};
/** Characters that hide or reorder text. */
const INVISIBLE = {
  rtl: 'invoice\u202Egpj.exe',
  isolate: 'name\u2067\u202Bhidden\u2069end',
  zeroWidth: 'pass\u200Bwo\u200Crd\u2060x\uFEFFy',
  tags: `hidden${String.fromCodePoint(0xe0049, 0xe0047, 0xe004e)}tag`,
  control: '\u001b[31mred\u001b[0m\u0007bell',
};
const HOSTILE_COUNT = Object.keys(MARKUP).length + Object.keys(INVISIBLE).length;

const base = { isSidechain: false, userType: 'external', cwd: '/repo', sessionId: 'hostile', version: '2.0.14' };
const MODEL = 'claude-sonnet-4-20250514';

/** Claude Code JSONL from message bodies: each gets a uuid, its parent and a time. */
function claudeCode(items: Record<string, unknown>[]): string {
  let parent: string | null = null;
  return `${items
    .map((o, n) => {
      const uuid = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
      const timestamp = new Date(Date.UTC(2025, 0, 1, 0, 0, n)).toISOString();
      const { detached, ...body } = o;
      const line = JSON.stringify({ parentUuid: parent, ...base, ...body, uuid, timestamp });
      // A detached line (the one past the depth limit) is nobody's parent, so the chain goes on without it.
      if (o.type !== 'summary' && !detached) parent = uuid;
      return line;
    })
    .join('\n')}\n`;
}

const user = (content: unknown) => ({ type: 'user', message: { role: 'user', content } });
const assistant = (n: number, content: unknown[]) => ({
  type: 'assistant',
  requestId: `req_${n}`,
  message: { id: `msg_${n}`, type: 'message', role: 'assistant', model: MODEL, content },
});
const nested = (depth: number): unknown => {
  let v: unknown = 'bottom <script>window.__pwned="deep"</script>';
  for (let i = 0; i < depth; i++) v = { d: v };
  return v;
};

/** Every payload in text, tool names, tool inputs, tool results, the title; deep nesting in and past the limit. */
function hostileSession(): string {
  const all = [...Object.values(MARKUP), ...Object.values(INVISIBLE)];
  return claudeCode([
    { type: 'summary', summary: `${MARKUP.img} ${INVISIBLE.rtl}`, leafUuid: 'x' },
    user(all.map((text) => ({ type: 'text', text }))),
    assistant(1, [
      { type: 'text', text: `${INVISIBLE.rtl} ${MARKUP.anchor}` },
      {
        type: 'tool_use',
        id: 'toolu_1',
        name: `Bash${MARKUP.img}`,
        input: { command: MARKUP.script, why: INVISIBLE.rtl },
      },
    ]),
    user([{ type: 'tool_result', tool_use_id: 'toolu_1', content: `${INVISIBLE.zeroWidth}\n${MARKUP.breakout}` }]),
    // The line adds 7 levels of its own (line → message → content → block → input …): this stays inside.
    assistant(2, [{ type: 'tool_use', id: 'toolu_2', name: 'Read', input: nested(MAX_JSON_DEPTH - 20) }]),
    user([{ type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'text', text: MARKUP.svg }] }]),
    // Past the limit: a parse issue, and the rest of the file still loads.
    {
      ...assistant(3, [{ type: 'tool_use', id: 'toolu_3', name: 'Read', input: nested(MAX_JSON_DEPTH + 50) }]),
      detached: true,
    },
    assistant(4, [{ type: 'text', text: `${INVISIBLE.tags} ${INVISIBLE.control} ${MARKUP.template}` }]),
  ]);
}

type Probe = {
  /** Set once the app has started: the page's own <meta>, <script> and runtime policy are not findings. */
  armed: boolean;
  hits: string[];
  added: string[];
  violations: string[];
  tasks: { start: number; duration: number }[];
};

/** Traps installed before the app runs. */
async function install(page: Page, watchDom: boolean): Promise<void> {
  await page.addInitScript((watch) => {
    const probe: Probe = { armed: false, hits: [], added: [], violations: [], tasks: [] };
    const w = window as unknown as Record<string, unknown>;
    w.__probe = probe;
    Object.defineProperty(window, '__pwned', {
      configurable: false,
      get: () => undefined,
      set: (v: unknown) => probe.hits.push(`__pwned=${String(v)}`),
    });
    for (const k of ['alert', 'confirm', 'prompt', 'print', 'open']) {
      w[k] = (...a: unknown[]) => {
        probe.hits.push(`${k}(${a.map(String).join(',')})`);
        return null;
      };
    }
    document.addEventListener('securitypolicyviolation', (e) =>
      probe.violations.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) probe.tasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
    // Elements the app never creates from content; link/script only from this origin.
    const BAD = new Set([
      'SCRIPT',
      'IMG',
      'IFRAME',
      'FRAME',
      'OBJECT',
      'EMBED',
      'BASE',
      'FORM',
      'AUDIO',
      'VIDEO',
      'META',
    ]);
    const check = (el: Element) => {
      const own = (u: string | null) => !u || new URL(u, location.href).origin === location.origin;
      if (BAD.has(el.tagName) || (el.tagName === 'LINK' && !own(el.getAttribute('href'))))
        probe.added.push(`${el.tagName} ${el.outerHTML.slice(0, 120)}`);
      for (const a of el.attributes)
        if (/^on/i.test(a.name) || /^\s*(javascript|vbscript):/i.test(a.value))
          probe.added.push(`${el.tagName} ${a.name}=${a.value.slice(0, 80)}`);
    };
    if (!watch) return;
    new MutationObserver((muts) => {
      if (!probe.armed) return;
      for (const m of muts)
        for (const n of m.addedNodes)
          if (n instanceof Element) for (const el of [n, ...n.querySelectorAll('*')]) check(el);
    }).observe(document, { childList: true, subtree: true });
  }, watchDom);
}

async function probe(page: Page): Promise<Probe> {
  return page.evaluate(() => (window as unknown as { __probe: Probe }).__probe);
}

/** Every attribute in the document that could run script (a final sweep after everything rendered). */
async function scriptableAttributes(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const el of document.querySelectorAll('*'))
      for (const a of el.attributes)
        if (/^on/i.test(a.name) || /^\s*(javascript|vbscript|data:text\/html)/i.test(a.value))
          out.push(`${el.tagName} ${a.name}`);
    return out;
  });
}

/** A session with the traps; `watchDom` adds the MutationObserver (left out where main-thread time is measured,
 *  where a final sweep of the document stands in for it). */
async function openWithProbe(
  watchDom: boolean,
): Promise<{ s: Session; navigations: string[]; dialogs: string[]; requests: string[] }> {
  const s = await openSession();
  await install(s.page, watchDom);
  const navigations: string[] = [];
  const dialogs: string[] = [];
  const requests: string[] = [];
  s.page.on('framenavigated', (f) => {
    if (f === s.page.mainFrame()) navigations.push(f.url());
  });
  s.page.on('dialog', (d) => {
    dialogs.push(`${d.type()} ${d.message()}`);
    void d.dismiss();
  });
  s.context.on('request', (r) => requests.push(r.url()));
  await s.page.goto(s.baseUrl);
  await s.page.getByTestId('transcript-row').first().waitFor();
  await waitForRun(s.page);
  await s.page.evaluate(() => {
    (window as unknown as { __probe: Probe }).__probe.armed = true;
  });
  return { s, navigations, dialogs, requests };
}

/** Pick a file through the visible input (name and bytes given) and wait for it to load and run. */
async function pick(page: Page, name: string, text: string, shownName: string): Promise<void> {
  const before = Number((await page.getByTestId('summary-bar').getAttribute('data-run-id')) ?? 0);
  await page
    .getByTestId('file-input')
    .setInputFiles({ name, mimeType: 'application/x-ndjson', buffer: Buffer.from(text) });
  await page.waitForFunction(
    (n) => {
      const el = document.querySelector('[data-testid="load-status"]');
      return el?.getAttribute('data-status') === 'ready' && (el.textContent ?? '').includes(n);
    },
    shownName,
    { timeout: 120_000 },
  );
  await waitForRun(page, before);
}

const strip = (s: string) => s.replace(/\s+/g, '');
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this looks for
const RAW_INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF\u0000-\u0008\u001b]|\uDB40[\uDC00-\uDC7F]/;

it(`${HOSTILE_COUNT} hostile payloads in text, tool names, inputs, results and the title stay inert text`, async () => {
  const { s, navigations, dialogs, requests } = await openWithProbe(true);
  try {
    const { page } = s;
    const started = requests.length;
    const name = `${MARKUP.img}report\u202Eslmx.jsonl`;
    await pick(page, name, hostileSession(), 'report⟨U+202E⟩slmx.jsonl');
    await rowsShown(page);

    // Rows and previews: the payloads as text, bidi and invisible characters as visible marks.
    const rows = await page.evaluate(() =>
      [...document.querySelectorAll('[data-testid="transcript-row"]')].map((r) => ({
        index: Number(r.getAttribute('data-message-index')),
        tools: r.querySelector('.c-tools')?.textContent ?? '',
        preview: r.querySelector('.c-preview')?.textContent ?? '',
      })),
    );
    expect(rows.map((r) => r.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(rows[0].preview).toContain(MARKUP.script);
    expect(rows[0].preview).toContain(MARKUP.img);
    expect(rows[1].preview).toContain(MARKUP.anchor);
    expect(rows[1].tools).toBe(`Bash${MARKUP.img}`);
    expect(rows[2].preview).toContain(MARKUP.breakout);
    // (U+FEFF is whitespace to JavaScript: the one-line preview folds it into a space like any other.)
    expect(rows[2].preview).toContain('pass⟨U+200B⟩wo⟨U+200C⟩rd⟨U+2060⟩x y');
    expect(rows[1].preview).toContain('invoice⟨U+202E⟩gpj.exe');
    expect(rows[5].preview).toContain('hidden⟨U+E0049⟩⟨U+E0047⟩⟨U+E004E⟩tag');
    expect(rows[5].preview).toContain('␛[31mred␛[0m␇bell');
    for (const r of rows) expect(RAW_INVISIBLE.test(r.preview + r.tools), `row ${r.index}`).toBe(false);
    const status = (await page.getByTestId('load-status').textContent()) ?? '';
    expect(status).toContain(`${MARKUP.img} invoice⟨U+202E⟩gpj.exe`); // the session title
    expect(RAW_INVISIBLE.test(status)).toBe(false);
    const thread = (await page.getByTestId('thread-item').first().textContent()) ?? '';
    expect(RAW_INVISIBLE.test(thread)).toBe(false);

    // Past the depth limit: a parse issue with its line; inside it: a row like any other.
    const issues = (await page.getByTestId('parse-issues').textContent()) ?? '';
    expect(issues).toMatch(/nested deeper than 512 levels/);
    expect(rows[3].tools).toBe('Read');

    // Detail (Monaco): the raw source as text, marks drawn for bidi overrides, nothing clickable.
    await clickRow(page, 0);
    await page.getByTestId('detail-editor').waitFor();
    await expect
      .poll(async () => strip(await editorText(page, 'detail-editor')))
      .toContain(strip(JSON.stringify(MARKUP.script).slice(1, -1)));
    const editorHtml = await page.getByTestId('detail-editor').evaluate((el) => el.innerHTML);
    expect(editorHtml).not.toMatch(/<(script|img|iframe|svg|object|embed|form|base|meta)\b/i);
    for (const i of [1, 2, 3, 5]) {
      await clickRow(page, i);
      await expect.poll(() => page.getByTestId('detail-header').textContent()).toContain(`#${i}`);
    }
    await page.getByTestId('detail-tab-normalized').click();
    await clickRow(page, 1);
    await expect
      .poll(async () => strip(await editorText(page, 'detail-editor')))
      .toContain(strip(`"name": ${JSON.stringify(`Bash${MARKUP.img}`)}`));

    // j/k still move the selection.
    await page.keyboard.press('j');
    await expect
      .poll(() =>
        page.locator('[data-testid="transcript-row"][aria-selected="true"]').getAttribute('data-message-index'),
      )
      .toBe('2');
    await page.keyboard.press('k');
    await expect
      .poll(() =>
        page.locator('[data-testid="transcript-row"][aria-selected="true"]').getAttribute('data-message-index'),
      )
      .toBe('1');
    await screenshot(page, 'hostile');

    // Nothing ran, nothing was injected, nothing navigated, nothing was fetched but the app's own chunks.
    const p = await probe(page);
    expect(p.hits).toEqual([]);
    expect(dialogs).toEqual([]);
    expect(p.added).toEqual([]);
    expect(p.violations).toEqual([]);
    expect(await scriptableAttributes(page)).toEqual([]);
    // The page's own URL follows the view (the app writes its fragment: the file's name and the selection);
    // nothing else changed it.
    expect([...new Set(navigations.map((u) => u.split('#')[0]))]).toEqual([s.baseUrl]);
    for (const u of navigations) expect(new URL(u).hash).toMatch(/^(#(sample|file)=[^#]*)?$/);
    expect(page.url().split('#')[0]).toBe(s.baseUrl);
    const origin = new URL(s.baseUrl).origin;
    expect(
      requests
        .slice(started)
        .filter((r) => new URL(r).origin !== origin || !new URL(r).pathname.startsWith('/assets/')),
    ).toEqual([]);
    expect(s.externalRequests).toEqual([]);
    expect(s.consoleErrors).toEqual([]);
  } finally {
    await s.close();
  }
});

it('a 10 MB single line and a huge tool input load with no main-thread task over 100 ms of CPU; j/k still work', async () => {
  const ten = 'token '.repeat(Math.ceil((10 * 1024 * 1024) / 6)); // one line, no newline inside
  const huge = {
    file_path: '/repo/big.json',
    content: MARKUP.script.repeat(40_000),
    edits: Array.from({ length: 20_000 }, (_, i) => ({ old: `<b>${i}</b>`, new: `<i onclick="x">${i}</i>` })),
  };
  const text = claudeCode([
    user('Summarise the build log.'),
    assistant(1, [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'cat build.log' } }]),
    user([{ type: 'tool_result', tool_use_id: 'toolu_1', content: ten }]),
    assistant(2, [{ type: 'tool_use', id: 'toolu_2', name: 'Write', input: huge }]),
    user([{ type: 'tool_result', tool_use_id: 'toolu_2', content: 'ok' }]),
    assistant(3, [{ type: 'text', text: 'Done.' }]),
  ]);
  expect(text.length).toBeGreaterThan(10 * 1024 * 1024);
  const file = join(dir, 'ten-mb-line.jsonl');
  writeFileSync(file, text);
  const { s, dialogs } = await openWithProbe(false);
  try {
    const { page } = s;
    const trace = await traceMainThread(page);
    await trace.mark('load');
    const t0 = await page.evaluate(() => performance.now());
    const before = Number((await page.getByTestId('summary-bar').getAttribute('data-run-id')) ?? 0);
    await page.getByTestId('file-input').setInputFiles(file);
    await page.waitForFunction(
      () => {
        const el = document.querySelector('[data-testid="load-status"]');
        return el?.getAttribute('data-status') === 'ready' && (el.textContent ?? '').includes('ten-mb-line.jsonl');
      },
      undefined,
      { timeout: 300_000 },
    );
    await page.waitForFunction(() => !document.querySelector('[data-testid="load-progress"]'), undefined, {
      timeout: 300_000,
    });
    await waitForRun(page, before, 300_000);
    await trace.mark('loaded');
    const t1 = await page.evaluate(() => performance.now());
    const cpu = await trace.stop();
    const wall = (await probe(page)).tasks.filter((t) => t.start >= t0 && t.start < t1);
    console.log(
      `hostile: long tasks (wall, the observer) while loading a 10 MB line: ${JSON.stringify(wall.map((t) => Math.round(t.duration)))}`,
    );
    expect(
      overCpu(tasksBetween(cpu, 'load', 'loaded'), 100),
      'main-thread tasks over 100 ms of CPU (cpu/wall) while loading a 10 MB line',
    ).toEqual([]);

    await rowsShown(page);
    const rows = await page.evaluate(() =>
      [...document.querySelectorAll('[data-testid="transcript-row"]')].map(
        (r) => r.querySelector('.c-preview')?.textContent ?? '',
      ),
    );
    expect(rows).toHaveLength(6);
    expect(rows[2].length).toBeLessThan(200);
    expect(rows[2]).toMatch(/^token token/);
    expect(rows[3]).toContain('<script>window.__pwned=\\"script\\"');

    // j/k move through it, the selected big rows open in the detail.
    await clickRow(page, 0);
    for (const want of ['1', '2', '3']) {
      await page.keyboard.press('j');
      await expect
        .poll(() =>
          page.locator('[data-testid="transcript-row"][aria-selected="true"]').getAttribute('data-message-index'),
        )
        .toBe(want);
    }
    await page.keyboard.press('k');
    await expect
      .poll(() =>
        page.locator('[data-testid="transcript-row"][aria-selected="true"]').getAttribute('data-message-index'),
      )
      .toBe('2');
    await expect.poll(() => page.getByTestId('detail-header').textContent(), { timeout: 120_000 }).toContain('#2');
    await page.getByTestId('detail-editor').waitFor();
    // The source line of row 2 (its parent is row 1) as written in the file (the Raw tab; Monaco wraps the long line
    // anywhere, so whitespace is ignored); the 10 MB string below it is past the editor's fold.
    await expect
      .poll(async () => (await editorText(page, 'detail-editor')).replace(/\s+/g, ''), { timeout: 120_000 })
      .toContain('"parentUuid":"00000000-0000-4000-8000-000000000001"');
    await page.keyboard.press('j');
    await expect
      .poll(() =>
        page.locator('[data-testid="transcript-row"][aria-selected="true"]').getAttribute('data-message-index'),
      )
      .toBe('3');
    await expect
      .poll(async () => (await editorText(page, 'detail-editor')).replace(/\s+/g, ''), { timeout: 120_000 })
      .toContain('"parentUuid":"00000000-0000-4000-8000-000000000002"');
    const all = (await probe(page)).tasks.filter((t) => t.start >= t1).map((t) => Math.round(t.duration));
    console.log(`hostile: tasks after loading (detail of the 10 MB line and the huge input): ${JSON.stringify(all)}`);

    const p = await probe(page);
    expect(p.hits).toEqual([]);
    expect(await scriptableAttributes(page)).toEqual([]);
    expect(dialogs).toEqual([]);
    expect(s.externalRequests).toEqual([]);
    expect(s.consoleErrors).toEqual([]);
  } finally {
    await s.close();
  }
});
