// Bounded slices for streaming decoders. A compressed slice expands at most ~1,032× (deflate; zstd and gzip are
// similar), so a decoder fed 8 KB at a time produces at most a few MB before its caller can check a size limit and
// stop: a 2 MB bomb that inflates to gigabytes is refused after the limit, never expanded whole. Used by every
// decoder of untrusted bytes: share links (share/bytes.ts) and zip entries of `.eval` logs (formats/zip-entries.ts).

const DECODE_SLICE = 8192;

/** `bytes` in consecutive views of at most `size` bytes (no copies). */
export function* slices(bytes: Uint8Array, size = DECODE_SLICE): Generator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}
