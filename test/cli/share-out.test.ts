// The CLI writes a redacted share file (issue 29, item 14): `share --redact` over 2 MB told the user to download a
// `.tierscope.json`, but the CLI wrote one only through `minimize --out`, which was unredacted (`--redact` refused).
// Now the 2 MB message points to `share --out`, which writes the same share (redacted when asked) as a file that
// loads, and `minimize --redact --out` redacts too.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileFromText, parseTranscript } from '../../src/formats/index.ts';
import { runCapture } from '../helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'tierscope-share-out-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SECRET = 'hunter2-correct-horse';

/** A Claude Code session with `bytes` of incompressible text in a tool result and a password in a tool call. */
function session(bytes: number): string {
  let x = 12345;
  let noise = '';
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  while (noise.length < bytes) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    noise += alphabet[x % alphabet.length];
  }
  const base = { isSidechain: false, userType: 'external', cwd: '/w', sessionId: 's', version: '2.0.14' };
  const lines = [
    { ...base, type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'log in' } },
    {
      ...base,
      type: 'assistant',
      uuid: 'u2',
      parentUuid: 'u1',
      requestId: 'r1',
      message: {
        id: 'm1',
        role: 'assistant',
        model: 'claude-sonnet-4-20250514',
        content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: `login --password ${SECRET}` } }],
        usage: { input_tokens: 10, output_tokens: 5 },
      },
    },
    {
      ...base,
      type: 'user',
      uuid: 'u3',
      parentUuid: 'u2',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: noise }] },
    },
  ];
  return `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
}

describe('share --out', () => {
  it('over 2 MB, the message points to --out, which writes the redacted share as a file that loads', {
    timeout: 300_000,
  }, async () => {
    const path = join(dir, 'big.jsonl');
    writeFileSync(path, session(2_400_000));
    const link = await runCapture(['share', path, '--redact']);
    expect(link.code).toBe(0);
    expect(link.err).toMatch(/over the 2 MB browsers accept: run again with --out <name>\.tierscope\.json/);
    const out = join(dir, 'big.tierscope.json');
    const file = await runCapture(['share', path, '--redact', '--out', out]);
    expect(file.code).toBe(0);
    expect(file.out).toBe('');
    expect(file.err).toContain(`wrote ${out}`);
    const text = readFileSync(out, 'utf8');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('hunter2');
    const loaded = parseTranscript(fileFromText('big.tierscope.json', text));
    expect(loaded.ok && loaded.transcript.threads[0].messages.length).toBe(3);
  });

  it('minimize --redact --out writes a redacted bundle', async () => {
    const path = join(dir, 'small.jsonl');
    writeFileSync(path, session(2000));
    const out = join(dir, 'small.tierscope.json');
    const r = await runCapture(['minimize', path, '--predicate', 'tier:t1=null', '--redact', '--out', out]);
    expect(r.code, r.err).toBe(0);
    expect(readFileSync(out, 'utf8')).not.toContain(SECRET);
  });
});
