// Exact BPE token counting over js-tiktoken's rank files, without js-tiktoken's quadratic merge:
// pieces from the same pre-tokenization regex are memoised; a piece's UTF-8 bytes go into one reused buffer and
// merge with a heap (O(n log n)) that reproduces tiktoken's "lowest rank, leftmost first" order exactly, ranks
// looked up by byte range in a packed table (packed-ranks.ts) — a piece up to 256 bytes allocates nothing.
// Special-token text is counted as plain text (SPEC §2), so nothing ever throws.
// Texts over 64 K characters are counted window by window, cut at a space between two non-whitespace characters (a
// piece boundary, so the count stays exact) or else before the window's last two pieces (exact too); only a
// window that is nearly one piece (a run of one letter class) is cut hard,
// and a piece over 4 KB (a run of one character) merges in 4 KB chunks, each cut off by at most one token;
// equal windows and chunks are counted once — so a 5 M-letter run neither overflows the regex stack nor
// costs seconds per MB.

/** Rank data as shipped by js-tiktoken (`js-tiktoken/ranks/<name>`). */
export type RankFile = { pat_str: string; special_tokens: Record<string, number>; bpe_ranks: string };

import { hash53 } from '../lib/hash.ts';
import { CountTable } from './count-table.ts';
import { isWhitespace } from './line-units.ts';
import { type PackedRanks, PackedTable, packRanks } from './packed-ranks.ts';

export type { PackedRanks } from './packed-ranks.ts';

/** Writes the UTF-8 bytes of `s` into `out` from 0 (lone surrogates become U+FFFD, as TextEncoder does) and returns
 *  their number; `out` holds at least 3 × s.length bytes. */
function utf8Into(s: string, out: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) {
      out[n++] = c;
      continue;
    }
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      } else c = 0xfffd;
    } else if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
    if (c < 0x800) {
      out[n++] = 0xc0 | (c >> 6);
      out[n++] = 0x80 | (c & 63);
    } else if (c < 0x10000) {
      out[n++] = 0xe0 | (c >> 12);
      out[n++] = 0x80 | ((c >> 6) & 63);
      out[n++] = 0x80 | (c & 63);
    } else {
      out[n++] = 0xf0 | (c >> 18);
      out[n++] = 0x80 | ((c >> 12) & 63);
      out[n++] = 0x80 | ((c >> 6) & 63);
      out[n++] = 0x80 | (c & 63);
    }
  }
  return n;
}

const SMALL_PIECE = 256;
/** Texts are counted in windows of at most this many UTF-16 units (the pre-tokenizer regex never sees more). */
const WINDOW = 1 << 16;
/** A piece longer than this many bytes (a run of one character) is merged in chunks of it, each chunk counted
 *  once per piece: BPE over one long run is superlinear, and the cut costs at most one token per chunk. */
const PIECE_CHUNK = 1 << 12;

/** The last index in (from, to] holding a single space between two characters that are not whitespace (JavaScript's
 *  `\s`: between two ideographic spaces it is inside the piece `\s+(?!\S)` makes); pieces never run across it: the
 *  piece before ends at the non-space, the next one starts with the space. -1 when there is none. */
function spaceCut(text: string, from: number, to: number): number {
  for (let i = to - 1; i > from; i--) {
    if (text.charCodeAt(i) !== 0x20) continue;
    const before = text.charCodeAt(i - 1);
    const after = text.charCodeAt(i + 1);
    // Not inside a surrogate pair or after a whitespace run (`\s+(?!\S)` could then take the space).
    if (!isWhitespace(before) && !isWhitespace(after) && !(after >= 0xdc00 && after <= 0xdfff)) return i;
  }
  return -1;
}
const MEMO_LIMIT = 400_000;
/** No rank: a pair that is no token. */
const NONE = Number.POSITIVE_INFINITY;
const MEMO_MAX_PIECE = 64;
/** Longer pieces are memoised by content hash and length (count-table.ts: no key string kept, so a piece sliced
 *  from a long text does not hold that text), up to this many; then the memo starts over. A run of one character
 *  class (a "=====" rule, an unspaced CJK sentence) is one piece, and merging it costs ~0.3–1 µs a byte (150–1,500
 *  µs for 65–1,000 bytes) against a hash of ~1 ns a character; such runs recur in the cuts of one result and in
 *  the tool results of one session. 32 K entries: ~1 MB of typed arrays, outside the JS heap. */
