// Streaming reader of zip archives (Inspect's `.eval` logs) over byte chunks: walks the local file headers in file
// order, in one pass, holding no more than the entry being decompressed. Wanted entries are decompressed by the
// libraries (deflate: fflate; zstd, method 93, Inspect's default since 2026: fzstd); others are skipped unread.
// Compressed data reaches a decoder in bounded slices (lib/slices.ts), the entry limit checked between them, so a
// bomb stops at the limit. Data-descriptor entries end at the descriptor whose size field matches. Bad input never
// throws: a corrupt or unsupported entry is an error on that entry, junk is skipped with a problem, truncation ends
// the walk with one.
import { Inflate } from 'fflate';
import { Decompress } from 'fzstd';
import { ByteReader, u16, u32, u64 } from '../lib/byte-reader.ts';
import { formatBytes } from '../lib/bytes.ts';
import { crc32 } from '../lib/crc32.ts';
import { concatBytes } from '../lib/lines.ts';
import { slices } from '../lib/slices.ts';

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const END = 0x06054b50;
const END64 = 0x06064b50;
const DESCRIPTOR = 0x08074b50;
const NO_SIZE = 0xffffffff;

/** `PK\x03\x04`: a zip archive's first local file header. */
export function isZip(head: Uint8Array): boolean {
  return head.length >= 4 && u32(head, 0) === LOCAL;
}

export type ZipEntry = {
  name: string;
  /** Compression method: 0 stored, 8 deflate, 93 zstd. */
  method: number;
  /** The decompressed bytes, for a wanted entry that read cleanly. */
  bytes?: Uint8Array;
  /** Why a wanted entry could not be read. */
  error?: string;
};

export type ZipReadOptions = {
  /** Entries to decompress; the others are listed without their bytes. */
  want: (name: string) => boolean;
  /** A wanted entry larger than this (declared or decompressed) is abandoned with an error. */
  maxEntryBytes: number;
  /** Problems of the archive itself (junk between entries, truncation). */
  problem: (message: string) => void;
  /** Bytes of the archive consumed so far. */
  progress?: (bytesRead: number) => void;
};

const METHOD_NAMES: Record<number, string> = { 9: 'deflate64', 12: 'bzip2', 14: 'lzma', 95: 'xz', 98: 'ppmd' };

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** Index of the first `PK` signature among `sigs` in `b` at or after `from` (4 bytes at hand), or -1. */
function findSig(b: Uint8Array, from: number, sigs: readonly number[]): number {
  for (let i = b.indexOf(0x50, from); i >= 0 && i + 4 <= b.length; i = b.indexOf(0x50, i + 1)) {
    if (b[i + 1] === 0x4b && sigs.includes(u32(b, i))) return i;
  }
  return -1;
}

/** Where one wanted entry's compressed bytes go: a decoder from the libraries, collecting what it produces. */
type Sink = { push: (piece: Uint8Array) => void; end: (crc: number) => void };

function sinkFor(entry: ZipEntry, flags: number, declared: number | undefined, max: number): Sink | undefined {
  const refuse = (message: string) => {
    entry.error = message;
    return undefined;
  };
  if (flags & 1) return refuse('is encrypted; not supported');
  if (declared !== undefined && declared > max)
    return refuse(`declares ${formatBytes(declared)}, over the ${formatBytes(max)} entry limit; skipped`);
  const m = entry.method;
  if (m !== 0 && m !== 8 && m !== 93) {
    return refuse(
      `compression method ${m} (${METHOD_NAMES[m] ?? 'unknown'}) is not supported (stored, deflate and zstd are)`,
    );
  }
  const parts: Uint8Array[] = [];
  let size = 0;
  let crc = 0;
  let state: 'open' | 'done' | 'failed' = 'open';
  const fail = (message: string) => {
    if (state !== 'open') return;
    state = 'failed';
    entry.error = message;
    parts.length = 0; // what was decompressed goes now, not when the walk ends
  };
  const out = (data: Uint8Array, final?: boolean) => {
    if (state !== 'open') return;
    size += data.length;
    if (size > max) return fail(`decompresses to over the ${formatBytes(max)} entry limit; skipped`);
    if (data.length > 0) parts.push(data);
    crc = crc32(data, crc);
    if (final) state = 'done';
  };
  const decoder = m === 8 ? new Inflate(out) : m === 93 ? new Decompress(out) : { push: out };
  const guarded = (f: () => void) => {
    if (state !== 'open') return;
    try {
      f();
    } catch (e) {
      fail(`could not be decompressed: ${errorText(e)}`);
    }
  };
  return {
    // In bounded slices, the limit checked between them: a whole 1 MB piece of a bomb would expand to ~1 GB first.
    push: (piece) => {
      for (const slice of slices(piece)) {
        if (state !== 'open') return;
        guarded(() => decoder.push(slice, false));
      }
    },
    end: (expected) => {
      guarded(() => decoder.push(new Uint8Array(0), true));
      if (state === 'open') fail('its compressed data ends before the stream does');
      if (state === 'done' && crc !== expected) {
        state = 'failed';
        entry.error = 'its CRC-32 does not match: the entry is damaged; skipped';
      }
      if (state === 'done') entry.bytes = concatBytes(parts, size);
    },
  };
}

/** Hand `n` bytes of entry data to `sink` (or drop them); false when the input ends first. */
function copyData(r: ByteReader, n: number, sink: Sink | undefined): boolean {
  for (let left = n; left > 0; ) {
    const piece = r.take(left);
    if (!piece) return false;
    left -= piece.length;
    sink?.push(piece);
  }
  return true;
}

