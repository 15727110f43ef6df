// The Tokenizer contract and its factory. Counting is exact (o200k_base by default, cl100k_base on
// request) using js-tiktoken's bundled rank files and our BpeCounter; an LRU-free, hash-keyed cache
// makes re-runs never re-tokenize unchanged text (SPEC §2).
import { hashKey } from '../lib/hash.ts';
import { BpeCounter, type RankFile } from './bpe.ts';

export type EncodingName = 'o200k_base' | 'cl100k_base';
export const ENCODINGS: readonly EncodingName[] = ['o200k_base', 'cl100k_base'];

export interface Tokenizer {
  readonly encoding: EncodingName;
  /** Exact token count of `text` (special-token text counted as text; never throws). */
  count(text: string): number;
  /** Seed the cache with a count computed elsewhere (optional). */
  prime?(text: string, n: number): void;
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

/** Load (once) the exact counter for an encoding. */
export async function loadCounter(encoding: EncodingName = 'o200k_base'): Promise<BpeCounter> {
  let c = counters.get(encoding);
  if (!c) {
    c = new BpeCounter(await rankFile(encoding));
    counters.set(encoding, c);
  }
  return c;
}

/** A tokenizer whose counts are cached by content hash; texts under 24 chars skip the hash. */
export class CachedTokenizer implements Tokenizer {
  private cache = new Map<string, number>();
  hits = 0;
  misses = 0;
  constructor(
    readonly encoding: EncodingName,
    private readonly counter: { count(text: string): number },
  ) {}

  count(text: string): number {
    if (text.length < 24) return this.counter.count(text);
    const key = hashKey(text);
    const c = this.cache.get(key);
    if (c !== undefined) {
      this.hits++;
      return c;
    }
    this.misses++;
    const n = this.counter.count(text);
    this.cache.set(key, n);
    return n;
  }

  /** Seed the cache with counts computed elsewhere (e.g. by a pool of workers). */
  prime(text: string, n: number): void {
    if (text.length >= 24) this.cache.set(hashKey(text), n);
  }

  get size(): number {
    return this.cache.size;
  }
}

/** Create a cached exact tokenizer for an encoding. */
export async function createTokenizer(encoding: EncodingName = 'o200k_base'): Promise<CachedTokenizer> {
  return new CachedTokenizer(encoding, await loadCounter(encoding));
}
