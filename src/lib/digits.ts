// Whole numbers as en-US writes them (1,234,567), without ICU: the first Intl.NumberFormat or
// toLocaleString('en-US') of a process loads ICU's number data (~10–25 ms, a twentieth of a CLI start), and
// every later toLocaleString call costs tens of microseconds. A number that is not a whole one is left to
// toLocaleString, so the text is always what toLocaleString('en-US') gives.

/** `n.toLocaleString('en-US')`: digits grouped by three with commas. */
export function grouped(n: number): string {
  if (!Number.isInteger(n) || Math.abs(n) >= 1e21) return n.toLocaleString('en-US');
  let digits = String(Math.abs(n));
  let out = '';
  while (digits.length > 3) {
    out = `,${digits.slice(-3)}${out}`;
    digits = digits.slice(0, -3);
  }
  return `${n < 0 || Object.is(n, -0) ? '-' : ''}${digits}${out}`;
}
