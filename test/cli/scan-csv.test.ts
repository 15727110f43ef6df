// `scan --csv` guards every text cell a spreadsheet would run as a formula (issue 29, item 10): the list cells
// (`models`, `unpricedModels`, joined by `;`) were written raw, so a model named `=2+3+cmd|…` ran in the sheet.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCapture } from '../helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'tierscope-scan-csv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MODEL = "=2+3+cmd|' /C calc'!A0";

describe('scan --csv', () => {
  it('prefixes a formula in any text cell, list cells included', async () => {
    mkdirSync(join(dir, 'p'));
    const base = { isSidechain: false, userType: 'external', cwd: '/w', sessionId: 's1', version: '2.0.14' };
    const lines = [
      {
        ...base,
        type: 'user',
        uuid: 'u1',
        parentUuid: null,
        timestamp: '2025-05-01T10:00:00.000Z',
        message: { role: 'user', content: '-A1+1 go' },
      },
      {
        ...base,
        type: 'assistant',
        uuid: 'a1',
        parentUuid: 'u1',
        timestamp: '2025-05-01T10:00:05.000Z',
        requestId: 'r1',
        message: {
          id: 'm1',
          role: 'assistant',
          model: MODEL,
          content: [{ type: 'text', text: 'ok' }],
          usage: { input_tokens: 10, output_tokens: 5 },
        },
      },
    ];
    writeFileSync(join(dir, 'p', 's1.jsonl'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const r = await runCapture(['scan', dir, '--csv']);
    expect(r.code).toBe(0);
    const [head, row] = r.out.split('\n');
    const cells = row.match(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)?.map((c) => c.replace(/,$/, '')) ?? [];
    const cell = (name: string) => cells[head.split(',').indexOf(name)];
    expect(cell('models')).toBe(`'${MODEL}`);
    expect(cell('unpricedModels')).toBe(`'${MODEL}`);
    // No cell of the row starts a formula once unquoted.
    for (const c of cells) expect(c.replace(/^"/, '')).not.toMatch(/^[=+\-@\t\r]/);
  });
});
