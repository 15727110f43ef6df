// Hostile and odd inputs of issue 29 through the CLI, each as it was found: a `.jsonl.gz` with bytes after the gzip
// member (37 of 41 messages kept, or "empty (0 bytes)" for a small one; gunzip and the app read all of it), a gzip bomb
// (the reason came with the whole usage text), a small session whose tail is a crash's NUL padding (refused as
// "binary"), a file with CR-only line endings (one giant line), usage counts written as strings (dropped without a
// word) and a line typed `"assistant "` (dropped silently).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { openInput } from '../../src/cli/node-input.ts';
import { runCapture } from '../helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'tierscope-hostile-inputs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const base = { isSidechain: false, userType: 'external', cwd: '/w', sessionId: 's', version: '2.0.14' };
const model = 'claude-sonnet-4-20250514';

/** A Claude Code session of `n` messages (alternating user and assistant, usage on each answer). */
function session(n: number, usage: (i: number) => unknown = () => ({ input_tokens: 10, output_tokens: 5 })) {
  const lines: unknown[] = [];
  for (let i = 0; i < n; i++) {
    const user = i % 2 === 0;
    lines.push({
      ...base,
      type: user ? 'user' : 'assistant',
      uuid: `m${i}`,
      parentUuid: i === 0 ? null : `m${i - 1}`,
      ...(user ? {} : { requestId: `r${i}` }),
      message: user
        ? { role: 'user', content: `question ${i} ${'x'.repeat(200)}` }
        : {
            id: `msg${i}`,
            role: 'assistant',
            model,
            content: [{ type: 'text', text: `answer ${i}` }],
            usage: usage(i),
          },
    });
  }
  return lines.map((l) => JSON.stringify(l));
}

async function analyzed(path: string) {
  const r = await runCapture(['analyze', path, '--json']);
  expect(r.code, r.err).toBe(0);
  return JSON.parse(r.out) as {
    counts: { messages: number; requests: number };
    parseIssues: { line: number; message: string }[];
    requests: { observed: { input: number } | null }[];
  };
}

describe('gzip', () => {
  it('bytes after the gzip member are ignored with a note; every message loads, small file or not', async () => {
    for (const n of [41, 1]) {
      const path = join(dir, `trail-${n}.jsonl.gz`);
      writeFileSync(
        path,
        Buffer.concat([gzipSync(`${session(n).join('\n')}\n`), Buffer.from('\u0001\u0002junk after it')]),
      );
      const j = await analyzed(path);
      expect(j.counts.messages).toBe(n);
      expect(j.parseIssues.map((i) => i.message)).toContain(
        'bytes after the gzip data are not gzip; ignored, as gunzip does',
      );
    }
  });

  it('two members concatenated load as one file', async () => {
    const lines = session(6);
    const path = join(dir, 'two.jsonl.gz');
    writeFileSync(
      path,
      Buffer.concat([gzipSync(`${lines.slice(0, 3).join('\n')}\n`), gzipSync(`${lines.slice(3).join('\n')}\n`)]),
    );
    const j = await analyzed(path);
    expect(j.counts.messages).toBe(6);
    expect(j.parseIssues).toEqual([]);
  });

  it('a bomb is refused in one line, without the usage text, after at most the limit', async () => {
    const path = join(dir, 'bomb.jsonl.gz');
    writeFileSync(path, gzipSync(Buffer.alloc(64 << 20, 0x61)));
    const opened = await openInput(path, () => (async function* () {})(), 8 << 20);
    expect(opened).toBe('bomb.jsonl.gz is gzip-compressed and decompresses to more than the 8 MB file-size limit');
    const missing = await runCapture(['analyze', join(dir, 'nope.jsonl')]);
    expect(missing.code).toBe(2);
    expect(missing.err.split('\n')).toEqual([`tierscope: no such file: ${join(dir, 'nope.jsonl')}`]);
  });
});

describe('odd but honest files', () => {
  it('a small session ending in NUL padding loads, the padding noted', async () => {
    const path = join(dir, 'crashed.jsonl');
    writeFileSync(path, Buffer.concat([Buffer.from(`${session(4).join('\n')}\n`), Buffer.alloc(3000)]));
    const j = await analyzed(path);
    expect(j.counts.messages).toBe(4);
    expect(j.parseIssues.map((i) => i.message)).toEqual([
      '3000 NUL bytes (padding an interrupted write leaves in the file); skipped',
    ]);
  });

  it('CR-only line endings are line endings', async () => {
    const path = join(dir, 'mac.jsonl');
    writeFileSync(path, `${session(6).join('\r')}\r`);
    const j = await analyzed(path);
    expect(j.counts.messages).toBe(6);
    expect(j.parseIssues).toEqual([]);
  });

  it('usage written as text is read and noted; usage that is no number is dropped with a warning', async () => {
    const path = join(dir, 'text-usage.jsonl');
    writeFileSync(
      path,
      `${session(4, (i) => (i === 1 ? { input_tokens: '120', output_tokens: '7' } : { input_tokens: 'lots', output_tokens: 3 })).join('\n')}\n`,
    );
    const j = await analyzed(path);
    expect(j.requests.map((r) => r.observed?.input ?? null)).toEqual([120, null]);
    expect(j.parseIssues.map((i) => [i.line, i.message])).toEqual([
      [2, 'usage input_tokens "120", output_tokens "7" written as text, not as numbers; read as the counts they say'],
      [
        4,
        'usage input (not a number) is not a token count (negative, fractional or over 10^12): request 1 of thread main is treated as having no observed usage',
      ],
    ]);
  });

  it('a line typed "assistant " is named, not dropped silently', async () => {
    const lines = session(2);
    const odd = JSON.parse(lines[1]);
    odd.type = 'assistant ';
    const path = join(dir, 'space.jsonl');
    writeFileSync(path, `${[lines[0], JSON.stringify(odd)].join('\n')}\n`);
    const j = await analyzed(path);
    expect(j.parseIssues.map((i) => [i.line, i.message])).toEqual([
      [
        2,
        'type "assistant " is not "assistant" (spaces or case differ); skipped, so its message is not in the transcript',
      ],
    ]);
  });
});
