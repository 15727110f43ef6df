// Issue 19, item 10: a compressed or UTF-16 log is named for what it is with the command that makes it
// readable (not "binary"), and a file whose only lines are over the line-size limit says so (not "blank lines").
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { fileFromBytes, fileFromText, parseTranscript } from '../../src/formats/index.ts';
import { asst, text as ccText, jsonl, type Obj, usage, user } from '../helpers/claude-code-lines.ts';

const LINE = '{"type":"user","message":{"role":"user","content":"hi"},"uuid":"u1","parentUuid":null}\n';
const enc = new TextEncoder();

function error(name: string, bytes: Uint8Array, limits = {}): string {
  const r = parseTranscript(fileFromBytes(name, bytes), [], { limits });
  expect(r.ok).toBe(false);
  return r.ok ? '' : r.error;
}

describe('compressed and non-UTF-8 inputs are named', () => {
  it('gzip, bzip2, xz, zstd, 7-Zip', () => {
    expect(error('a.jsonl.gz', gzipSync(LINE))).toBe(
      'a.jsonl.gz is gzip-compressed, not a JSON or JSONL transcript: gunzip it first.',
    );
    const magic: [string, number[], RegExp][] = [
      ['a.jsonl.bz2', [0x42, 0x5a, 0x68, 0x39, 0x31, 0x41], /is bzip2-compressed.*bunzip2 -k/],
      ['a.jsonl.xz', [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 0x00], /is xz-compressed.*unxz -k/],
      ['a.jsonl.zst', [0x28, 0xb5, 0x2f, 0xfd, 0x04], /is zstd-compressed.*unzstd/],
      ['a.7z', [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c, 0x00], /is a 7-Zip archive/],
    ];
    for (const [name, head, re] of magic) {
      const bytes = new Uint8Array(512);
      bytes.set(head);
      for (let i = head.length; i < bytes.length; i++) bytes[i] = (i * 37) % 256;
      expect(error(name, bytes)).toMatch(re);
    }
  });

  it('UTF-16 with and without a byte-order mark', () => {
    const utf16 = (bom: boolean) => {
      const out = new Uint8Array((bom ? 2 : 0) + LINE.length * 2);
      if (bom) out.set([0xff, 0xfe]);
      for (let i = 0; i < LINE.length; i++) out[(bom ? 2 : 0) + i * 2] = LINE.charCodeAt(i);
      return out;
    };
    for (const bom of [true, false])
      expect(error('a.jsonl', utf16(bom))).toMatch(/is UTF-16 text.*iconv -f UTF-16 -t UTF-8/);
  });

  it('UTF-8 with a byte-order mark is still read', () => {
    const r = parseTranscript(fileFromBytes('bom.jsonl', new Uint8Array([0xef, 0xbb, 0xbf, ...enc.encode(LINE)])));
    expect(r.ok ? 'ok' : r.error).not.toMatch(/UTF-16|compressed|binary/);
  });
});

describe('lines over the limit', () => {
  it('a file whose one line is over the line-size limit says so', () => {
    const big = `${LINE.slice(0, -2)}${'x'.repeat(4096)}"}\n`;
    expect(error('one.jsonl', enc.encode(big), { maxLineBytes: 1024 })).toBe(
      'one.jsonl has no line under the 1 KB line-size limit: its one line is longer, and the rest are blank.',
    );
    expect(error('two.jsonl', enc.encode(`${big}\n\n${big}`), { maxLineBytes: 1024 })).toMatch(
      /2 lines are longer, and the rest are blank\.$/,
    );
    const blank = parseTranscript(fileFromText('blank.jsonl', '\n \n'));
    expect(blank.ok ? '' : blank.error).toBe('blank.jsonl holds only blank lines.');
  });
});

describe('usage that is not a token count', () => {
  it('negative, fractional and 2^53 figures are dropped with a parse issue at their line; good usage stays', () => {
    const withUsage = (o: Obj, u: Obj) => ({ ...o, message: { ...(o.message as Obj), usage: u } });
    const text = jsonl(
      user('u1', null, 'hi'),
      withUsage(asst('a1', 'u1', 'm1', [ccText('one')]), usage(5)),
      user('u2', 'a1', 'again'),
      withUsage(asst('a2', 'u2', 'm2', [ccText('two')]), usage(5, -5)),
      user('u3', 'a2', 'and again'),
      withUsage(asst('a3', 'u3', 'm3', [ccText('three')]), usage(2 ** 53)),
      user('u4', 'a3', 'last'),
      withUsage(asst('a4', 'u4', 'm4', [ccText('four')]), usage(1.5)),
    );
    const r = parseTranscript(fileFromText('usage.jsonl', text));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const main = r.transcript.threads[0];
    expect(main.requests.map((q) => q.observed?.output ?? null)).toEqual([5, null, null, null]);
    const msgs = r.transcript.parseIssues.filter((i) => i.message.includes('is not a token count'));
    expect(msgs.map((i) => [i.line, i.message.split(' is not')[0]])).toEqual([
      [4, 'usage input -5'],
      [6, 'usage output 9007199254740992'],
      [8, 'usage output 1.5'],
    ]);
  });
});
