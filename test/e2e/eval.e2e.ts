// Inspect `.eval` logs (zip archives) in real Chromium: given to the file input or dropped on the window, the
// archive is read in the engine worker, load-status names the format with the CLI's counts, the thread switcher
// lists every sample, and the rows render; a zip that is not an Inspect log is refused with its own message.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeEach, expect, it } from 'vitest';
import { fileFromPath } from '../../src/cli/node-input.ts';
import { parseTranscript } from '../../src/formats/index.ts';
import { describeWild, wildPath } from '../helpers/fixtures.ts';
import { makeZip } from '../helpers/zip.ts';
import { type Session, screenshot } from './harness.ts';
import {
  appSession,
  clickRow,
  cliReport,
  expectLoadStatus,
  loadFiles,
  runId,
  showThread,
  waitForRun,
  walkRows,
} from './ui.ts';

const POPULARITY = 'inspect/inspectai-2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval';
const DEDUP = 'inspect/inspectai-log_message_deduplication.eval';

/** Drop bytes on the window as a file, the way a person drags one in. */
async function dropBytes(page: Page, bytes: Uint8Array, name: string): Promise<void> {
  await page.evaluate(
    ({ data, name }) => {
      const raw = atob(data);
      const buf = Uint8Array.from(raw, (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([buf], name));
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    },
    { data: Buffer.from(bytes).toString('base64'), name },
  );
}

async function expectStatus(page: Page, path: string): Promise<void> {
  await expectLoadStatus(page, await cliReport(path));
  expect(await page.getByTestId('load-format').textContent()).toMatch(/^inspect \d$/);
}

async function threadIds(page: Page): Promise<string[]> {
  return page.getByTestId('thread-item').evaluateAll((els) => els.map((e) => e.getAttribute('data-thread-id') ?? ''));
}

describeWild('Inspect .eval logs in the browser', () => {
  const session = appSession();
  let s: Session;
  beforeEach(() => {
    s = session();
  });

  it('an .eval given to the file input shows its ten samples in the thread switcher', async () => {
    await loadFiles(s.page, [wildPath(POPULARITY)]);
    await expectStatus(s.page, wildPath(POPULARITY));
    expect(await threadIds(s.page)).toEqual(Array.from({ length: 10 }, (_, i) => `sample-${i + 1}-1`));
    const names = await s.page.getByTestId('thread-item').allTextContents();
    expect(names[0]).toContain('Sample 1 (epoch 1)');
    await showThread(s.page, 'sample-7-1');
    const seen = await walkRows(s.page);
    expect(seen.rows).toEqual([0, 1, 2]);
    expect(Object.values(seen.roles)).toEqual(['system', 'user', 'assistant']);
    await screenshot(s.page, 'eval-popularity');
    expect(s.consoleErrors).toEqual([]);
    expect(s.externalRequests).toEqual([]);
  });

  it('an .eval dropped on the window loads: pooled inputs, tool calls and all 12 rows', async () => {
    const before = await runId(s.page);
    await dropBytes(s.page, new Uint8Array(readFileSync(wildPath(DEDUP))), 'dropped.eval');
    await s.page.waitForFunction(() =>
      (document.querySelector('[data-testid="load-status"]')?.textContent ?? '').includes('dropped.eval'),
    );
    await waitForRun(s.page, before);
    await expectStatus(s.page, wildPath(DEDUP));
    expect(await threadIds(s.page)).toEqual(['sample-0-1']);
    const t = parseTranscript(fileFromPath(wildPath(DEDUP)));
    if (!t.ok) throw new Error(t.error);
    const seen = await walkRows(s.page);
    expect(seen.rows).toEqual(t.transcript.threads[0].messages.map((m) => m.index));
    // The detail pane names where a message sits in the archive: its entry and JSON path.
    await clickRow(s.page, 2);
    await s.page.locator('.tab-note', { hasText: 'samples/0_epoch_1.json:messages[2]' }).waitFor();
    await screenshot(s.page, 'eval-dedup');
    expect(s.consoleErrors).toEqual([]);
  });

  it('a zip that is not an Inspect log is refused, naming its entries', async () => {
    const zip = makeZip([['word/document.xml', new TextEncoder().encode('<w/>')]]);
    await dropBytes(s.page, zip, 'notes.docx');
    // The log loaded before stays on screen; the note beside it names the archive's entries.
    const error = s.page.getByTestId('load-failure');
    await error.waitFor();
    expect(await error.textContent()).toContain(
      'notes.docx is a zip archive, but not an Inspect AI eval log: its first entries are word/document.xml',
    );
    expect(s.consoleErrors).toEqual([]);
  });
});
