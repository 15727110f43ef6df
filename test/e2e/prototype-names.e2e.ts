// Names that are Object.prototype members in the UI (issue 19, item 6): a bundle whose side thread is called
// `__proto__` and whose tools are `constructor` and `hasOwnProperty` loads, its `__proto__` thread shows its
// rows (the page does not blank: the file input stays), and a share link pointing at that thread opens, and
// opens again after a reload.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { fileFromText, parseTranscript } from '../../src/formats/index.ts';
import { exportBundle } from '../../src/formats/tierscope.ts';
import { presetConfig } from '../../src/pipeline/presets.ts';
import { encodeShare } from '../../src/share/codec.ts';
import { DEFAULT_VIEW } from '../../src/share/view.ts';
import { openSession, stopServer } from './harness.ts';
import { loadFiles, rowsShown, showThread, waitForRun } from './ui.ts';

const dir = mkdtempSync(join(tmpdir(), 'tierscope-proto-e2e-'));
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await stopServer();
});

function bundle() {
  const s = { sessionId: 's', version: '1.0.98', cwd: '/w' };
  const use = (id: string, name: string) => ({ type: 'tool_use', id, name, input: JSON.parse('{"__proto__":"x"}') });
  const lines = [
    { ...s, type: 'user', uuid: 'a', parentUuid: null, message: { role: 'user', content: 'go' } },
    {
      ...s,
      type: 'assistant',
      uuid: 'b',
      parentUuid: 'a',
      requestId: 'r1',
      message: {
        id: 'm1',
        role: 'assistant',
        model: 'claude-sonnet-4-20250514',
        content: [use('constructor', 'constructor'), use('toString', 'hasOwnProperty')],
        usage: { input_tokens: 10, output_tokens: 5 },
      },
    },
    {
      ...s,
      type: 'user',
      uuid: 'c',
      parentUuid: 'b',
      message: {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'constructor', content: 'one' },
          { type: 'tool_result', tool_use_id: 'toString', content: 'two' },
        ],
      },
    },
    {
      ...s,
      type: 'user',
      uuid: 'd',
      parentUuid: null,
      isSidechain: true,
      message: { role: 'user', content: 'sub task' },
    },
  ];
  const r = parseTranscript(fileFromText('x.jsonl', lines.map((l) => JSON.stringify(l)).join('\n')));
  if (!r.ok) throw new Error(r.error);
  const t = r.transcript;
  const side = t.threads.find((x) => x.kind === 'sidechain');
  if (!side) throw new Error('no side thread');
  side.id = '__proto__';
  for (const q of side.requests) q.thread = '__proto__';
  return t;
}

it('a __proto__ thread id and constructor tool names: rows show, the page stays, a link to it reopens', async () => {
  const t = bundle();
  const file = join(dir, 'proto.tierscope.json');
  writeFileSync(file, exportBundle(t));
  const s = await openSession();
  try {
    const { page } = s;
    await page.goto(s.baseUrl);
    await page.getByTestId('transcript-row').first().waitFor();
    await waitForRun(page);
    await loadFiles(page, [file]);
    await rowsShown(page);
    expect(await page.getByTestId('transcript-row').count()).toBe(3);
    await showThread(page, '__proto__');
    await page.getByTestId('transcript-row').first().waitFor();
    expect(await page.getByTestId('transcript-row').count()).toBe(1);
    expect(await page.getByTestId('file-input').count()).toBe(1);
    const link = await encodeShare({
      preset: 'seeds',
      config: presetConfig('seeds'),
      mode: 'recorded',
      provider: 'anthropic',
      encoding: 'o200k_base',
      view: { ...DEFAULT_VIEW, thread: '__proto__', selection: 0 },
      source: { kind: 'transcript', transcript: t },
    });
    for (let k = 0; k < 2; k++) {
      if (k === 0) await page.goto(`${s.baseUrl}#s=${link}`);
      else await page.reload();
      await rowsShown(page, '__proto__');
      await page.getByTestId('transcript-row').first().waitFor();
      expect(await page.getByTestId('transcript-row').count()).toBe(1);
      expect(await page.getByTestId('file-input').count()).toBe(1);
    }
    expect(s.consoleErrors).toEqual([]);
  } finally {
    await s.close();
  }
});
