// The Tokenizer contract and its factory. Counting is exact (o200k_base by default, cl100k_base on
// request) using js-tiktoken's bundled rank files and our BpeCounter; an LRU-free, hash-keyed cache
// makes re-runs never re-tokenize unchanged text (SPEC §2).
import { hash53 } from '../lib/hash.ts';
import { BpeCounter, type PackedRanks, type RankFile } from './bpe.ts';
import { CountTable } from './count-table.ts';
import type { EncodingName } from './encodings.ts';
import { BY_LINES, forEachLineUnit } from './line-units.ts';

export { ENCODINGS, type EncodingName } from './encodings.ts';

export interface Tokenizer {
  readonly encoding: EncodingName;
  /** Exact token count of `text` (special-token text counted as text; never throws). */
  count(text: string): number;
  /** Seed the cache with a count computed elsewhere (optional). */
  prime?(text: string, n: number): void;
  /** The count of `text` when it is already known (cached), without counting it (optional). */
  known?(text: string): number | undefined;
  /** Exact token count of a text the caller keeps the count of itself (a cut made once per block and cap): counted
   *  without hashing it into the cache (optional). */
  countFresh?(text: string): number;
}

const counters = new Map<EncodingName, BpeCounter>();

async function rankFile(encoding: EncodingName): Promise<RankFile> {
  // Dynamic imports keep each 1–2 MB rank table out of bundles that do not use it.
  const mod =
    encoding === 'cl100k_base'
      ? await import('js-tiktoken/ranks/cl100k_base')
      : await import('js-tiktoken/ranks/o200k_base');
  return mod.default as RankFile;
}

/** Where ranks come from besides js-tiktoken's files: the CLI reads the packed ranks its build wrote (null: none). */
export type RankLoader = (encoding: EncodingName) => Promise<PackedRanks | null>;

/** Load (once) the exact counter for an encoding (from `ranks` when it has them). */
export async function loadCounter(encoding: EncodingName = 'o200k_base', ranks?: RankLoader): Promise<BpeCounter> {
  let c = counters.get(encoding);
  if (!c) {
    c = new BpeCounter((await ranks?.(encoding)) ?? (await rankFile(encoding)));
    counters.set(encoding, c);
  }
  return c;
}

/** Lines kept before that memo starts over (each entry is a short key and a number). */
const LINES_LIMIT = 500_000;

/** A tokenizer whose counts are cached by content hash; texts under 24 chars skip the hash. Owned by the engine
 *  (one per encoding), so its memos live as long as the engine and are valid for any transcript. */
export class CachedTokenizer implements Tokenizer {
  /** Content hash → count of a whole text (counted here or primed by the counting pool). Unbounded. */
  private readonly cache = new CountTable();
  /** Content hash → count of one line of a long text (line-units.ts). Bound: LINES_LIMIT, then cleared. */
  private readonly lines = new CountTable();
  hits = 0;
  misses = 0;
  constructor(
    readonly encoding: EncodingName,
    private readonly counter: { count(text: string): number },
  ) {}

  count(text: string): number {
    if (text.length < 24) return this.counter.count(text);
    const h = hash53(text);
    const c = this.cache.get(h, text.length);
    if (c !== undefined) {
      this.hits++;
      return c;
    }
    this.misses++;
    const n = this.countFresh(text);
    this.cache.set(h, text.length, n);
    return n;
  }

  countFresh(text: string): number {
    return text.length >= BY_LINES ? this.countLines(text) : this.counter.count(text);
  }

  /** The sum of the counts of the text's line units, each looked up or counted once. */
  private countLines(text: string): number {
    let n = 0;
    forEachLineUnit(text, (part) => {
      if (part.length < 24) {
        n += this.counter.count(part);
        return;
      }
      const h = hash53(part);
      let k = this.lines.get(h, part.length);
      if (k === undefined) {
        k = this.counter.count(part);
        if (this.lines.size >= LINES_LIMIT) this.lines.clear();
        this.lines.set(h, part.length, k);
      }
      n += k;
    });
    return n;
  }

  /** Seed the cache with counts computed elsewhere (e.g. by a pool of workers). */
  prime(text: string, n: number): void {
    if (text.length >= 24) this.cache.set(hash53(text), text.length, n);
  }

  /** The cached count of a text (counted here or primed before), or undefined; never counts. */
  known(text: string): number | undefined {
    return text.length >= 24 ? this.cache.get(hash53(text), text.length) : undefined;
  }

  get size(): number {
    return this.cache.size;
  }
}

/** Create a cached exact tokenizer for an encoding. */
export async function createTokenizer(
  encoding: EncodingName = 'o200k_base',
  ranks?: RankLoader,
): Promise<CachedTokenizer> {
  return new CachedTokenizer(encoding, await loadCounter(encoding, ranks));
}
