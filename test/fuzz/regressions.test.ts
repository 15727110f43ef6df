// Shrunk counterexamples the fuzz suites found, kept as named regression tests. Each one crashed a parser
// (the registry caught it and the whole load failed), broke a model invariant, or lost what did parse.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.ts';
import { fileFromBytes, fileFromText, type LoadResult, parseTranscript } from '../../src/formats/index.ts';
import { parsePythonLiteral } from '../../src/formats/python-literal.ts';
import type { Transcript } from '../../src/model/transcript.ts';
import { expectTranscript } from './kit.ts';

function ok(r: LoadResult): Transcript {
  if (!r.ok) throw new Error(r.error);
  expectTranscript(r.transcript);
  return r.transcript;
}
const load = (text: string, name = 'input.jsonl') => ok(parseTranscript(fileFromText(name, text)));
const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
const lines = (...values: unknown[]) => values.map((v) => JSON.stringify(v)).join('\n');
/** Stands in for a deep value in objects; `withDeep` swaps it for the deep JSON text after stringifying. */
const DEEP = '@DEEP@';
const withDeep = (text: string, n: number) => text.replace(JSON.stringify(DEEP), deep(n));

const codex = (type: string, payload: unknown) => ({ timestamp: '2025-01-01T00:00:00Z', type, payload });
const ccUser = (uuid: string, parent: string | null, content: unknown, sidechain = false) => ({
  type: 'user',
  uuid,
  parentUuid: parent,
  isSidechain: sidechain,
  sessionId: 's',
  message: { role: 'user', content },
});

describe('prototype member names as data', () => {
  it('codex: a line of type "constructor" is counted as a number in meta.skipped (was a function text)', () => {
    const t = load(lines(codex('session_meta', { id: 's' }), codex('constructor', {}), codex('__proto__', {})));
    expect(t.meta.skipped).toEqual({ constructor: 1, ['__proto__']: 1 });
    expect(Object.getPrototypeOf(t.meta.skipped)).toBe(Object.prototype);
  });

  it('claude-code: a line of type "toString" is counted, not concatenated to Object.prototype.toString', () => {
    const t = load(lines(ccUser('u1', null, 'hi'), { type: 'toString', uuid: 'x', parentUuid: 'u1', sessionId: 's' }));
    expect(t.meta.skipped).toEqual({ toString: 1 });
  });

  it('openai-chat and swe-agent: role "constructor" is an unknown role kept as user (was the Object function)', () => {
    const text = lines({
      messages: [
        { role: 'user', content: 'a' },
        { role: 'constructor', content: 'b' },
      ],
    });
    const t = ok(parseTranscript(fileFromText('chat.jsonl', text), [], { format: 'openai-chat' }));
    expect(t.threads[0].messages.map((m) => m.role)).toEqual(['user', 'user']);
    expect(t.parseIssues.map((i) => i.message)).toContain(
      'messages[1]: unknown role "constructor"; kept as a user message',
    );
    const swe = load(
      JSON.stringify({ history: [{ role: 'constructor', content: 'x' }], trajectory: [], info: {} }),
      'a.traj',
    );
    expect(swe.threads[0].messages[0].role).toBe('user');
  });

  it('swe-agent: a Python dict key "__proto__" is data, not the dict prototype', () => {
    const r = parsePythonLiteral("{'__proto__': {'polluted': True}, 'a': 1}");
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const v = r.value as Record<string, unknown>;
    expect(Object.keys(v)).toEqual(['__proto__', 'a']);
    expect(v.polluted).toBeUndefined();
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
  });
});

describe('values String() cannot convert', () => {
  const hostile = { toString: 1, valueOf: 1 };

  it('inspect: a sample id without a callable toString names the thread (the parser threw)', () => {
    const doc = { version: 2, eval: {}, samples: [{ id: hostile, epoch: [hostile], messages: [] }] };
    const t = load(JSON.stringify(doc), 'log.json');
    expect(t.threads[0].id).toBe('sample-{"toString":1,"valueOf":1}-[{"toString":1,"valueOf":1}]');
  });

  it('inspect: such a log version becomes its JSON text', () => {
    const t = load(JSON.stringify({ version: hostile, eval: {}, samples: [] }), 'log.json');
    expect(t.meta.version).toBe('{"toString":1,"valueOf":1}');
  });

  it('tierscope: such a bundle version is reported, not thrown', () => {
    const t = load(JSON.stringify({ tierscope: hostile, threads: [] }), 'b.tierscope.json');
    expect(t.parseIssues[0].message).toBe(
      'bundle version {"toString":1,"valueOf":1} is not supported (this Tierscope reads version 1)',
    );
  });
});

