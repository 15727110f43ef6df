// US dollars in words for the CLI and the UI: cents where the amount is a dollar or more, four decimals below
// (a single request often costs fractions of a cent), and a floor instead of a misleading $0.0000.

/** $2.39, $0.0932, <$0.0001; negative amounts keep their sign (−$0.12). */
export function fmtUsd(x: number): string {
  if (!Number.isFinite(x)) return '—';
  const a = Math.abs(x);
  const sign = x < 0 ? '−' : '';
  if (a === 0) return '$0.00';
  if (a < 0.0001) return `${sign}<$0.0001`;
  return `${sign}$${a >= 1 ? a.toFixed(2) : a.toFixed(4)}`;
}
