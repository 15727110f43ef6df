// What the page hands the engine (issue 19, item 3), in Node: a Blob and a gzip Blob become the same source, a
// stream is stopped past the limit (a gzip bomb never expands whole), a truncated gzip keeps what decompressed,
// and the engine refuses an over-limit Blob whatever path it came by.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { prepareInput, spool } from '../../worker/blob-input.ts';
import { createEngine } from '../../worker/create-engine.ts';

const LINE = '{"type":"user","message":{"role":"user","content":"hi"},"uuid":"u1","parentUuid":null,"sessionId":"s"}\n';
const text = LINE.repeat(200);
const bytesOf = (s: { chunks: () => Iterable<Uint8Array> }) => Buffer.concat([...s.chunks()]).toString('utf8');

describe('prepareInput', () => {
  it('a Blob and its gzip give the same bytes; the .gz name is dropped', async () => {
    const plain = await prepareInput({ name: 'a.jsonl', blob: new Blob([text]) }, 1 << 20);
    const gz = await prepareInput({ name: 'a.jsonl.gz', blob: new Blob([gzipSync(text)]) }, 1 << 20);
    expect(plain.ok && gz.ok).toBe(true);
    if (!plain.ok || !gz.ok) return;
    expect(bytesOf(gz.source)).toBe(text);
    expect(gz.source.name).toBe('a.jsonl');
    expect(new TextDecoder().decode(gz.source.read(0, LINE.length))).toBe(LINE);
    expect(bytesOf(plain.source)).toBe(text);
  });

  it('a gzip that expands past the limit is refused; a truncated one keeps what decompressed', async () => {
    const bomb = gzipSync(Buffer.alloc(4 << 20, LINE));
    expect(await prepareInput({ name: 'b.jsonl.gz', blob: new Blob([bomb]) }, 1 << 20)).toEqual({
      ok: false,
      error: 'b.jsonl.gz is gzip-compressed and decompresses to more than the 1 MB file-size limit.',
    });
    const whole = gzipSync(text);
    const cut = await prepareInput(
      { name: 'c.jsonl.gz', blob: new Blob([whole.subarray(0, whole.length >> 1)]) },
      1 << 20,
    );
    expect(cut.ok).toBe(true);
    if (!cut.ok) return;
    expect(cut.issue).toMatch(/^the gzip stream ended early/);
    expect(text.startsWith(bytesOf(cut.source))).toBe(true);
  });

  it('spool stops past the cap and says how far it got', async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(c) {
        pulled++;
        c.enqueue(new Uint8Array(64 * 1024));
      },
    });
    expect(await spool(endless, 1 << 20)).toEqual({ ok: false, bytes: 17 * 64 * 1024 });
    expect(pulled).toBeLessThan(20);
  });

  it('the engine refuses an over-limit Blob before parsing it', async () => {
    const engine = createEngine();
    const r = await engine.load([{ name: 'big.jsonl', blob: new Blob([text]) }], undefined, undefined, {
      maxFileBytes: 1000,
    });
    expect(r).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^big\.jsonl is 20\.\d KB, over the 1000 bytes file-size limit\.$/),
    });
  });
});
