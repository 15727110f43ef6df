// Byte plumbing for share links: raw DEFLATE through the platform's CompressionStream('deflate-raw')
// (Node ≥ 20.12 and every Chromium/Firefox/Safari of the last years: no dependency, no WASM) and
// base64url without padding (RFC 4648 §5), the only alphabet that survives a URL fragment untouched.
// Inflation is capped and fed in small slices, so a hostile link cannot expand into gigabytes.
import { slices } from '../lib/slices.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const INDEX = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) INDEX[ALPHABET.charCodeAt(i)] = i;

/** base64url of `bytes`, without `=` padding. */
export function toBase64Url(bytes: Uint8Array): string {
  const parts: string[] = [];
  let chunk = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    chunk += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63] + ALPHABET[(n >> 6) & 63] + ALPHABET[n & 63];
    if (chunk.length >= 8192) {
      parts.push(chunk);
      chunk = '';
    }
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i] << 16;
    chunk += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63];
  } else if (rest === 2) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8);
    chunk += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63] + ALPHABET[(n >> 6) & 63];
  }
  parts.push(chunk);
  return parts.join('');
}

/** Bytes of a base64url string (padding optional); null when it holds a character outside the alphabet. */
export function fromBase64Url(text: string): Uint8Array | null {
  const s = text.replace(/=+$/, '');
  if (s.length % 4 === 1) return null;
  const out = new Uint8Array(Math.floor((s.length * 3) / 4));
  let buf = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const v = c < 128 ? INDEX[c] : -1;
    if (v < 0) return null;
    buf = ((buf << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (buf >> bits) & 0xff;
    }
  }
  return out.subarray(0, o);
}

async function pump(input: Uint8Array, stream: TransformStream<Uint8Array, Uint8Array>, limit: number) {
  const writer = stream.writable.getWriter();
  // All slices are queued at once (the transform takes them as the reader drains it); a failure surfaces on
  // the reader, and cancelling the reader drops what is still queued.
  // Input is queued in bounded slices (lib/slices.ts): the stream transforms one slice per read, so the cap is
  // checked every few MB of output rather than after the whole bomb has expanded.
  for (const slice of slices(input)) void writer.write(slice).catch(() => {});
  const written = writer.close().catch(() => undefined);
  const reader = stream.readable.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new RangeError(`expands beyond ${Math.round(limit / 1024 / 1024)} MB`);
    }
    chunks.push(value);
  }
  await written;
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** Raw DEFLATE (no zlib header) of `bytes`. */
export function deflateRaw(bytes: Uint8Array): Promise<Uint8Array> {
  return pump(bytes, new CompressionStream('deflate-raw') as TransformStream<Uint8Array, Uint8Array>, Infinity);
}

/** Inverse of deflateRaw; rejects on corrupt data or when the output would exceed `limit` bytes. */
export function inflateRaw(bytes: Uint8Array, limit = 512 * 1024 * 1024): Promise<Uint8Array> {
  return pump(bytes, new DecompressionStream('deflate-raw') as TransformStream<Uint8Array, Uint8Array>, limit);
}