/**
 * Data of unknown size (flag bit 3): it ends at a data descriptor whose compressed-size field equals the bytes
 * before it. Only the 3 bytes that could start a signature are carried between pieces. Returns the descriptor's
 * CRC-32, or undefined when the input ends first.
 */
function scanData(r: ByteReader, zip64: boolean, sink: Sink | undefined): number | undefined {
  const size = zip64 ? 24 : 16;
  let consumed = 0;
  for (;;) {
    if (!r.fill(4)) return undefined;
    for (let i = findSig(r.bytes, 0, [DESCRIPTOR]); i >= 0; i = findSig(r.bytes, i + 1, [DESCRIPTOR])) {
      if (!r.fill(i + size)) break;
      const b = r.bytes;
      if ((zip64 ? u64(b, i + 8) : u32(b, i + 8)) === consumed + i) {
        const crc = u32(b, i + 4);
        sink?.push(b.subarray(0, i));
        r.skip(i + size);
        return crc;
      }
    }
    const keep = Math.min(3, r.bytes.length);
    const feed = r.bytes.length - keep;
    sink?.push(r.bytes.subarray(0, feed));
    r.skip(feed);
    consumed += feed;
    if (!r.fill(keep + 1)) return undefined;
  }
}

/** The data descriptor after data of known size: its CRC-32 (the signature is optional). */
function readDescriptor(r: ByteReader, zip64: boolean): number | undefined {
  if (!r.fill(4)) return undefined;
  const signed = u32(r.bytes, 0) === DESCRIPTOR;
  const size = (signed ? 4 : 0) + (zip64 ? 20 : 12);
  if (!r.fill(size)) return undefined;
  const crc = u32(r.bytes, signed ? 4 : 0);
  r.skip(size);
  return crc;
}

/** Bytes up to the next signature a walk can go on from (or the end of input); how many were skipped. */
function resync(r: ByteReader): number {
  let skipped = 0;
  for (let from = 1; ; from = 0) {
    if (!r.fill(4)) {
      const rest = r.bytes.length;
      r.skip(rest);
      return skipped + rest;
    }
    const i = findSig(r.bytes, from, [LOCAL, CENTRAL, END, END64]);
    const n = i >= 0 ? i : r.bytes.length - 3;
    r.skip(n);
    skipped += n;
    if (i >= 0) return skipped;
  }
}

/** One entry, from its local header to the end of its data (and descriptor); undefined when the input ends. */
function readEntry(
  r: ByteReader,
  opts: ZipReadOptions,
  open: { entry?: ZipEntry },
  utf8: TextDecoder,
): ZipEntry | undefined {
  if (!r.fill(30)) return undefined;
  const head = r.bytes;
  const flags = u16(head, 6);
  const localCrc = u32(head, 14);
  let csize = u32(head, 18);
  let usize = u32(head, 22);
  const nameLength = u16(head, 26);
  const extraEnd = 30 + nameLength + u16(head, 28);
  const method = u16(head, 8);
  if (!r.fill(extraEnd)) return undefined;
  const b = r.bytes;
  const name = utf8.decode(b.subarray(30, 30 + nameLength));
  let zip64 = false;
  for (let i = 30 + nameLength; i + 4 <= extraEnd; i += 4 + u16(b, i + 2)) {
    if (u16(b, i) !== 1) continue;
    zip64 = true;
    let k = i + 4;
    if (usize === NO_SIZE && k + 8 <= extraEnd) {
      usize = u64(b, k);
      k += 8;
    }
    if (csize === NO_SIZE && k + 8 <= extraEnd) csize = u64(b, k);
  }
  r.skip(extraEnd);
  const entry: ZipEntry = { name, method };
  open.entry = entry;
  const described = (flags & 8) !== 0;
  const sized = !described || csize > 0;
  const sink = opts.want(name) ? sinkFor(entry, flags, sized ? usize : undefined, opts.maxEntryBytes) : undefined;
  let crc: number | undefined = localCrc;
  if (!sized) crc = scanData(r, zip64, sink);
  else if (!copyData(r, csize, sink)) crc = undefined;
  else if (described) crc = readDescriptor(r, zip64);
  if (crc === undefined) return undefined;
  sink?.end(crc);
  open.entry = undefined;
  return entry;
}

/**
 * The archive's entries in file order: wanted ones with their bytes (or an error), the others by name only.
 * A walk stops at the central directory; an archive cut short reports where. Never throws.
 */
export function* zipEntries(chunks: Iterable<Uint8Array>, opts: ZipReadOptions): Generator<ZipEntry> {
  const r = new ByteReader(chunks);
  const utf8 = new TextDecoder();
  let count = 0;
  for (;;) {
    if (!r.fill(4)) {
      const why = r.bytes.length > 0 ? 'inside a header' : 'without its central directory';
      opts.problem(`the archive ends ${why} after ${count} entries, at byte ${r.offset}: it is truncated`);
      return;
    }
    const sig = u32(r.bytes, 0);
    if (sig === CENTRAL || sig === END || sig === END64) return;
    if (sig !== LOCAL) {
      const at = r.offset;
      const skipped = resync(r);
      opts.problem(`${skipped} bytes at byte ${at} are not a zip entry; skipped`);
      continue;
    }
    const open: { entry?: ZipEntry } = {};
    const entry = readEntry(r, opts, open, utf8);
    opts.progress?.(r.offset);
    if (!entry) {
      const cut = open.entry;
      if (cut) {
        cut.error = 'the archive ends inside this entry';
        if (!opts.want(cut.name)) cut.error = undefined;
        yield cut;
      }
      opts.problem(
        `the archive ends inside ${cut ? `entry ${cut.name}` : 'a header'}, at byte ${r.offset}: it is truncated`,
      );
      return;
    }
    count++;
    yield entry;
  }
}
