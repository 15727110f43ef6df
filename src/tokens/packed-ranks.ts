// Rank tables decoded ahead of time: js-tiktoken ships each encoding's 200 k tokens as base64 text, which a
// counter decodes into a Map on every start. The CLI's build writes them packed (a length byte, then the token's
// bytes) and `tierscope` looks ranks up through a hash index over those bytes, built in one pass: no decoding,
// no 200 k-entry Map. BpeCounter reads either form; both give the same ranks (test/tokens/packed-ranks.test.ts).

/** The ranks decoded: each token's length (one byte) then its bytes, rank = position in the list. */
export type PackedRanks = { pat_str: string; packed: Uint8Array };
/** Rank lookup by byte string (one char per byte): a Map, or a PackedTable. */
export type RankTable = { get(bytes: string): number | undefined; has(bytes: string): boolean };

/** The tokens of a rank file's `bpe_ranks` in rank order, packed as bytes (throws if the ranks are not 0, 1, 2 …
 *  in order, or a token is over 255 bytes). */
export function packRanks(bpeRanks: string): Uint8Array {
  const parts: Uint8Array[] = [];
  let next = 0;
  let size = 0;
  for (const line of bpeRanks.split('\n')) {
    if (line === '') continue;
    const fields = line.split(' ');
    if (Number.parseInt(fields[1], 10) !== next) throw new Error(`ranks are not consecutive at ${next}`);
    for (let i = 2; i < fields.length; i++) {
      const bytes = Uint8Array.from(atob(fields[i]), (c) => c.charCodeAt(0));
      if (bytes.length > 255) throw new Error(`token ${next} is longer than 255 bytes`);
      parts.push(Uint8Array.of(bytes.length), bytes);
      size += 1 + bytes.length;
      next++;
    }
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** FNV-1a over the char codes (one byte each) of a byte string. */
function hashChars(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Rank lookup over packed ranks: open addressing (linear probing) on an FNV-1a hash of each token's bytes. */
export class PackedTable implements RankTable {
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

  get(s: string): number | undefined {
    const b = this.bytes;
    for (let slot = hashChars(s) & this.mask; ; slot = (slot + 1) & this.mask) {
      const r = this.slots[slot];
      if (r === 0) return undefined;
      const at = this.starts[r - 1];
      if (b[at] !== s.length) continue;
      let i = 0;
      while (i < s.length && b[at + 1 + i] === s.charCodeAt(i)) i++;
      if (i === s.length) return r - 1;
    }
  }

  has(s: string): boolean {
    return this.get(s) !== undefined;
  }
}