describe('deep nesting', () => {
  it('claude-trace: a 5,000-level system prompt refuses the line (content keys overflowed the stack)', () => {
    const body = { model: 'm', max_tokens: 1, system: DEEP as unknown, messages: [] };
    const pair = {
      request: { url: 'https://api.anthropic.com/v1/messages', body },
      response: { status_code: 200, body: { type: 'message', content: [] } },
      logged_at: 1,
    };
    const good = { ...pair, request: { ...pair.request, body: { ...body, system: 'You are Claude.' } } };
    const text = withDeep(lines(good, pair), 5000);
    const t = load(text);
    // The column points at the bracket that opens level 513 (three objects enclose the arrays).
    const column = text.split('\n')[1].indexOf('[') + 510;
    expect(t.parseIssues).toEqual([
      expect.objectContaining({ line: 2, column, severity: 'error', message: expect.stringMatching(/^JSON too deep/) }),
    ]);
  });

  it('claude-code: a 5,000-level tool input refuses the line (the transcript could not be cloned or exported)', () => {
    const use = { type: 'tool_use', id: 't', name: 'X', input: DEEP };
    const a = {
      type: 'assistant',
      uuid: 'a',
      parentUuid: 'u1',
      sessionId: 's',
      message: { role: 'assistant', content: [use] },
    };
    const t = load(withDeep(lines(ccUser('u1', null, 'hi'), a), 5000));
    expect(t.threads[0].messages).toHaveLength(1);
    expect(t.parseIssues.some((i) => i.line === 2 && /too deep/.test(i.message))).toBe(true);
  });

  it('anthropic-request: a deep line among requests leaves detection to the others (it said "Could not recognise")', () => {
    const req = { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] };
    const t = load([JSON.stringify(req), JSON.stringify(req), deep(100_000)].join('\n'));
    expect(t.format).toBe('anthropic-request');
    expect(t.parseIssues.some((i) => i.line === 3)).toBe(true);
  });
});

describe('chunking', () => {
  it('binary sniffing reads the first 8 KB across chunks: [space, 0x01, 8 spaces] in 2-byte chunks', () => {
    const bytes = Uint8Array.from([32, 1, 32, 32, 32, 32, 32, 32, 32, 32]);
    const whole = parseTranscript(fileFromBytes('input.jsonl', bytes));
    const chunked = parseTranscript(fileFromBytes('input.jsonl', bytes, 2));
    expect(chunked).toEqual(whole);
    expect(whole.ok ? '' : whole.error).toMatch(/^Could not recognise/);
  });
});

describe('never lose what parsed', () => {
  it('claude-code: sidechains survive when the only main-chain line of a file is corrupt', () => {
    // A window of a real 1.0.98 session: sidechain lines, one main line (cut to "{"), another sidechain.
    const text = [
      lines(ccUser('s1', null, 'task one', true), {
        ...ccUser('s2', 's1', 'more', true),
        type: 'assistant',
        message: { role: 'assistant', content: 'done one' },
      }),
      '{',
      lines(ccUser('t1', null, 'task two', true), { ...ccUser('t2', 't1', 'x', true), type: 'assistant' }),
    ].join('\n');
    const t = load(text);
    const texts = t.threads.map((th) => th.messages.map((m) => m.blocks.map((b) => (b.type === 'text' ? b.text : ''))));
    expect(texts).toContainEqual([['task one'], ['done one']]);
    expect(t.parseIssues[0]).toMatchObject({ line: 3, severity: 'error' });
  });
});

