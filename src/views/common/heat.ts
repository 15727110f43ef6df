// One heat scale for tokens everywhere (heatmap strip, row bars, timeline) — a colorblind-safe
// sequential ramp (viridis-like) readable on dark and light backgrounds — and the fixed tier colors.

const STOPS = ['#440154', '#3b528b', '#21918c', '#5ec962', '#fde725'];

function hexToRgb(h: string): [number, number, number] {
  const n = Number.parseInt(h.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** Color for t in [0, 1]. */
export function heat(t: number): string {
  const x = Math.max(0, Math.min(1, t)) * (STOPS.length - 1);
  const i = Math.min(STOPS.length - 2, Math.floor(x));
  const f = x - i;
  const a = hexToRgb(STOPS[i]);
  const b = hexToRgb(STOPS[i + 1]);
  const c = a.map((v, k) => Math.round(v + (b[k] - v) * f));
  return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
}

const PALETTE = Array.from({ length: 256 }, (_, i) => heat(i / 255));

/** Heat color for t in [0, 1], from a precomputed 256-step palette (no string building per call). */
export function heatLevel(t: number): string {
  return PALETTE[Math.max(0, Math.min(255, Math.round(t * 255)))];
}

/** Category colors for the stacked timeline. */
const CATEGORY_COLORS: Record<string, string> = {
  tools: '#7d6bd1',
  system: '#5a7fd6',
  user: '#3fa7a0',
  assistant: '#6cbf5a',
  thinking: '#b7b35a',
};

/** Result categories (result:<tool>) get a stable hue from the tool name. */
export function categoryColor(cat: string): string {
  const c = CATEGORY_COLORS[cat];
  if (c) return c;
  let h = 0;
  for (let i = 0; i < cat.length; i++) h = (h * 31 + cat.charCodeAt(i)) % 360;
  return `hsl(${(h + 20) % 360} 55% 55%)`;
}
