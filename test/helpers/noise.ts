// Seeded pseudo-random text for the scans' hostile-input checks (a linear congruential generator: the same text on
// every run, no dependence on Math.random).

export const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** `n` seeded characters of `alphabet`. */
export function noise(n: number, alphabet: string, seed = 7): string {
  let x = seed;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out.push(alphabet[x % alphabet.length]);
  }
  return out.join('');
}
