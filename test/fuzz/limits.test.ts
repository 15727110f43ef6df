// Load limits with clear messages (SPEC §1.3, issue 6 item 5): file size (main and companion files), line size
// (main and companion files), thread count and issue count. Each limit refuses or drops only what is over it,
// says so in one message with the sizes involved, and the rest of the input loads as it would alone.
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, fileFromText, type LoadResult, parseTranscript } from '../../src/formats/index.ts';
import type { SourceFile } from '../../src/formats/types.ts';
import { formatBytes } from '../../src/lib/bytes.ts';
import type { Transcript } from '../../src/model/transcript.ts';
import { expectTranscript } from './kit.ts';
import { SAMPLES } from './samples.ts';

function ok(r: LoadResult): Transcript {
  if (!r.ok) throw new Error(r.error);
  expectTranscript(r.transcript);
  return r.transcript;
}

const sample = (format: string) => {
  const s = SAMPLES.find((x) => x.format === format);
  if (!s) throw new Error(`no ${format} sample`);
  return s.text;
};

/** Messages of every thread, as comparable data. */
const messagesOf = (t: Transcript) => t.threads.map((th) => [th.id, th.messages.map((m) => [m.role, m.blocks])]);

describe('file-size limit', () => {
  it('a file over the limit is refused before any byte is read, with both sizes in the message', () => {
    let reads = 0;
    const huge: SourceFile = {
      name: 'huge.jsonl',
      size: 3 * 1024 ** 3,
      chunks: function* () {
        reads++;
        yield new Uint8Array(0);
      },
    };
    const r = parseTranscript(huge);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toBe('huge.jsonl is 3 GB, over the 2 GB file-size limit.');
    expect(reads).toBe(0);
    const small = parseTranscript(fileFromText('a.jsonl', '{"a":1}\n'.repeat(10)), [], {
      limits: { maxFileBytes: 20 },
    });
    expect(small.ok).toBe(false);
    if (!small.ok) expect(small.error).toBe('a.jsonl is 80 bytes, over the 20 bytes file-size limit.');
  });

  it('a companion file over the limit is left out with an error issue; the session loads', () => {
    const main = sample('claude-code');
    const agent: SourceFile = { ...fileFromText('sess/subagents/agent-x.jsonl', main), size: 5 * 1024 ** 3 };
    const t = ok(parseTranscript(fileFromText('sess.jsonl', main), [agent]));
    const issue = t.parseIssues.find((i) => i.file === 'sess/subagents/agent-x.jsonl');
    expect(issue).toMatchObject({ line: 0, severity: 'error' });
    expect(issue?.message).toBe('companion file is 5 GB, over the 2 GB file-size limit; not loaded');
    expect(messagesOf(t)).toEqual(messagesOf(ok(parseTranscript(fileFromText('sess.jsonl', main)))));
  });

  it('formats sizes for people', () => {
    expect([0, 20, 1536, 256 * 1024 ** 2, 2 * 1024 ** 3].map(formatBytes)).toEqual([
      '0 bytes',
      '20 bytes',
      '1.5 KB',
      '256 MB',
      '2 GB',
    ]);
    expect(DEFAULT_LIMITS).toMatchObject({ maxFileBytes: 2 * 1024 ** 3, maxLineBytes: 256 * 1024 ** 2 });
  });
});

describe('line-size limit', () => {
  it('a line over a small configured limit is skipped with an issue at its line; the rest loads', () => {
    const lines = sample('claude-code').trimEnd().split('\n');
    const big = JSON.stringify({ type: 'user', uuid: 'big', parentUuid: 'u9', message: { content: 'x'.repeat(5000) } });
    const withBig = [...lines, big, ...lines.slice(-1)].join('\n');
    const limit = 4096;
    const t = ok(parseTranscript(fileFromText('s.jsonl', withBig), [], { limits: { maxLineBytes: limit } }));
    const issue = t.parseIssues.find((i) => i.line === lines.length + 1);
    expect(issue).toMatchObject({ severity: 'error', byteOffset: lines.join('\n').length + 1 });
    expect(issue?.message).toBe(`line is ${formatBytes(big.length)}, over the 4 KB line-size limit; skipped`);
    const alone = ok(
      parseTranscript(fileFromText('s.jsonl', lines.join('\n')), [], { limits: { maxLineBytes: limit } }),
    );
    expect(messagesOf(t)).toEqual(messagesOf(alone));
  });

  it('the limit applies to companion (sub-agent) files too', () => {
    const main = sample('claude-code');
    const sub = [
      JSON.stringify({
        type: 'user',
        isSidechain: true,
        sessionId: 'sess-cc',
        uuid: 'a1',
        parentUuid: null,
        message: { content: 'go' },
      }),
      JSON.stringify({
        type: 'user',
        isSidechain: true,
        sessionId: 'sess-cc',
        uuid: 'a2',
        parentUuid: 'a1',
        message: { content: 'y'.repeat(9000) },
      }),
    ].join('\n');
    const t = ok(
      parseTranscript(fileFromText('sess.jsonl', main), [fileFromText('sess/subagents/agent-a.jsonl', sub)], {
        limits: { maxLineBytes: 4096 },
      }),
    );
    expect(t.parseIssues).toContainEqual(
      expect.objectContaining({ file: 'sess/subagents/agent-a.jsonl', line: 2, severity: 'error' }),
    );
    const agent = t.threads.find((th) => th.id.startsWith('agent:'));
    expect(agent?.messages.map((m) => m.blocks)).toEqual([[{ type: 'text', text: 'go' }]]);
  });
});

