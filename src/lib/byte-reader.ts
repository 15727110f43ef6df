// A pull reader over a stream of byte chunks, for binary containers (zip): small windows (headers) are joined
// across chunk boundaries on demand, large runs (entry data) are handed out piece by piece without copying, and
// signature scans carry only the few bytes that could start a match. The whole input is never held at once.

export class ByteReader {
  private readonly it: Iterator<Uint8Array>;
  /** Unread bytes: a view of the current chunk, or a small joined window. */
  private buf: Uint8Array = new Uint8Array(0);
  /** Absolute offset of `buf[0]` in the input. */
  private base = 0;
  private ended = false;

  constructor(chunks: Iterable<Uint8Array>) {
    this.it = chunks[Symbol.iterator]();
  }

  /** Offset of the next unread byte. */
  get offset(): number {
    return this.base;
  }

  /** The unread bytes at hand (at least what the last successful `fill` asked for). */
  get bytes(): Uint8Array {
    return this.buf;
  }

  /** Make at least `n` unread bytes available in `bytes`; false when the input ends first. */
  fill(n: number): boolean {
    while (this.buf.length < n) {
      const next = this.pull();
      if (!next) return false;
      if (this.buf.length === 0) this.buf = next;
      else {
        const joined = new Uint8Array(this.buf.length + next.length);
        joined.set(this.buf);
        joined.set(next, this.buf.length);
        this.buf = joined;
      }
    }
    return true;
  }

  /** Drop `n` unread bytes (they must be at hand). */
  skip(n: number): void {
    this.buf = this.buf.subarray(n);
    this.base += n;
  }

  /** The next at most `max` bytes, as a view (no copy); undefined at the end of the input. */
  take(max: number): Uint8Array | undefined {
    if (this.buf.length === 0) {
      const next = this.pull();
      if (!next) return undefined;
      this.buf = next;
    }
    const piece = this.buf.subarray(0, Math.min(max, this.buf.length));
    this.skip(piece.length);
    return piece;
  }

  private pull(): Uint8Array | undefined {
    while (!this.ended) {
      const r = this.it.next();
      if (r.done) this.ended = true;
      else if (r.value.length > 0) return r.value;
    }
    return undefined;
  }
}

/** Little-endian unsigned integers. */
export const u16 = (b: Uint8Array, at: number): number => b[at] | (b[at + 1] << 8);
export const u32 = (b: Uint8Array, at: number): number => (u16(b, at) | (u16(b, at + 2) << 16)) >>> 0;
export const u64 = (b: Uint8Array, at: number): number => u32(b, at) + u32(b, at + 4) * 2 ** 32;
