// The detail pane: selecting a row shows who/what/tokens and, for each tool result, what happened to it
// (the CLI's tier, first-touch request and distance), the raw source JSON in Monaco (Normalized on its
// tab), the rewrite events touching the message, and a click on one opens Monaco's diff editor with the
// engine's before/after. Editors are disposed when their tab closes; whole-document formats fall back.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { presetConfig } from '../../src/pipeline/presets.ts';
import type { RunResult } from '../../worker/api.ts';
import { createEngine } from '../../worker/create-engine.ts';
import { describeReal } from '../helpers/fixtures.ts';
import { type Session, stopServer } from './harness.ts';
import { clickRow, cliReport, editorText, loadFiles, openApp, realPath, setConfig, showThread } from './ui.ts';

const FE = 'claude-code/ccviewer-fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl';
const BIG = 'sidechain:f4ab2bf6-d642-431a-85cb-66691f24c404';
const SET = { contextWindow: 30_000, outputReserve: 2000, tier3Window: 8 };

describeReal('detail pane', () => {
  let s: Session;
  beforeAll(async () => {
    s = await openApp();
    await loadFiles(s.page, [realPath(FE)]);
    // Each file opens with its own defaults: settings go on after the load.
    await setConfig(s.page, SET);
    await showThread(s.page, BIG);
  });
  afterAll(async () => {
    await s?.close();
    await stopServer();
  });

  it('shows a tool result’s fate as the CLI reports it, and its raw source in Monaco', async () => {
    const report = await cliReport(realPath(FE), SET);
    const r = report.toolResults.find((x) => x.thread === BIG && x.tier === 2 && x.firstTouchRequest !== null);
    if (!r) throw new Error('no tier-2 result in the fixture');
    await clickRow(s.page, r.messageIndex);
    const head = s.page.getByTestId('detail-header');
    await expect.poll(() => head.textContent()).toContain(`#${r.messageIndex}`);
    const fate = head.locator(`[data-testid="result-fate"][data-tool-use-id="${r.toolUseId}"]`);
    await expect.poll(() => fate.getAttribute('data-tier')).toBe('2');
    const text = (await fate.textContent()) ?? '';
    expect(text).toContain(`tier 2 (compressed) at request ${r.firstTouchRequest}`);
    expect(text).toContain(`distance ${r.distanceAtFirstTouch}`);
    await s.page.getByTestId('detail-editor').waitFor();
    // the raw view is the message's source line as written in the file (Monaco wraps it anywhere: whitespace ignored)
    const line = Number(/line (\d+)/.exec((await head.textContent()) ?? '')?.[1]);
    const source = readFileSync(realPath(FE), 'utf8').split('\n')[line - 1];
    expect(JSON.parse(source).message.content[0].tool_use_id).toBe(r.toolUseId);
    await expect
      .poll(async () => (await editorText(s.page, 'detail-editor')).replace(/\s+/g, ''))
      .toContain(source.slice(0, 300).replace(/\s+/g, ''));
    await s.page.getByTestId('detail-tab-normalized').click();
    await expect.poll(() => editorText(s.page, 'detail-editor')).toContain('"blocks"');
    await s.page.getByTestId('detail-tab-raw').click();
  });

  it('opens the before/after of a rewrite in the diff editor, and disposes it on leaving', async () => {
    const events = s.page.getByTestId('rewrite-event');
    const first = events.first();
    await first.waitFor();
    const what = (await first.locator('.ev-what').textContent()) ?? '';
    await first.click();
    await s.page.getByTestId('diff-editor').waitFor();
    await expect.poll(() => s.page.getByTestId('detail-tab-diff').getAttribute('aria-selected')).toBe('true');

    // the same event computed by the engine in this process
    const engine = createEngine();
    const bytes = readFileSync(realPath(FE));
    await engine.load(
      [{ name: 'f.jsonl', buffer: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) }],
      undefined,
    );
    const run = (await engine.run(1, {
      preset: 'seeds',
      config: { ...presetConfig('seeds'), ...SET },
      mode: 'recorded',
      provider: 'anthropic',
      encoding: 'o200k_base',
    })) as RunResult;
    const id = Number(await first.getAttribute('data-event-id'));
    const ev = (await engine.eventRows(run.runId, [id]))?.[0];
    if (!ev) throw new Error(`no event ${id}`);
    expect(what).toContain(`${ev.stage} · ${ev.action}`);
    const diff = await engine.diff(id);
    if (!diff) throw new Error('no diff');
    await expect.poll(() => s.page.locator('.tab-note').textContent()).toBe(diff.title);
    const snippet = diff.after.split('\n')[0].slice(0, 24).replace(/\s+/g, ' ').trim();
    await expect.poll(() => editorText(s.page, 'diff-editor')).toContain(snippet);

    await s.page.getByTestId('detail-tab-raw').click();
    await expect.poll(() => s.page.locator('.monaco-diff-editor').count()).toBe(0);
    await first.click();
    await s.page.getByTestId('diff-editor').waitFor();
    await s.page.keyboard.press('Escape');
    await s.page.getByTestId('detail-editor').waitFor();
    await expect.poll(() => s.page.locator('.monaco-diff-editor').count()).toBe(0);
    await expect.poll(() => s.page.locator('.editor-wrap .monaco-editor').count()).toBe(1);
    expect(s.consoleErrors).toEqual([]);
  });

  it('falls back to the normalized message for whole-document formats', async () => {
    await loadFiles(s.page, [realPath('inspect/inspect-browser-gpt4o-mini.json')]);
    expect(await s.page.getByTestId('detail-header').count()).toBe(0);
    await clickRow(s.page, 2);
    await s.page.getByTestId('detail-editor').waitFor();
    await expect.poll(() => s.page.locator('.tab-note').textContent()).toMatch(/no line-based source/);
    await expect.poll(() => editorText(s.page, 'detail-editor')).toContain('"blocks"');
    expect(s.consoleErrors).toEqual([]);
    expect(s.externalRequests).toEqual([]);
  });
});
