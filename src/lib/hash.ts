// Fast non-cryptographic string hashing (cyrb53) for content-addressed caches: token counts are keyed
// by the hash of the text plus the encoding, so re-runs never re-tokenize unchanged text (SPEC §2).

/** 53-bit cyrb53 hash of a string, returned as a number (safe integer). */
function hash53(s: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** Hash of a string as a compact base-36 key, including its length to make collisions even rarer. */
export function hashKey(s: string): string {
  return `${hash53(s).toString(36)}:${s.length.toString(36)}`;
}
