// The streaming zip reader (src/formats/zip-entries.ts) on archives built here: real zstd compression, each
// supported method with and without data descriptors, and every way an entry or an archive can be bad — each
// becomes an error on that entry (or a problem of the archive) while the other entries still read.
import { describe, expect, it } from 'vitest';
import { fileFromBytes, parseTranscript } from '../../src/formats/index.ts';
import { isZip, type ZipEntry, zipEntries } from '../../src/formats/zip-entries.ts';
import { crc32 } from '../../src/lib/crc32.ts';
import { chunksOf } from '../../src/lib/lines.ts';
import { makeZip } from '../helpers/zip.ts';

const enc = new TextEncoder();
const text = (b: Uint8Array | undefined) => (b ? new TextDecoder().decode(b) : undefined);

function read(bytes: Uint8Array, opts: { chunk?: number; max?: number; want?: (n: string) => boolean } = {}) {
  const problems: string[] = [];
  const entries: ZipEntry[] = [
    ...zipEntries(chunksOf(bytes, opts.chunk ?? 1 << 20), {
      want: opts.want ?? (() => true),
      maxEntryBytes: opts.max ?? 1 << 30,
      problem: (m) => problems.push(m),
    }),
  ];
  return { entries, problems };
}

/** `zstd -19` of ZSTD_JSON below (compressed blocks, content checksum), made with the zstd 1.5 command line. */
const ZSTD_VECTOR =
  'KLUv/WT9CA0FAAIJHRlQtQ4MpZqmBqD/VmaOzMzqbeBHcklmZvYT20EQwyAIQfAujbeb7vjc9mKpkrEsQnZWlVuKKIevqjC1qkX4SRpq4slchgBL' +
  'jb0sKVUty9vZ4S+dl9bk7nY2dfgJVXt3IDLgey6xe0Z3D55JqjTv/rLDy+ZaDyAwYzB5aaokOjkqgyly1SticqgKTJknN5WpuhIoSveOHLg6RyBM' +
  'SBbJj/q55g==';
const ZSTD_JSON = JSON.stringify({
  id: 'z1',
  epoch: 1,
  messages: Array.from({ length: 6 }, (_, i) => ({
    id: `m${i}`,
    role: i % 2 === 0 ? 'user' : 'assistant',
    content: `zstd round trip ${i}: ${'the quick brown fox jumps over the lazy dog; '.repeat(8)}`,
  })),
});

/** A zip whose one entry carries `packed` as-is under compression `method`, decompressing to `original`. */
function rawEntryZip(name: string, packed: Uint8Array, method: number, original: Uint8Array): Uint8Array {
  const zip = makeZip([[name, packed]], { method: 'stored' });
  const view = new DataView(zip.buffer);
  view.setUint16(8, method, true); // local header: method
  view.setUint32(14, crc32(original), true); // local header: CRC-32 of the decompressed bytes
  view.setUint32(22, original.length, true); // local header: uncompressed size
  return zip;
}

