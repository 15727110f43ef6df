// Streaming reader of zip archives (Inspect's `.eval` logs) over byte chunks: fflate's Unzip walks the local
// file headers in file order; the entries a caller wants are decompressed one at a time (deflate by fflate, zstd —
// method 93, Inspect's default since 2026 — by fzstd) and handed over whole, the others are skipped undecompressed.
// Never throws on bad data: a corrupt entry, an unsupported method or a truncated archive become errors.
import { type FlateError, Inflate, Unzip, type UnzipDecoder, type UnzipFile } from 'fflate';
import { Decompress } from 'fzstd';

/** `PK\x03\x04`: a zip archive's first local file header. */
export function isZip(head: Uint8Array): boolean {
  return head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;
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
  /** Problems of the archive itself (truncated, unreadable structure). */
  problem: (message: string) => void;
  /** Bytes of the archive consumed so far. */
  progress?: (bytesRead: number) => void;
};

const METHOD_NAMES: Record<number, string> = { 9: 'deflate64', 12: 'bzip2', 14: 'lzma', 95: 'xz', 98: 'ppmd' };
/** Pushed to fflate in slices this big: it recurses once per entry within a push, so a slice bounds the depth. */
const SLICE = 16 * 1024;

/** A decoder fflate's Unzip can drive, which stops working (and producing) once terminated. */
function decoder(method: number, make: (out: (data: Uint8Array, final: boolean) => void) => Pushable) {
  return class implements UnzipDecoder {
    static compression = method;
    ondata: UnzipDecoder['ondata'] = () => {};
    private stopped = false;
    // Both decoders hand out views of plain ArrayBuffers (never shared ones).
    private inner = make((data, final) => {
      if (!this.stopped) this.ondata(null, data as Uint8Array<ArrayBuffer>, final);
    });
    push(chunk: Uint8Array, final: boolean): void {
      if (this.stopped) return;
      try {
        this.inner.push(chunk, final);
      } catch (e) {
        this.stopped = true;
        const error: FlateError = Object.assign(new Error(errorText(e)), { code: -1 });
        this.ondata(error, new Uint8Array(0), true);
      }
    }
    terminate(): void {
      this.stopped = true;
    }
  };
}
type Pushable = { push: (chunk: Uint8Array, final?: boolean) => unknown };

const InflateDecoder = decoder(8, (out) => new Inflate((data, final) => out(data, final)));
const ZstdDecoder = decoder(93, (out) => new Decompress((data, final) => out(data, final === true)));

function concat(parts: Uint8Array[], size: number): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * The archive's entries in file order: wanted ones with their bytes (or an error), the others by name only.
 * Holds at most the entry being decompressed (plus a slice of the archive); nothing throws.
 */
export function* zipEntries(chunks: Iterable<Uint8Array>, opts: ZipReadOptions): Generator<ZipEntry> {
  const ready: ZipEntry[] = [];
  let reading: ZipEntry | undefined;
  const unzip = new Unzip((file: UnzipFile) => {
    const entry: ZipEntry = { name: file.name, method: file.compression };
    if (!opts.want(file.name)) {
      ready.push(entry);
      return;
    }
    const fail = (message: string) => {
      entry.error = message;
      file.terminate();
      ready.push(entry);
      reading = undefined;
    };
    if (file.originalSize !== undefined && file.originalSize > opts.maxEntryBytes) {
      entry.error = `declares ${file.originalSize} bytes, over the ${opts.maxEntryBytes}-byte entry limit; skipped`;
      ready.push(entry);
      return;
    }
    if (![0, 8, 93].includes(file.compression)) {
      const what = METHOD_NAMES[file.compression] ?? 'unknown';
      entry.error = `compression method ${file.compression} (${what}) is not supported (stored, deflate and zstd are)`;
      ready.push(entry);
      return;
    }
    const parts: Uint8Array[] = [];
    let size = 0;
    reading = entry;
    file.ondata = (err, data, final) => {
      if (reading !== entry) return;
      if (err) return fail(`could not be decompressed: ${errorText(err)}`);
      size += data.length;
      if (size > opts.maxEntryBytes) return fail(`decompresses to over ${opts.maxEntryBytes} bytes; skipped`);
      if (data.length > 0) parts.push(data);
      if (final) {
        entry.bytes = concat(parts, size);
        ready.push(entry);
        reading = undefined;
      }
    };
    file.start();
  });
  unzip.register(InflateDecoder);
  unzip.register(ZstdDecoder);

  let read = 0;
  try {
    for (const chunk of chunks) {
      for (let at = 0; at < chunk.length; at += SLICE) {
        unzip.push(chunk.subarray(at, Math.min(chunk.length, at + SLICE)), false);
        if (ready.length > 0) yield* ready.splice(0);
      }
      read += chunk.length;
      opts.progress?.(read);
    }
    unzip.push(new Uint8Array(0), true);
  } catch (e) {
    const open = reading as ZipEntry | undefined;
    if (open) {
      open.error = 'the archive ends (or breaks) inside this entry';
      ready.push(open);
    }
    opts.problem(`the archive is truncated or corrupt after byte ${read}: ${errorText(e)}`);
  }
  yield* ready.splice(0);
}
