import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCapture } from '../helpers/cli.ts';

const run = runCapture;

describe('tierscope CLI exit codes and messages', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tierscope-cli-'));

  it('exit 2 with a one-line reason for a missing file', async () => {
    const r = await run(['analyze', join(dir, 'missing.jsonl')]);
    expect(r.code).toBe(2);
    expect(r.err.split('\n')[0]).toMatch(/^tierscope: no such file/);
  });

  it('exit 2 for unknown commands, options and formats', async () => {
    expect((await run(['frobnicate'])).code).toBe(2);
    expect((await run(['analyze', 'x', '--nope'])).err).toMatch(/unknown option --nope/);
    const f = join(dir, 'a.jsonl');
    writeFileSync(f, '{"a":1}\n');
    expect((await run(['analyze', f, '--format', 'bogus'])).err).toMatch(/unknown format "bogus"/);
  });

  it('exit 2 for unusable input, naming the formats tried', async () => {
    const f = join(dir, 'empty.jsonl');
    writeFileSync(f, '');
    const r = await run(['analyze', f]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/empty/);
  });

  it('--help prints usage and exits 0', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(0);
    expect(r.out.startsWith('usage: tierscope [<file> | <dir>…] [--port N] [--open]')).toBe(true);
    expect(r.out).toContain('\n       tierscope analyze <file>');
  });
});
