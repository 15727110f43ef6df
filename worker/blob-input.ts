// Inputs the page hands the engine without reading them (issue 19, item 3): a File or Blob (picker, drop,
// paste) or a same-origin URL (?src=, samples). Each becomes a SourceFile the synchronous parsers can re-read
// slice by slice (FileReaderSync), so neither the page nor the worker holds the whole file; raw-line views read
// their slices the same way. A Node host names a file on disk instead, opened by the host's own reader (the
// engine's `openPath`: this module imports no file system). A gzip file is undone with the platform's
// DecompressionStream into a Blob (Chromium keeps big blobs on disk), stopped at the file-size limit so a small
// .gz cannot expand without bound.

import { overFileLimit } from '../src/formats/limits.ts';
import type { ByteSource } from '../src/formats/types.ts';
import { grouped } from '../src/lib/digits.ts';
import { servedPageReason } from '../src/lib/served-page.ts';
import type { LoadFile } from './api.ts';

export type Prepared = { ok: true; source: ByteSource; issue?: string } | { ok: false; error: string };

const CHUNK = 1 << 20;
/** Parts of a stream are folded into one Blob every this many bytes (a Blob of Blobs copies nothing). */
const FOLD = 16 << 20;

function sourceFromBytes(name: string, bytes: Uint8Array): ByteSource {
  return {
    name,
    size: bytes.length,
    chunks: function* () {
      for (let i = 0; i < bytes.length; i += CHUNK) yield bytes.subarray(i, Math.min(bytes.length, i + CHUNK));
    },
    chunksFrom: function* (offset) {
      for (let i = offset; i < bytes.length; i += CHUNK) yield bytes.subarray(i, Math.min(bytes.length, i + CHUNK));
    },
    read: (a, b) => bytes.subarray(a, b),
  };
}

type SyncReader = { readAsArrayBuffer(b: Blob): ArrayBuffer };

function syncReader(): SyncReader | null {
  const R = (globalThis as unknown as { FileReaderSync?: new () => SyncReader }).FileReaderSync;
  return R ? new R() : null;
}

/** A Blob read slice by slice, synchronously (workers only: FileReaderSync). */
function sourceFromBlob(name: string, blob: Blob, reader: SyncReader): ByteSource {
  const read = (a: number, b: number) => new Uint8Array(reader.readAsArrayBuffer(blob.slice(a, b)));
  return {
    name,
    size: blob.size,
    chunks: function* () {
      for (let i = 0; i < blob.size; i += CHUNK) yield read(i, Math.min(blob.size, i + CHUNK));
    },
    chunksFrom: function* (offset) {
      for (let i = offset; i < blob.size; i += CHUNK) yield read(i, Math.min(blob.size, i + CHUNK));
    },
    read,
  };
}

/** A stream's bytes as one Blob, or how far it got past `cap` bytes (the stream is then cancelled). */
export async function spool(
  stream: ReadableStream<Uint8Array>,
  cap: number,
  onBytes?: (n: number) => void,
): Promise<{ ok: true; blob: Blob; error?: string } | { ok: false; bytes: number }> {
  const reader = stream.getReader();
  let blob = new Blob([]);
  let parts: Uint8Array[] = [];
  let pending = 0;
  let total = 0;
  let error: string | undefined;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > cap) {
        await reader.cancel().catch(() => {});
        return { ok: false, bytes: total };
      }
      parts.push(value);
      pending += value.byteLength;
      if (pending >= FOLD) {
        blob = new Blob([blob, ...(parts as BlobPart[])]);
        parts = [];
        pending = 0;
      }
      onBytes?.(total);
    }
  } catch (e) {
    // A truncated or corrupt stream: keep what arrived, say where it stopped.
    error = `${e instanceof Error ? e.message : String(e)} after ${grouped(total)} bytes`;
  }
  return { ok: true, blob: new Blob([blob, ...(parts as BlobPart[])]), error };
}

const GZ_NAME = /\.(gz|gzip)$/i;

const isGzipHead = (head: Uint8Array) => head.length === 3 && head[0] === 0x1f && head[1] === 0x8b && head[2] === 8;