/** An OpenAI-chat file of `n` one-conversation lines: each line is a thread. */
function conversations(n: number): string {
  const line = (i: number) =>
    JSON.stringify({
      messages: [
        { role: 'user', content: `q${i}` },
        { role: 'assistant', content: `a${i}` },
      ],
    });
  return Array.from({ length: n }, (_, i) => line(i)).join('\n');
}

describe('thread-count limit', () => {
  it('threads beyond the limit are dropped with one error issue saying how many', () => {
    const t = ok(parseTranscript(fileFromText('c.jsonl', conversations(30)), [], { limits: { maxThreads: 10 } }));
    expect(t.threads).toHaveLength(10);
    expect(t.threads[0].id).toBe('line-1');
    const issues = t.parseIssues.filter((i) => /thread limit/.test(i.message));
    expect(issues).toEqual([
      {
        line: 0,
        severity: 'error',
        message:
          '30 threads, over the 10-thread limit: the last 20 were dropped (threads are ordered main, sidechains, side calls)',
      },
    ]);
  });

  it('the main thread is kept first whatever the limit (claude-trace side calls go first)', () => {
    const t = ok(parseTranscript(fileFromText('t.jsonl', sample('claude-trace')), [], { limits: { maxThreads: 1 } }));
    expect(t.threads.map((th) => th.kind)).toEqual(['main']);
    expect(t.parseIssues.some((i) => /over the 1-thread limit/.test(i.message))).toBe(true);
  });

  it('the default limit is 10,000 threads', () => {
    expect(DEFAULT_LIMITS.maxThreads).toBe(10_000);
    const t = ok(parseTranscript(fileFromText('c.jsonl', conversations(10_003))));
    expect(t.threads).toHaveLength(10_000);
    expect(t.parseIssues[0].message).toMatch(/^10003 threads, over the 10000-thread limit: the last 3 were dropped/);
  }, 30_000);
});

describe('issue-count limit', () => {
  it('issues beyond the limit are summed up in one issue, also when far more are reported', () => {
    const good = sample('codex').trimEnd();
    const own = ok(parseTranscript(fileFromText('x.jsonl', good))).parseIssues.length;
    for (const bad of [30, 500]) {
      const text = `${good}\n${Array.from({ length: bad }, (_, i) => `not json ${i}`).join('\n')}\n`;
      const t = ok(parseTranscript(fileFromText('x.jsonl', text), [], { limits: { maxIssues: 10 } }));
      expect(t.parseIssues).toHaveLength(11);
      expect(t.parseIssues[10].message).toBe(
        `${own + bad - 10} more issues not listed, over the 10-issue limit (the first at this line)`,
      );
      expect(t.parseIssues[10].line).toBeGreaterThan(0);
    }
  });
});

describe('document-size limit (single-document formats)', () => {
  it('a document over the limit is not decoded into one string; the message says why it was not recognised', () => {
    const r = parseTranscript(fileFromText('log.json', sample('inspect')), [], { limits: { maxDocumentBytes: 100 } });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error).toMatch(
        /^Could not recognise log\.json: tried .* \(as one JSON document it is over the 100 bytes/,
      );
    }
    expect(DEFAULT_LIMITS.maxDocumentBytes).toBe(500 * 1024 ** 2);
  });

  it('JSON-lines files are not affected by it', () => {
    const text = sample('claude-code');
    const small = ok(parseTranscript(fileFromText('s.jsonl', text), [], { limits: { maxDocumentBytes: 100 } }));
    expect(messagesOf(small)).toEqual(messagesOf(ok(parseTranscript(fileFromText('s.jsonl', text)))));
  });
});

describe('the loader never throws', () => {
  it('a stream that fails mid-read is one clear error', () => {
    const failing: SourceFile = {
      name: 'flaky.jsonl',
      size: 100,
      chunks: function* () {
        yield new TextEncoder().encode('{"a":');
        throw new Error('EIO: i/o error, read');
      },
    };
    const r = parseTranscript(failing);
    expect(r).toEqual({ ok: false, error: 'Could not load flaky.jsonl: EIO: i/o error, read', issues: [] });
  });
});
