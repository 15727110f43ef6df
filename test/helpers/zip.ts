// Zip archives for tests: the entries of a real `.eval` fixture (read with fflate), written back as stored,
// deflate or zstd (method 93, Inspect's default since 2026) entries, with or without data descriptors. The
// zstd frames use raw blocks (this file has no zstd compressor); real compressed frames are tested separately.
import { readFileSync } from 'node:fs';
import { deflateSync, unzipSync } from 'fflate';
import { crc32 } from '../../src/lib/crc32.ts';

/** The entries of a zip file, in file order, decompressed (fflate's reader, not ours). */
export function entriesOf(path: string): [string, Uint8Array][] {
  const bytes = new Uint8Array(readFileSync(path));
  return Object.entries(unzipSync(bytes));
}

/** Bytes appended piecewise (little-endian integers) into one growing buffer. */
class Bytes {
  private buf = new Uint8Array(1 << 16);
  length = 0;
  private room(n: number): number {
    if (this.length + n > this.buf.length) {
      const grown = new Uint8Array(Math.max(this.buf.length * 2, this.length + n));
      grown.set(this.buf.subarray(0, this.length));
      this.buf = grown;
    }
    const at = this.length;
    this.length += n;
    return at;
  }
  add(b: Uint8Array | number[]): this {
    const at = this.room(b.length);
    this.buf.set(b, at);
    return this;
  }
  u16(v: number): this {
    const at = this.room(2);
    new DataView(this.buf.buffer).setUint16(at, v, true);
    return this;
  }
  u32(v: number): this {
    const at = this.room(4);
    new DataView(this.buf.buffer).setUint32(at, v >>> 0, true);
    return this;
  }
  bytes(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

/** Zstd frames of raw blocks (≤ 128 KiB each), a new frame every `frameBytes` (Inspect writes multi-frame). */
function zstdRawFrames(data: Uint8Array, frameBytes = 64 * 1024): Uint8Array {
  const out = new Bytes();
  for (let f = 0; f === 0 || f < data.length; f += frameBytes) {
    const frame = data.subarray(f, Math.min(data.length, f + frameBytes));
    out.add([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38]); // magic; no content size, checksum or dictionary; 128 KiB window
    for (let b = 0; b === 0 || b < frame.length; b += 128 * 1024) {
      const block = frame.subarray(b, Math.min(frame.length, b + 128 * 1024));
      const last = b + block.length >= frame.length ? 1 : 0;
      const header = (block.length << 3) | last; // block type 0: raw
      out.add([header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff]).add(block);
    }
  }
  return out.bytes();
}

type Method = 'stored' | 'deflate' | 'zstd';
export type ZipOptions = { method?: Method; descriptors?: boolean };

const CODE: Record<Method, number> = { stored: 0, deflate: 8, zstd: 93 };

function compress(data: Uint8Array, method: Method): Uint8Array {
  if (method === 'deflate') return deflateSync(data);
  if (method === 'zstd') return zstdRawFrames(data);
  return data;
}

/** A zip archive of `entries`; with `descriptors`, sizes and CRC follow each entry (flag bit 3) as streamers write. */
export function makeZip(entries: [string, Uint8Array][], opts: ZipOptions = {}): Uint8Array {
  const method = opts.method ?? 'deflate';
  const out = new Bytes();
  const central = new Bytes();
  for (const [name, data] of entries) {
    const packed = compress(data, method);
    const nameBytes = new TextEncoder().encode(name);
    const crc = crc32(data);
    const offset = out.length;
    const flags = 0x0800 | (opts.descriptors ? 0x0008 : 0);
    const sizes = (b: Bytes, zero: boolean) =>
      b
        .u32(zero ? 0 : crc)
        .u32(zero ? 0 : packed.length)
        .u32(zero ? 0 : data.length);
    out.u32(0x04034b50).u16(20).u16(flags).u16(CODE[method]).u32(0); // version, flags, method, time+date
    sizes(out, opts.descriptors === true)
      .u16(nameBytes.length)
      .u16(0)
      .add(nameBytes)
      .add(packed);
    if (opts.descriptors) sizes(out.u32(0x08074b50), false);
    central.u32(0x02014b50).u16(20).u16(20).u16(flags).u16(CODE[method]).u32(0);
    sizes(central, false).u16(nameBytes.length).u16(0).u16(0).u16(0).u16(0).u32(0).u32(offset).add(nameBytes);
  }
  const cdOffset = out.length;
  const cdSize = central.length;
  out.add(central.bytes());
  out.u32(0x06054b50).u16(0).u16(0).u16(entries.length).u16(entries.length).u32(cdSize).u32(cdOffset).u16(0);
  return out.bytes();
}
