// Exact BPE token counting over js-tiktoken's rank files, without js-tiktoken's quadratic merge:
// pieces from the same pre-tokenization regex are memoised, short pieces merge with a simple scan,
// long pieces with a heap (O(n log n)) that reproduces tiktoken's "lowest rank, leftmost first"
// order exactly. Special-token text is counted as plain text (SPEC §2), so nothing ever throws.
// Texts over 64 K characters are counted window by window, cut at a space between two non-spaces (always a
// piece boundary, so the count stays exact) or else before the window's last two pieces (exact too); only a
// window that is nearly one piece (a run of one letter class) is cut hard,
// and a piece over 4 KB (a run of one character) merges in 4 KB chunks, each cut off by at most one token;
// equal windows and chunks are counted once — so a 5 M-letter run neither overflows the regex stack nor
// costs seconds per MB.

/** Rank data as shipped by js-tiktoken (`js-tiktoken/ranks/<name>`). */
export type RankFile = { pat_str: string; special_tokens: Record<string, number>; bpe_ranks: string };

import { type PackedRanks, PackedTable, type RankTable } from './packed-ranks.ts';

export type { PackedRanks } from './packed-ranks.ts';

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_INDEX = new Int16Array(128).fill(-1);
for (let i = 0; i < B64.length; i++) B64_INDEX[B64.charCodeAt(i)] = i;

/** Decode base64 to a "byte string" (one char per byte, code 0–255). */
function b64ToByteString(s: string): string {
  let out = '';
  let buf = 0;
  let bits = 0;
  for (let i = 0; i < s.length; i++) {
    const v = B64_INDEX[s.charCodeAt(i)];
    if (v < 0) continue; // '=' padding
    buf = (buf << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += String.fromCharCode((buf >> bits) & 0xff);
    }
  }
  return out;
}

