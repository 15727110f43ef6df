import { describe, expect, it } from 'vitest';
import { fileFromBytes, fileFromText, parseTranscript } from '../../src/formats/index.ts';

describe('unusable input gets one clear message, never an exception', () => {
  it('empty file', () => {
    const r = parseTranscript(fileFromText('empty.jsonl', ''));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/empty/);
  });

  it('only blank lines', () => {
    const r = parseTranscript(fileFromText('blank.jsonl', '\n\n   \n'));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/blank/);
  });

  it('binary file', () => {
    const bytes = new Uint8Array(4096);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31) % 256;
    const r = parseTranscript(fileFromBytes('image.png', bytes));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/binary/);
  });

  it('unknown format names every format tried and shows the first line', () => {
    const r = parseTranscript(fileFromText('notes.jsonl', '{"hello":"world"}\n{"x":1}\n'));
    expect(r.ok).toBe(false);
    if (!r.ok) {
      for (const id of ['claude-code', 'claude-trace', 'codex', 'openai-chat', 'inspect', 'swe-agent', 'tierscope']) {
        expect(r.error).toContain(id);
      }
      expect(r.error).toContain('{"hello":"world"}');
    }
  });

  it('plain text is an unknown format, not a crash', () => {
    const r = parseTranscript(fileFromText('readme.txt', 'just some text\nmore text\n'));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain('just some text');
  });

  it('a file over the size limit is refused before reading', () => {
    const r = parseTranscript(fileFromText('big.jsonl', '{"a":1}\n'.repeat(10)), [], { limits: { maxFileBytes: 20 } });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/file-size limit/);
  });

  it('a 50 MB single non-JSON line is refused quickly with a preview, not a hang', () => {
    const big = new Uint8Array(50 * 1024 * 1024).fill(0x78); // 'x'
    const r = parseTranscript(fileFromBytes('huge.jsonl', big));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/first line looks like: x{20}/);
  });

  it('an unknown --format override is reported', () => {
    const r = parseTranscript(fileFromText('a.jsonl', '{"a":1}\n'), [], { format: 'nope' as never });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/Unknown format "nope"/);
  });
});
