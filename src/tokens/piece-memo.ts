// The BPE counter's memo of piece counts, looked up by a range of the text being counted, so a piece found by the
// pre-tokenizer needs no string of its own: most pieces of a re-count were counted before, and a substring per
// piece (with the regex match array it came in) was most of what counting allocated. Open addressing (linear
// probing) on an FNV-1a hash of the UTF-16 code units; the key string is made only when a count is stored.

/** Entries kept before the memo starts over (each a short key and a number). */
const LIMIT = 400_000;

export class PieceMemo {
  private keys: string[] = [];
  private counts: number[] = [];
  /** Slot → entry index + 1 (0: empty); size a power of two, at least twice the entries. */
  private slots = new Int32Array(1 << 12);

  /** The count stored for `text[start, end)`, or -1. */
  get(text: string, start: number, end: number): number {
    const len = end - start;
    const mask = this.slots.length - 1;
    for (let slot = hashRange(text, start, end) & mask; ; slot = (slot + 1) & mask) {
      const e = this.slots[slot];
      if (e === 0) return -1;
      const key = this.keys[e - 1];
      if (key.length !== len) continue;
      let i = 0;
      while (i < len && key.charCodeAt(i) === text.charCodeAt(start + i)) i++;
      if (i === len) return this.counts[e - 1];
    }
  }

  /** Store the count of `text[start, end)` (not stored before). */
  set(text: string, start: number, end: number, n: number): void {
    if (this.keys.length >= LIMIT) {
      this.keys = [];
      this.counts = [];
      this.slots = new Int32Array(1 << 12);
    } else if (2 * (this.keys.length + 1) > this.slots.length) this.grow();
    this.keys.push(text.slice(start, end));
    this.counts.push(n);
    this.place(hashRange(text, start, end), this.keys.length);
  }

  private place(hash: number, entry: number): void {
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
    this.slots[slot] = entry;
  }

  private grow(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    for (let e = 0; e < this.keys.length; e++) {
      const k = this.keys[e];
      this.place(hashRange(k, 0, k.length), e + 1);
    }
  }
}

/** FNV-1a over the UTF-16 code units of `s[start, end)`. */
function hashRange(s: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