/** UTF-8 bytes of `s` as a byte string (lone surrogates become U+FFFD, as TextEncoder does). */
function utf8ByteString(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) {
      out += s[i];
      continue;
    }
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      } else c = 0xfffd;
    } else if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
    if (c < 0x800) out += String.fromCharCode(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out += String.fromCharCode(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else out += String.fromCharCode(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return out;
}

const SMALL_PIECE = 256;
/** Texts are counted in windows of at most this many UTF-16 units (the pre-tokenizer regex never sees more). */
const WINDOW = 1 << 16;
/** A piece longer than this many bytes (a run of one character) is merged in chunks of it, each chunk counted
 *  once per piece: BPE over one long run is superlinear, and the cut costs at most one token per chunk. */
const PIECE_CHUNK = 1 << 12;

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x0b || c === 0x0c;

/** The last index in (from, to] holding a single space between two non-whitespace characters (pieces never
 *  run across it: the piece before ends at the non-space, the next one starts with the space), or -1. */
function spaceCut(text: string, from: number, to: number): number {
  for (let i = to - 1; i > from; i--) {
    if (text.charCodeAt(i) !== 0x20) continue;
    const before = text.charCodeAt(i - 1);
    const after = text.charCodeAt(i + 1);
    // Not inside a surrogate pair or after a whitespace run (`\s+(?!\S)` could then take the space).
    if (!isSpace(before) && !isSpace(after) && !(after >= 0xdc00 && after <= 0xdfff)) return i;
  }
  return -1;
}
const MEMO_LIMIT = 400_000;
/** No rank: a pair that is no token. */
const NONE = Number.POSITIVE_INFINITY;
const MEMO_MAX_PIECE = 64;

export class BpeCounter {
  private readonly ranks: RankTable;
  private readonly pattern: RegExp;
  private memo = new Map<string, number>();
  /** mergeSmall's scratch: part starts and adjacent pairs' ranks of one piece. */
  private readonly starts = new Int32Array(SMALL_PIECE + 1);
  private readonly pairs = new Float64Array(SMALL_PIECE);

  constructor(file: RankFile | PackedRanks) {
    this.pattern = new RegExp(file.pat_str, 'gu');
    if ('packed' in file) {
      this.ranks = new PackedTable(file.packed);
      return;
    }
    const ranks = new Map<string, number>();
    this.ranks = ranks;
    for (const line of file.bpe_ranks.split('\n')) {
      if (line === '') continue;
      const parts = line.split(' ');
      const offset = Number.parseInt(parts[1], 10);
      for (let i = 2; i < parts.length; i++) ranks.set(b64ToByteString(parts[i]), offset + i - 2);
    }
  }

  /** Exact token count of `text` (equal to js-tiktoken `encode(text, [], []).length`; see the header for
   *  runs over 64 K characters without a space). */
  count(text: string): number {
    if (text.length <= WINDOW) return this.countWindow(text);
    let n = 0;
    const hardCut = new Map<string, number>();
    for (let start = 0; start < text.length; ) {
      let end = Math.min(text.length, start + WINDOW);
      let hard = false;
      if (end < text.length) {
        const cut = spaceCut(text, start + WINDOW / 2, end);
        const piece = cut > 0 ? -1 : this.pieceCut(text, start, end);
        if (cut > 0) end = cut;
        else if (piece > 0) end = piece;
        else {
          hard = true; // at a code point boundary
          if (text.charCodeAt(end) >= 0xdc00 && text.charCodeAt(end) <= 0xdfff) end--;
        }
      }
      const part = text.slice(start, end);
      if (hard) {
        let k = hardCut.get(part);
        if (k === undefined) {
          k = this.countWindow(part);
          hardCut.set(part, k);
        }
        n += k;
      } else n += this.countWindow(part);
      start = end;
    }
    return n;
  }

  /** Where a window with no space cut can still be cut exactly: the start of its second-to-last piece. The
   *  regex reads left to right and only a match that reaches the window's end (or looks one character past it)
   *  can differ from the whole text's, so every piece before the last two is the whole text's own. -1 when the
   *  window is (nearly) one piece — a run of one letter class, cut hard. */
  private pieceCut(text: string, start: number, end: number): number {
    const re = this.pattern;
    const window = text.slice(start, end);
    re.lastIndex = 0;
    let last = -1;
    let beforeLast = -1;
    for (let m = re.exec(window); m !== null; m = re.exec(window)) {
      beforeLast = last;
      last = m.index;
    }
    return beforeLast > WINDOW / 4 ? start + beforeLast : -1;
  }

  private countWindow(text: string): number {
    if (text.length === 0) return 0;
    let n = 0;
    const re = this.pattern;
    re.lastIndex = 0;
    let m: RegExpExecArray | null = re.exec(text);
    while (m !== null) {
      n += this.countPiece(m[0]);
      m = re.exec(text);
    }
    return n;
  }

  /** Token count of one pre-tokenized piece. */
  countPiece(piece: string): number {
    const cached = this.memo.get(piece);
    if (cached !== undefined) return cached;
    const bytes = utf8ByteString(piece);
    const n = this.ranks.has(bytes)
      ? 1
      : bytes.length <= SMALL_PIECE
        ? this.mergeSmall(bytes)
        : bytes.length <= PIECE_CHUNK
          ? this.mergeHeap(bytes)
          : this.mergeChunks(bytes);
    if (piece.length <= MEMO_MAX_PIECE) {
      if (this.memo.size >= MEMO_LIMIT) this.memo = new Map();
      this.memo.set(piece, n);
    }
    return n;
  }

  /** A long piece in PIECE_CHUNK-byte chunks cut at UTF-8 character starts; equal chunks merged once. */
  private mergeChunks(bytes: string): number {
    const seen = new Map<string, number>();
    let n = 0;
    for (let at = 0; at < bytes.length; ) {
      let end = Math.min(bytes.length, at + PIECE_CHUNK);
      while (end < bytes.length && end > at + 1 && (bytes.charCodeAt(end) & 0xc0) === 0x80) end--;
      const chunk = bytes.slice(at, end);
      let k = seen.get(chunk);
      if (k === undefined) {
        k = this.ranks.has(chunk) ? 1 : this.mergeHeap(chunk);
        seen.set(chunk, k);
      }
      n += k;
      at = end;
    }
    return n;
  }

  /** Merge for short pieces: part starts and the rank of each adjacent pair kept in arrays, the leftmost lowest
   *  pair merged and only its two neighbouring pairs looked up again (tiktoken's own loop): a piece of n bytes
   *  costs about 3n rank lookups instead of n² / 2. */
  private mergeSmall(bytes: string): number {
    const ranks = this.ranks;
    let n = bytes.length + 1; // part starts, the last one the end
    const starts = this.starts;
    const pair = this.pairs;
    for (let i = 0; i < n; i++) starts[i] = i;
    for (let i = 0; i + 2 < n; i++) pair[i] = ranks.get(bytes.slice(i, i + 2)) ?? NONE;
    while (n > 2) {
      let best = -1;
      let bestRank = NONE;
      for (let i = 0; i + 2 < n; i++)
        if (pair[i] < bestRank) {
          bestRank = pair[i];
          best = i;
        }
      if (best < 0) break;
      // Merge parts best and best + 1: drop the start between them, then re-rank the pairs that changed.
      for (let i = best + 1; i + 1 < n; i++) starts[i] = starts[i + 1];
      for (let i = best + 1; i + 2 < n; i++) pair[i] = pair[i + 1];
      n--;
      if (best + 2 < n) pair[best] = ranks.get(bytes.slice(starts[best], starts[best + 2])) ?? NONE;
      if (best > 0) pair[best - 1] = ranks.get(bytes.slice(starts[best - 1], starts[best + 1])) ?? NONE;
    }
    return n - 1;
  }

  /** Heap-based merge for long pieces: same order as tiktoken (min rank, then leftmost). */
  private mergeHeap(bytes: string): number {
    const n = bytes.length;
    // Doubly linked list of parts by start offset; end[i] is the end of the part starting at i.
    const end = new Int32Array(n);
    const next = new Int32Array(n);
    const prev = new Int32Array(n);
    const alive = new Uint8Array(n).fill(1);
    for (let i = 0; i < n; i++) {
      end[i] = i + 1;
      next[i] = i + 1 < n ? i + 1 : -1;
      prev[i] = i - 1;
    }
    const heap = new PairHeap();
    const pairRank = (a: number): number => {
      const b = next[a];
      if (b < 0) return -1;
      const r = this.ranks.get(bytes.slice(a, end[b]));
      return r === undefined ? -1 : r;
    };
    for (let i = 0; i + 1 < n; i++) {
      const r = pairRank(i);
      if (r >= 0) heap.push(r, i, end[i + 1]);
    }
    let parts = n;
    while (heap.size > 0) {
      const [rank, a, pairEnd] = heap.pop();
      if (!alive[a]) continue;
      const b = next[a];
      if (b < 0 || end[b] !== pairEnd) continue; // stale entry
      if (pairRank(a) !== rank) continue;
      // merge a and b
      end[a] = end[b];
      alive[b] = 0;
      next[a] = next[b];
      if (next[b] >= 0) prev[next[b]] = a;
      parts--;
      const p = prev[a];
      if (p >= 0) {
        const r = pairRank(p);
        if (r >= 0) heap.push(r, p, end[a]);
      }
      const r2 = pairRank(a);
      if (r2 >= 0) heap.push(r2, a, end[next[a]]);
    }
    return parts;
  }
}

/** Binary min-heap of (rank, start, pairEnd), ordered by rank then start (leftmost first). */
class PairHeap {
  private rank: number[] = [];
  private start: number[] = [];
  private pend: number[] = [];
  get size(): number {
    return this.rank.length;
  }
  private less(i: number, j: number): boolean {
    return this.rank[i] < this.rank[j] || (this.rank[i] === this.rank[j] && this.start[i] < this.start[j]);
  }
  private swap(i: number, j: number): void {
    [this.rank[i], this.rank[j]] = [this.rank[j], this.rank[i]];
    [this.start[i], this.start[j]] = [this.start[j], this.start[i]];
    [this.pend[i], this.pend[j]] = [this.pend[j], this.pend[i]];
  }
  push(rank: number, start: number, pend: number): void {
    this.rank.push(rank);
    this.start.push(start);
    this.pend.push(pend);
    let i = this.rank.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }
  pop(): [number, number, number] {
    const top: [number, number, number] = [this.rank[0], this.start[0], this.pend[0]];
    const last = this.rank.length - 1;
    this.swap(0, last);
    this.rank.pop();
    this.start.pop();
    this.pend.pop();
    let i = 0;
    const n = this.rank.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && this.less(l, m)) m = l;
      if (r < n && this.less(r, m)) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
    return top;
  }
}
