// How the sessions table writes its cells: local start time, a duration, observed percentages and dollars, with
// a dash where the log has nothing to say (no times, no usage).
import { fmtUsd, type SessionRow } from '../../protocol/index.ts';

const p2 = (n: number) => String(n).padStart(2, '0');

export function fmtStart(ms: number | null): string {
  if (ms === null) return '—';
  const d = new Date(ms);
  return `${d.getFullYear()}-${p2(d.getMonth() + 1)}-${p2(d.getDate())} ${p2(d.getHours())}:${p2(d.getMinutes())}`;
}

export function fmtDuration(r: SessionRow): string {
  if (r.start === null || r.end === null) return '—';
  const m = Math.round((r.end - r.start) / 60000);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  return h < 48 ? `${h} h ${m % 60} min` : `${Math.floor(h / 24)} d ${h % 24} h`;
}

export const fmtRate = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(1)}%`);
export const fmtDollars = (x: number | null) => (x === null ? '—' : fmtUsd(x));
