// Number and time formatting shared by every view: dense, tabular, estimates marked (UI.md habits).

/** Tokens, dense: below 1,000 as a rounded integer (742); 1.2k–99.9k with one decimal, 100k–999k without (412k);
 *  1.2M–9.9M with one decimal, 10M and up without. */
export function fmtTokens(n: number): string {
  const a = Math.abs(n);
  if (a >= 1e6) return `${(n / 1e6).toFixed(a >= 1e7 ? 0 : 1)}M`;
  if (a >= 1e4) return `${(n / 1e3).toFixed(a >= 1e5 ? 0 : 1)}k`;
  if (a >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
  return String(Math.round(n));
}

export function fmtPct(x: number | null | undefined): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '—';
  return `${(x * 100).toFixed(0)}%`;
}

export function fmtTime(ms: number | undefined): string {
  if (ms === undefined) return '';
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString().slice(11, 19);
}