describe('zipEntries', () => {
  it('decodes real zstd compression (method 93) to the exact bytes', () => {
    const packed = Uint8Array.from(atob(ZSTD_VECTOR), (c) => c.charCodeAt(0));
    expect(packed.length).toBeLessThan(ZSTD_JSON.length / 10);
    const { entries, problems } = read(rawEntryZip('samples/z1_epoch_1.json', packed, 93, enc.encode(ZSTD_JSON)), {
      chunk: 5,
    });
    expect(problems).toEqual([]);
    expect(entries.map((e) => [e.name, e.method, e.error])).toEqual([['samples/z1_epoch_1.json', 93, undefined]]);
    expect(text(entries[0].bytes)).toBe(ZSTD_JSON);
  });

  it('reads stored, deflate and zstd entries, with and without data descriptors, in file order', () => {
    const files: [string, Uint8Array][] = [
      ['a.json', enc.encode('{"a":1}')],
      ['empty.txt', new Uint8Array(0)],
      ['b.json', enc.encode(JSON.stringify({ b: 'x'.repeat(300_000) }))],
    ];
    for (const method of ['stored', 'deflate', 'zstd'] as const) {
      for (const descriptors of [false, true]) {
        const { entries, problems } = read(makeZip(files, { method, descriptors }), { chunk: 1000 });
        expect(problems, `${method} ${descriptors}`).toEqual([]);
        expect(entries.map((e) => [e.name, text(e.bytes)])).toEqual(files.map(([n, b]) => [n, text(b)]));
      }
    }
  });

  it('reads sizes from a zip64 extra field when the header says 0xFFFFFFFF', () => {
    const data = enc.encode('{"zip64":true}');
    const name = enc.encode('big.json');
    const head = new DataView(new ArrayBuffer(30));
    head.setUint32(0, 0x04034b50, true);
    head.setUint16(4, 45, true);
    head.setUint32(14, crc32(data), true);
    head.setUint32(18, 0xffffffff, true); // compressed size: in the extra field
    head.setUint32(22, 0xffffffff, true); // uncompressed size: in the extra field
    head.setUint16(26, name.length, true);
    head.setUint16(28, 20, true);
    const extra = new DataView(new ArrayBuffer(20));
    extra.setUint16(0, 1, true); // zip64 extended information: uncompressed, then compressed size
    extra.setUint16(2, 16, true);
    extra.setUint32(4, data.length, true);
    extra.setUint32(12, data.length, true);
    const end = enc.encode('PK\u0005\u0006'); // the walk stops at the end of the entries
    const zip = new Uint8Array([
      ...new Uint8Array(head.buffer),
      ...name,
      ...new Uint8Array(extra.buffer),
      ...data,
      ...end,
    ]);
    const { entries, problems } = read(zip);
    expect(problems).toEqual([]);
    expect(entries.map((e) => [e.name, text(e.bytes)])).toEqual([['big.json', '{"zip64":true}']]);
  });

  it('lists unwanted entries by name without decompressing them', () => {
    const zip = makeZip([
      ['keep.json', enc.encode('{}')],
      ['skip.bin', enc.encode('zzz')],
    ]);
    const { entries } = read(zip, { want: (n) => n.endsWith('.json') });
    expect(entries).toEqual([
      { name: 'keep.json', method: 8, bytes: enc.encode('{}') },
      { name: 'skip.bin', method: 8 },
    ]);
  });

  it('an unsupported method is an error on that entry; the next entry still reads', () => {
    const bz = rawEntryZip('old.json', enc.encode('BZh91AY&SY'), 12, new Uint8Array(99));
    const zip = new Uint8Array([
      ...bz.subarray(0, bz.length - 22 - 46 - 8),
      ...makeZip([['next.json', enc.encode('[1]')]]),
    ]);
    const { entries } = read(zip);
    expect(entries[0]).toMatchObject({ name: 'old.json', method: 12 });
    expect(entries[0].error).toMatch(/compression method 12 \(bzip2\) is not supported/);
    expect(entries[1]).toMatchObject({ name: 'next.json', bytes: enc.encode('[1]') });
  });

  it('an entry over the size limit is skipped, whether its size is declared or only found by decompressing', () => {
    const big = enc.encode('y'.repeat(5000));
    for (const descriptors of [false, true]) {
      const zip = makeZip(
        [
          ['big.json', big],
          ['small.json', enc.encode('{}')],
        ],
        { descriptors },
      );
      const { entries } = read(zip, { max: 1000 });
      expect(entries[0].bytes).toBeUndefined();
      expect(entries[0].error).toMatch(
        descriptors
          ? /decompresses to over the 1000 bytes entry limit/
          : /declares 4.9 KB, over the 1000 bytes entry limit/,
      );
      expect(text(entries[1].bytes)).toBe('{}');
    }
  });

  it('a corrupt deflate entry is an error on it; the entries after it still read', () => {
    const zip = makeZip([
      ['a.json', enc.encode('{"a":1}')],
      ['b.json', enc.encode('{"b":2}')],
    ]);
    const bad = zip.slice();
    const dataAt = 30 + 'a.json'.length;
    bad.fill(0xff, dataAt, dataAt + 4); // a reserved block type
    const { entries, problems } = read(bad);
    expect(problems).toEqual([]);
    expect(entries[0].error).toMatch(/^could not be decompressed: /);
    expect(text(entries[1].bytes)).toBe('{"b":2}');
  });

  it('an entry damaged where the decompressor cannot tell fails its CRC-32; the next entry still reads', () => {
    const zip = makeZip(
      [
        ['a.json', enc.encode('{"a":1}')],
        ['b.json', enc.encode('{"b":2}')],
      ],
      { method: 'stored' },
    );
    const bad = zip.slice();
    bad[30 + 'a.json'.length + 5] = '2'.charCodeAt(0); // {"a":2}
    const { entries } = read(bad);
    expect(entries[0]).toEqual({
      name: 'a.json',
      method: 0,
      error: 'its CRC-32 does not match: the entry is damaged; skipped',
    });
    expect(text(entries[1].bytes)).toBe('{"b":2}');
  });

  it('a truncated archive: entries before the cut read, the cut one says so, the archive reports where', () => {
    const zip = makeZip([
      ['a.json', enc.encode('{"a":1}')],
      ['b.json', enc.encode(JSON.stringify({ b: 'q'.repeat(20_000) }))],
    ]);
    const cut = zip.subarray(0, 30 + 6 + 9 + 30 + 6 + 20);
    const { entries, problems } = read(cut, { chunk: 16 });
    expect(text(entries[0].bytes)).toBe('{"a":1}');
    expect(entries[1]).toMatchObject({ name: 'b.json', error: 'the archive ends inside this entry' });
    expect(problems).toEqual([`the archive ends inside entry b.json, at byte ${cut.length}: it is truncated`]);
  });

  it('100,000 empty entries in one chunk are all listed (one linear pass)', () => {
    const zip = makeZip(
      Array.from({ length: 100_000 }, (_, i) => [`e${i}`, new Uint8Array(0)] as [string, Uint8Array]),
      {
        method: 'stored',
      },
    );
    const { entries, problems } = read(zip, { chunk: zip.length });
    expect(problems).toEqual([]);
    expect(entries).toHaveLength(100_000);
    expect(entries.at(-1)?.name).toBe('e99999');
  });

  it('isZip looks at the local-header magic only', () => {
    expect(isZip(makeZip([['x', new Uint8Array(1)]]))).toBe(true);
    expect(isZip(enc.encode('PK\u0005\u0006'))).toBe(false);
    expect(isZip(enc.encode('{"PK":1}'))).toBe(false);
  });
});

