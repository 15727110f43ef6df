// The tokenizer's content-hash → count memo in typed arrays (open addressing, linear probing): a text is found by
// its 53-bit cyrb53 hash (lib/hash.ts hash53) and its length, the same two facts the string key `hashKey` joins, so it matches exactly
// what that key matched. ~12 bytes a slot outside the JS heap instead of a Map entry and a key string (~100 bytes
// each in the collected heap), and no key string made per lookup (issue 30: the engine's peak memory is a multiple
// of its live heap).
const EMPTY = 0;

export class CountTable {
  /** hash53 of each slot's text (exact as a double), its length (EMPTY: a free slot; texts here are never empty)
   *  and its count. */
  private hashes: Float64Array;
  private lengths: Uint32Array;
  private counts: Uint32Array;
  private mask: number;
  size = 0;

  constructor(capacity = 1024) {
    let n = 16;
    while (n < capacity) n *= 2;
    this.hashes = new Float64Array(n);
    this.lengths = new Uint32Array(n);
    this.counts = new Uint32Array(n);
    this.mask = n - 1;
  }

  /** The slot of `text` (hash `h`), or of the free slot where it would go (its length then EMPTY). */
  private slot(h: number, len: number): number {
    let i = h % (this.mask + 1);
    for (;;) {
      const l = this.lengths[i];
      if (l === EMPTY || (l === len && this.hashes[i] === h)) return i;
      i = (i + 1) & this.mask;
    }
  }

  /** The count of the text whose hash53 is `h` and length `len`. */
  get(h: number, len: number): number | undefined {
    const i = this.slot(h, len);
    return this.lengths[i] === EMPTY ? undefined : this.counts[i];
  }

  set(h: number, len: number, count: number): void {
    const i = this.slot(h, len);
    if (this.lengths[i] === EMPTY) {
      this.hashes[i] = h;
      this.lengths[i] = len;
      this.size++;
    }
    this.counts[i] = count;
    if (this.size * 4 > (this.mask + 1) * 3) this.grow();
  }

  clear(): void {
    this.lengths.fill(EMPTY);
    this.size = 0;
  }

  private grow(): void {
    const { hashes, lengths, counts } = this;
    const n = (this.mask + 1) * 2;
    this.hashes = new Float64Array(n);
    this.lengths = new Uint32Array(n);
    this.counts = new Uint32Array(n);
    this.mask = n - 1;
    for (let j = 0; j < lengths.length; j++) {
      if (lengths[j] === EMPTY) continue;
      const i = this.slot(hashes[j], lengths[j]);
      this.hashes[i] = hashes[j];
      this.lengths[i] = lengths[j];
      this.counts[i] = counts[j];
    }
  }
}
