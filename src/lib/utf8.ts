// UTF-8 validation with the byte offset of the first bad sequence, so decoding errors can be
// reported precisely (SPEC §1.3) while the text is still decoded with replacement characters.

/** Offset of the first invalid UTF-8 sequence in `bytes[start, end)`, or -1 when valid. */
export function firstInvalidUtf8(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let i = start;
  while (i < end) {
    const b = bytes[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    if (i + need >= end) return i;
    let cp = b & (need === 1 ? 0x1f : need === 2 ? 0x0f : 0x07);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if ((c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

/**
 * True when the head of a file looks binary (NUL bytes or mostly control characters). A run of NULs that starts a
 * line (after `\n`) and runs to the end of the head or of its line is a crash's padding, not binary content (an
 * agent killed mid-write leaves its preallocated tail as NULs): a small session ending in one is text with a bad line,
 * as a large one is (the NULs past the first 8 KB were never looked at).
 */
export function looksBinary(head: Uint8Array): boolean {
  const n = Math.min(head.length, 8192);
  if (n === 0) return false;
  let control = 0;
  let text = 0;
  for (let i = 0; i < n; i++) {
    const b = head[i];
    if (b === 0) {
      let j = i;
      while (j < n && head[j] === 0) j++;
      const padding = (i === 0 || head[i - 1] === 0x0a) && text > 0 && (j === n || head[j] === 0x0a);
      if (!padding) return true;
      i = j - 1;
      continue;
    }
    text++;
    if (b < 9 || (b > 13 && b < 32)) control++;
  }
  return text === 0 || control / text > 0.1;
}

/** Container and encoding signatures a transcript can arrive in but is not (issue 19, item 10): what it is and
 *  how to make it readable, or null. gzip is read directly by the app and the CLI; the rest are named. */
export function encodingHint(head: Uint8Array): { what: string; fix: string } | null {
  const at = (i: number, ...bytes: number[]) => bytes.every((b, k) => head[i + k] === b);
  if (at(0, 0x1f, 0x8b)) return { what: 'gzip-compressed', fix: 'gunzip it first' };
  if (at(0, 0x42, 0x5a, 0x68)) return { what: 'bzip2-compressed', fix: 'decompress it first (bunzip2 -k)' };
  if (at(0, 0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00)) return { what: 'xz-compressed', fix: 'decompress it first (unxz -k)' };
  if (at(0, 0x28, 0xb5, 0x2f, 0xfd)) return { what: 'zstd-compressed', fix: 'decompress it first (unzstd)' };
  if (at(0, 0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c))
    return { what: 'a 7-Zip archive', fix: 'extract the log from it first' };
  if (at(0, 0xff, 0xfe) || at(0, 0xfe, 0xff) || (head.length >= 4 && head[1] === 0 && head[3] === 0 && head[0] !== 0))
    return { what: 'UTF-16 text', fix: 'convert it to UTF-8 first (iconv -f UTF-16 -t UTF-8)' };
  return null;
}
