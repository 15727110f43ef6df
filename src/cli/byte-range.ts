// HTTP byte ranges for `tierscope serve` (RFC 9110 §14): one range of a file of known size — `bytes=a-b`,
// `bytes=a-` (from a to the end: how the app reads what a growing session appended), `bytes=-n` (the last n).
// Several ranges in one request are not served (the app never asks for them): the whole file is sent instead.

export type ByteRange = { start: number; end: number };

/** The range a `Range` header asks for: null to send the whole file, 'unsatisfiable' for a 416. */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (header === undefined) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const n = Number(m[2]);
    if (n === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}