describe('mixed formats', () => {
  it('codex: a Claude Code line inside a model call neither splits it nor becomes a message', () => {
    const call = [
      codex('session_meta', { id: 's' }),
      codex('response_item', { type: 'message', role: 'user', content: 'go' }),
      codex('response_item', { type: 'reasoning', summary: [{ text: 'think' }] }),
      ccUser('u1', null, 'pasted from another log'),
      codex('response_item', { type: 'function_call', name: 'shell', arguments: '{}', call_id: 'c' }),
    ];
    const t = load(lines(...call));
    expect(t.threads[0].messages.map((m) => [m.role, m.blocks.map((b) => b.type)])).toEqual([
      ['user', ['text']],
      ['assistant', ['thinking', 'tool_use']],
    ]);
    expect(t.threads[0].requests).toHaveLength(1);
    expect(t.meta.skipped).toEqual({ 'foreign:user': 1 });
    expect(t.parseIssues.map((i) => i.line)).toEqual([4]);
  });
});

describe('tierscope bundles (share links) are narrowed field by field', () => {
  const bundle = (thread: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ tierscope: 1, format: 'codex', meta: {}, threads: [thread], parseIssues: [], ...extra });
  const message = { index: 0, role: 'user', blocks: [{ type: 'text', text: 'hi' }], source: { line: 1 } };

  it('wrong-typed message, request and meta fields are dropped with issues', () => {
    const t = load(
      bundle(
        {
          id: 'main',
          kind: 'main',
          title: 7,
          messages: [{ ...message, time: { toString: 1 }, model: [], source: { line: -3, lines: 'x' } }],
          requests: [
            { index: 9, thread: 'other', inputEnd: 0, responseEnd: 1e9, observed: { input: 'x' }, exactInput: {} },
          ],
          prefix: { system: 'x', tools: [{ name: 1 }] },
        },
        { meta: { skipped: { a: 'x' }, title: {} }, parseIssues: [{ message: 'no line' }, 5] },
      ),
      'b.tierscope.json',
    );
    const th = t.threads[0];
    expect(th.title).toBeUndefined();
    expect(th.messages[0]).toEqual({ ...message, source: { line: 0 } });
    expect(th.requests[0]).toEqual({ index: 0, thread: 'main', inputEnd: 0, responseEnd: 1 });
    expect(th.prefix).toEqual({ tools: [] });
    expect(t.meta).toEqual({ originalFormat: 'codex', fileName: 'b.tierscope.json' });
    expect(t.parseIssues.some((i) => /2 of the bundle's parse issues lack/.test(i.message))).toBe(true);
  });

  it('repeated thread ids get a suffix', () => {
    const th = { id: 'main', kind: 'main', messages: [message], requests: [{ inputEnd: 1 }], prefix: {} };
    const text = JSON.stringify({ tierscope: 1, format: 'codex', meta: {}, threads: [th, th], parseIssues: [] });
    const t = load(text, 'b.tierscope.json');
    expect(t.threads.map((x) => x.id)).toEqual(['main', 'main#2']);
    expect(t.threads[1].requests[0].thread).toBe('main#2');
  });
});

describe('CLI', () => {
  const run = async (argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, { out: (s) => out.push(s), err: (s) => err.push(s) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  it('no command (it serves): unusable, exit 2 with the reason on stderr (it printed only the usage, on stdout)', async () => {
    const r = await run(['--app', join(tmpdir(), 'tierscope-no-such-app')]);
    expect(r.code).toBe(2);
    expect(r.err.split('\n')[0]).toBe(
      'tierscope: the app is not built: run `npm run build` (or give --app <dist folder>)',
    );
  });

  it('a file name holding a line break keeps the reason on one line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tierscope-regress-'));
    const file = join(dir, 'bad\nname.jsonl');
    writeFileSync(file, '');
    const empty = await run(['analyze', file]);
    expect(empty).toMatchObject({ code: 2, err: 'tierscope: bad name.jsonl is empty (0 bytes): nothing to load.' });
    const missing = await run(['analyze', join(dir, 'no\nsuch')]);
    expect(missing.err.split('\n')[0]).toBe(`tierscope: no such file: ${dir}/no such`);
  });
});