const LONG_MEMO_LIMIT = 1 << 15;
/** A string key for a chunk's bytes: "latin1" decodes as windows-1252, one distinct character per byte. */
const BYTE_KEY = new TextDecoder('latin1');
/** mergeSmall: a rank of no part (its start was merged into the part before). */
const DEAD = -1;
/** mergeSmall's heap keys: rank × KEY + start, so the lowest key is the lowest rank's leftmost pair. */
const KEY = 1024;

/** Push `key` on the binary min-heap held in heap[0, size); returns the new size. */
function heapPush(heap: Float64Array, size: number, key: number): number {
  let i = size;
  while (i > 0) {
    const p = (i - 1) >> 1;
    if (heap[p] <= key) break;
    heap[i] = heap[p];
    i = p;
  }
  heap[i] = key;
  return size + 1;
}

/** Remove the least key (heap[0]) of the binary min-heap held in heap[0, size); returns the new size. */
function heapPop(heap: Float64Array, size: number): number {
  const last = heap[--size];
  let i = 0;
  for (;;) {
    let m = 2 * i + 1;
    if (m >= size) break;
    if (m + 1 < size && heap[m + 1] < heap[m]) m++;
    if (heap[m] >= last) break;
    heap[i] = heap[m];
    i = m;
  }
  heap[i] = last;
  return size;
}

export class BpeCounter {
  private readonly ranks: PackedTable;
  private readonly pattern: RegExp;
  /** The same pattern, sticky: a match must start where the last one ended. The pieces of a text are contiguous,
   *  so it steps through them with `test` and a slice, without exec's match array per piece (a 20k-request
   *  thread's tier2Cap step made ~19 MB of them). */
  private readonly sticky: RegExp;
  private memo = new Map<string, number>();
  private readonly longMemo = new CountTable();
  /** The UTF-8 bytes of the piece being merged (grown for longer pieces; the merges read ranges of it). */
  private buf = new Uint8Array(3 * SMALL_PIECE);
  /** mergeSmall's scratch (see there): the parts' links and pair ranks by start, and the heap of pairs. */
  private readonly next = new Int32Array(SMALL_PIECE);
  private readonly prev = new Int32Array(SMALL_PIECE);
  private readonly rank = new Float64Array(SMALL_PIECE);
  private readonly heap = new Float64Array(3 * SMALL_PIECE);

  constructor(file: RankFile | PackedRanks) {
    this.pattern = new RegExp(file.pat_str, 'gu');
    this.sticky = new RegExp(file.pat_str, 'uy');
    this.ranks = new PackedTable('packed' in file ? file.packed : packRanks(file.bpe_ranks));
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
    let n = 0;
    const re = this.sticky;
    let at = 0;
    re.lastIndex = 0;
    while (at < text.length) {
      if (!re.test(text) || re.lastIndex === at) return n + this.countFrom(text, at);
      n += this.countPiece(text.slice(at, re.lastIndex));
      at = re.lastIndex;
    }
    return n;
  }

  /** The pieces of `text` from `at` as the global pattern finds them (it skips what no alternative matches). */
  private countFrom(text: string, at: number): number {
    let n = 0;
    const re = this.pattern;
    re.lastIndex = at;
    let m: RegExpExecArray | null = re.exec(text);
    while (m !== null) {
      n += this.countPiece(m[0]);
      m = re.exec(text);
    }
    return n;
  }

