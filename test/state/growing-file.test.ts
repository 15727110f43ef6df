// One followed file (state/growing-file.ts): whole lines added are taken as an append, half a line waits for its
// end, a file replaced or cut short starts over, and a file handle from the directory picker is read again as it
// is now — each poll reads only the bytes from the last one held.
import { describe, expect, it } from 'vitest';
import { type FileTail, GrowingFile, handleTail } from '../../src/state/growing-file.ts';

const enc = new TextEncoder();

/** A file whose text the test changes; records the offsets read from. */
function fakeFile(initial: string) {
  const f = { text: initial, reads: [] as number[] };
  const bytes = () => enc.encode(f.text);
  const tail: FileTail = {
    async tail(from) {
      f.reads.push(from);
      return { whole: false, bytes: bytes().slice(from) };
    },
    async whole() {
      f.reads.push(0);
      return bytes();
    },
  };
  return { f, tail };
}

const text = async (file: File) => file.text();

describe('a followed file', () => {
  it('takes whole lines as an append and keeps half a line until its end', async () => {
    const { f, tail } = fakeFile('{"a":1}\n');
    const g = new GrowingFile('s.jsonl', tail, enc.encode(f.text));
    expect(await g.poll()).toBe(false);
    f.text += '{"b":2}\n{"c":';
    expect(await g.poll()).toBe(true);
    expect(f.reads.at(-1)).toBe(7); // from the last byte held
    const first = g.take();
    expect(first.appended).toBe(true);
    expect(await text(first.file)).toBe('{"a":1}\n{"b":2}\n');
    expect(g.waiting).toBe(5);
    expect(await g.poll()).toBe(false);
    f.text += '3}\n';
    expect(await g.poll()).toBe(true);
    expect(await text(g.take().file)).toBe('{"a":1}\n{"b":2}\n{"c":3}\n');
    expect(g.waiting).toBe(0);
  });

  it('starts over when the file was replaced or cut short', async () => {
    const { f, tail } = fakeFile('{"a":1}\n{"b":2}\n');
    const g = new GrowingFile('s.jsonl', tail, enc.encode(f.text));
    f.text = '{"x":9}\n';
    expect(await g.poll()).toBe(true);
    const t = g.take();
    expect(t.appended).toBe(false);
    expect(await text(t.file)).toBe('{"x":9}\n');
    f.text += '{"y":8}\n';
    expect(await g.poll()).toBe(true);
    expect(g.take().appended).toBe(true);
  });

  it('reads a file handle again as it is now', async () => {
    let content = '{"a":1}\n';
    const handle = {
      name: 'agent-1.jsonl',
      kind: 'file' as const,
      getFile: async () => new File([content], 'agent-1.jsonl'),
    };
    const g = new GrowingFile('agent-1.jsonl', handleTail(handle), enc.encode(content));
    content += '{"b":2}\n';
    expect(await g.poll()).toBe(true);
    expect(await text(g.take().file)).toBe(content);
  });
});
