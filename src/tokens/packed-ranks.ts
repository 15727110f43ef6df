// Rank tables as packed bytes: js-tiktoken ships each encoding's 200 k tokens as base64 text. The CLI's build writes
// them packed (a length byte, then the token's bytes) so `tierscope` starts without decoding; elsewhere BpeCounter
// packs the base64 in one pass (no string per token). Ranks are looked up by a byte range (no string made) through
// a hash index over the packed bytes, built in one pass: no 200 k-entry Map (test/tokens/packed-ranks.test.ts).

/** The ranks decoded: each token's length (one byte) then its bytes, rank = position in the list. */
export type PackedRanks = { pat_str: string; packed: Uint8Array };

const B64_INDEX = new Int16Array(128).fill(-1);
for (let i = 0; i < 64; i++)
  B64_INDEX['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.charCodeAt(i)] = i;

/** The tokens of a rank file's `bpe_ranks` in rank order, packed as bytes (throws if the ranks are not 0, 1, 2 …
 *  in order, or a token is over 255 bytes). One pass over the text, base64 decoded in place: no string per token. */
export function packRanks(bpeRanks: string): Uint8Array {
  // A token of k bytes is ≥ 4⌈k/3⌉ base64 characters and a separator, so the text's length bounds the output.
  const out = new Uint8Array(bpeRanks.length);
  let size = 0;
  let next = 0;
  for (let i = 0; i < bpeRanks.length; ) {
    let eol = bpeRanks.indexOf('\n', i);
    if (eol < 0) eol = bpeRanks.length;
    if (eol === i) {
      i++;
      continue;
    }
    // "<prefix> <first rank> <token> <token> …"
    const a = bpeRanks.indexOf(' ', i);
    const b = bpeRanks.indexOf(' ', a + 1);
    const first = Number.parseInt(bpeRanks.slice(a + 1, b < 0 || b > eol ? eol : b), 10);
    if (first !== next) throw new Error(`ranks are not consecutive at ${next}`);
    for (let at = b < 0 || b > eol ? eol : b + 1; at < eol; ) {
      let end = bpeRanks.indexOf(' ', at);
      if (end < 0 || end > eol) end = eol;
      const lenAt = size++;
      let buf = 0;
      let bits = 0;
      for (let k = at; k < end; k++) {
        const v = B64_INDEX[bpeRanks.charCodeAt(k)];
        if (v === undefined || v < 0) continue; // '=' padding
        buf = ((buf << 6) | v) & 0xffffff;
        bits += 6;
        if (bits >= 8) {
          bits -= 8;
          out[size++] = (buf >> bits) & 0xff;
        }
      }
      const len = size - lenAt - 1;
      if (len > 255) throw new Error(`token ${next} is longer than 255 bytes`);
      out[lenAt] = len;
      next++;
      at = end + 1;
    }
    i = eol + 1;
  }
  return out.slice(0, size);
}

/** Rank lookup over packed ranks: open addressing (linear probing) on an FNV-1a hash of each token's bytes. */
export class PackedTable {
  private readonly starts: Int32Array;
  /** Slot → rank + 1 (0: empty). */
  private readonly slots: Int32Array;
  private readonly mask: number;

  constructor(private readonly bytes: Uint8Array) {
    let count = 0;
    for (let at = 0; at < bytes.length; at += 1 + bytes[at]) count++;
    this.starts = new Int32Array(count);
    let size = 1;
    while (size < count * 2) size <<= 1;
    this.slots = new Int32Array(size);
    this.mask = size - 1;
    for (let at = 0, rank = 0; at < bytes.length; at += 1 + bytes[at], rank++) {
      this.starts[rank] = at;
      let h = 0x811c9dc5;
      for (let i = at + 1; i <= at + bytes[at]; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
      let slot = (h >>> 0) & this.mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & this.mask;
      this.slots[slot] = rank + 1;
    }
  }

  /** The rank of the bytes `buf[start, end)`, or -1 when they are no token. Allocates nothing. */
  rank(buf: Uint8Array, start: number, end: number): number {
    const b = this.bytes;
    const len = end - start;
    let h = 0x811c9dc5;
    for (let i = start; i < end; i++) h = Math.imul(h ^ buf[i], 0x01000193);
    for (let slot = (h >>> 0) & this.mask; ; slot = (slot + 1) & this.mask) {
      const r = this.slots[slot];
      if (r === 0) return -1;
      const at = this.starts[r - 1];
      if (b[at] !== len) continue;
      let i = 0;
      while (i < len && b[at + 1 + i] === buf[start + i]) i++;
      if (i === len) return r - 1;
    }
  }
}