  /** Token count of one pre-tokenized piece. */
  countPiece(piece: string): number {
    const long = piece.length > MEMO_MAX_PIECE;
    const h = long ? hash53(piece) : 0;
    const cached = long ? this.longMemo.get(h, piece.length) : this.memo.get(piece);
    if (cached !== undefined) return cached;
    if (this.buf.length < 3 * piece.length) this.buf = new Uint8Array(3 * piece.length);
    const len = utf8Into(piece, this.buf);
    const n =
      this.ranks.rank(this.buf, 0, len) >= 0
        ? 1
        : len <= SMALL_PIECE
          ? this.mergeSmall(len)
          : len <= PIECE_CHUNK
            ? this.mergeHeap(0, len)
            : this.mergeChunks(len);
    if (long) {
      if (this.longMemo.size >= LONG_MEMO_LIMIT) this.longMemo.clear();
      this.longMemo.set(h, piece.length, n);
    } else {
      if (this.memo.size >= MEMO_LIMIT) this.memo = new Map();
      this.memo.set(piece, n);
    }
    return n;
  }

  /** A long piece (the first `len` bytes of buf) in PIECE_CHUNK-byte chunks cut at UTF-8 character starts; equal
   *  chunks merged once. */
  private mergeChunks(len: number): number {
    const bytes = this.buf;
    const seen = new Map<string, number>();
    let n = 0;
    for (let at = 0; at < len; ) {
      let end = Math.min(len, at + PIECE_CHUNK);
      while (end < len && end > at + 1 && (bytes[end] & 0xc0) === 0x80) end--;
      const chunk = BYTE_KEY.decode(bytes.subarray(at, end));
      let k = seen.get(chunk);
      if (k === undefined) {
        k = this.ranks.rank(bytes, at, end) >= 0 ? 1 : this.mergeHeap(at, end);
        seen.set(chunk, k);
      }
      n += k;
      at = end;
    }
    return n;
  }

  /** Merge for short pieces (the first `len` bytes of buf), allocation-free, in tiktoken's order (the lowest rank,
   *  then the leftmost, first): the parts are a linked list over their starts, each part holds the rank of the pair
   *  it starts, and a min-heap over (rank, start) in scratch arrays yields the next pair to merge; only the merged
   *  pair's two neighbouring pairs are looked up again. A piece of n bytes costs about 3n rank lookups and
   *  O(n log n) heap steps (a scan for the lowest pair after every merge, tiktoken's loop, is O(n²): a cut CJK run
   *  is one piece of 100–180 bytes). */
  private mergeSmall(len: number): number {
    const ranks = this.ranks;
    const bytes = this.buf;
    const { next, prev, rank, heap } = this;
    // next[i]: the start of the part after the one starting at i (len: none); rank[i]: the rank of the pair the part
    // at i starts, NONE when it is no token, DEAD when i no longer starts a part.
    let size = 0;
    for (let i = 0; i < len; i++) {
      next[i] = i + 1;
      prev[i] = i - 1;
      const r = i + 2 <= len ? ranks.rank(bytes, i, i + 2) : -1;
      rank[i] = r < 0 ? NONE : r;
      if (r >= 0) size = heapPush(heap, size, r * KEY + i);
    }
    let parts = len;
    while (size > 0) {
      const key = heap[0];
      size = heapPop(heap, size);
      const r = Math.floor(key / KEY);
      const a = key - r * KEY;
      if (rank[a] !== r) continue; // stale: the pair at a changed since
      // Merge the part at a with the next one, then re-rank the pairs that changed: the one before a and a's own.
      const b = next[a];
      const c = next[b];
      next[a] = c;
      if (c < len) prev[c] = a;
      rank[b] = DEAD;
      parts--;
      const rc = c < len ? ranks.rank(bytes, a, next[c]) : -1;
      rank[a] = rc < 0 ? NONE : rc;
      if (rc >= 0) size = heapPush(heap, size, rc * KEY + a);
      const p = prev[a];
      if (p >= 0) {
        const rp = ranks.rank(bytes, p, c);
        rank[p] = rp < 0 ? NONE : rp;
        if (rp >= 0) size = heapPush(heap, size, rp * KEY + p);
      }
    }
    return parts;
  }

  /** Heap-based merge for long pieces (bytes [from, to) of buf): same order as tiktoken (min rank, then leftmost). */
  private mergeHeap(from: number, to: number): number {
    const bytes = this.buf;
    const n = to - from;
    // Doubly linked list of parts by start offset (from `from`); end[i] is the end of the part starting at i.
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
      return b < 0 ? -1 : this.ranks.rank(bytes, from + a, from + end[b]);
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