describe('zip archives at the loader', () => {
  it('a zip that is not an Inspect log is refused with its first entries named', () => {
    const zip = makeZip([
      ['word/document.xml', enc.encode('<w/>')],
      ['[Content_Types].xml', enc.encode('<t/>')],
    ]);
    const r = parseTranscript(fileFromBytes('report.docx', zip));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toBe(
      'report.docx is a zip archive, but not an Inspect AI eval log: its first entries are word/document.xml, ' +
        '[Content_Types].xml (an Inspect .eval holds header.json, _journal/start.json and samples/<id>_epoch_<n>.json).',
    );
  });

  it('a format that does not read archives, asked for by name, says so', () => {
    const zip = makeZip([['header.json', enc.encode('{"version":2,"eval":{}}')]]);
    const r = parseTranscript(fileFromBytes('x.eval', zip), [], { format: 'claude-code' });
    expect(r).toMatchObject({
      ok: false,
      error: 'x.eval is a zip archive; the claude-code format is not read from one.',
    });
    expect(parseTranscript(fileFromBytes('x.eval', zip), [], { format: 'inspect' }).ok).toBe(true);
  });

  it('zip magic with no readable entry is refused clearly', () => {
    const r = parseTranscript(fileFromBytes('x.eval', enc.encode('PK\u0003\u0004 and nothing else')));
    expect(r).toMatchObject({ ok: false });
    if (!r.ok)
      expect(r.error).toMatch(
        /^x\.eval (starts like a zip archive, but no entry of it could be read|is a zip archive, but not an Inspect AI eval log)/,
      );
  });
});