async function isGzip(blob: Blob): Promise<boolean> {
  return isGzipHead(new Uint8Array(await blob.slice(0, 3).arrayBuffer()));
}

/** Turn what the page sent into a re-readable source under `maxBytes` (the file-size limit), gzip undone; a
 *  `{ path }` file is opened with `openPath` (a Node host's reader), never read whole unless it is gzip. */
export async function prepareInput(
  f: LoadFile,
  maxBytes: number,
  onFraction?: (fraction: number) => void,
  openPath?: (path: string) => ByteSource,
): Promise<Prepared> {
  if ('buffer' in f) return { ok: true, source: sourceFromBytes(f.name, new Uint8Array(f.buffer)) };
  const name = f.name.replace(/[\r\n\u2028\u2029]+/g, ' ');
  let blob: Blob;
  if ('path' in f) {
    if (!openPath) return { ok: false, error: `Could not open ${name}: this engine reads no files by path.` };
    let source: ByteSource;
    try {
      source = openPath(f.path);
    } catch (e) {
      return { ok: false, error: `Could not open ${name}: ${e instanceof Error ? e.message : String(e)}` };
    }
    if (source.size > maxBytes) return { ok: false, error: `${name} ${overFileLimit(maxBytes, source.size)}.` };
    if (!isGzipHead(source.read(0, 3))) return { ok: true, source: { ...source, name: f.name } };
    // A gzip file: its compressed bytes as a Blob, undone below as a picked one is.
    blob = new Blob([...source.chunks()] as BlobPart[]);
  } else if ('url' in f) {
    let res: Response;
    try {
      res = await fetch(f.url);
    } catch (e) {
      return { ok: false, error: `Could not fetch ${name}: ${e instanceof Error ? e.message : String(e)}` };
    }
    if (!res.ok) return { ok: false, error: `Could not fetch ${name}: ${res.status} ${res.statusText}` };
    const page = servedPageReason(res, f.url);
    if (page) {
      await res.body?.cancel().catch(() => {});
      return { ok: false, error: `Could not fetch ${name}: ${page}.` };
    }
    const length = Number(res.headers.get('content-length') ?? Number.NaN);
    if (length > maxBytes) {
      await res.body?.cancel().catch(() => {});
      return {
        ok: false,
        error: `${name} ${overFileLimit(maxBytes, length)}.`,
      };
    }
    if (!res.body) return { ok: false, error: `Could not fetch ${name}: the response has no body` };
    const got = await spool(res.body, maxBytes, (n) => length > 0 && onFraction?.(n / length));
    if (!got.ok) return { ok: false, error: `${name} ${overFileLimit(maxBytes, null)}.` };
    if (got.error) return { ok: false, error: `Could not fetch ${name}: ${got.error}` };
    blob = got.blob;
  } else {
    blob = f.blob;
    if (blob.size > maxBytes)
      return {
        ok: false,
        error: `${name} ${overFileLimit(maxBytes, blob.size)}.`,
      };
  }
  let outName = f.name;
  let issue: string | undefined;
  if (await isGzip(blob)) {
    const unzipped = blob
      .stream()
      .pipeThrough(new DecompressionStream('gzip') as TransformStream<Uint8Array, Uint8Array>);
    const got = await spool(unzipped, maxBytes, (n) => onFraction?.(Math.min(1, n / maxBytes)));
    if (!got.ok)
      return {
        ok: false,
        error: `${name} ${overFileLimit(maxBytes, null, true)}.`,
      };
    if (got.error) issue = `the gzip stream ended early (${got.error}); the lines before that point are loaded`;
    blob = got.blob;
    outName = GZ_NAME.test(f.name) ? f.name.replace(GZ_NAME, '') : f.name;
  }
  const reader = syncReader();
  // Outside a worker (Node tests, the in-thread fallback) there is no synchronous Blob reader: read it whole.
  const source = reader
    ? sourceFromBlob(outName, blob, reader)
    : sourceFromBytes(outName, new Uint8Array(await blob.arrayBuffer()));
  return { ok: true, source, issue };
}
