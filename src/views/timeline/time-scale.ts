// The x axis of "All threads by time": requests placed by their real time, so a burst of sub-agents and an
// overnight pause look like what they were. A long pause (over 20 min and a tenth of the session) is drawn as a
// narrow break labelled with its length instead of as empty width; the rest of the time is linear. Ticks fall on
// round times (UTC, as the hover card writes them) and never overlap.

/** A pause drawn as a break: where it is, its drawn width, and how long it was. */
export type Gap = { x: number; w: number; ms: number };
export type Tick = { x: number; label: string };
export type TimeScale = { xs: Float64Array; gaps: Gap[]; ticks: Tick[] };

const GAP_W = 18;
const MIN_GAP_MS = 20 * 60_000;
/** Width each stretch of activity gets at least (a lone request is not a zero-width sliver). */
const MIN_SEG_W = 6;
const TICK_PX = 84;
const STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10_800, 21_600, 43_200, 86_400].map(
  (s) => s * 1000,
);

/** "17 h", "45 min", "2 d": a pause's length. */
export function pauseWords(ms: number): string {
  const min = ms / 60_000;
  if (min < 90) return `${Math.round(min)} min`;
  const h = min / 60;
  return h < 48 ? `${Math.round(h)} h` : `${Math.round(h / 24)} d`;
}

function hhmm(t: number, seconds: boolean): string {
  return new Date(t).toISOString().slice(11, seconds ? 19 : 16);
}

function day(t: number): string {
  return new Date(t).toISOString().slice(5, 10);
}

/** x of every time in `times` (ascending), pauses and ticks, over [x0, x0 + width]. */
export function timeScale(times: readonly number[], x0: number, width: number): TimeScale {
  const n = times.length;
  const xs = new Float64Array(n);
  if (n === 0) return { xs, gaps: [], ticks: [] };
  const total = times[n - 1] - times[0];
  // Stretches of activity, split at long pauses.
  const starts = [0];
  for (let i = 1; i < n; i++) {
    const d = times[i] - times[i - 1];
    if (d > MIN_GAP_MS && d > total / 10) starts.push(i);
  }
  const segs = starts.map((s, k) => ({ from: s, to: (starts[k + 1] ?? n) - 1 }));
  const active = segs.reduce((a, s) => a + (times[s.to] - times[s.from]), 0);
  const room = Math.max(0, width - (segs.length - 1) * GAP_W - segs.length * MIN_SEG_W);
  const perMs = active > 0 ? room / active : 0;
  const gaps: Gap[] = [];
  const spans: { x: number; t0: number; t1: number }[] = [];
  let x = x0;
  for (const [k, s] of segs.entries()) {
    if (k > 0) {
      gaps.push({ x, w: GAP_W, ms: times[s.from] - times[s.from - 1] });
      x += GAP_W;
    }
    const t0 = times[s.from];
    const w = MIN_SEG_W + (times[s.to] - t0) * perMs;
    for (let i = s.from; i <= s.to; i++)
      xs[i] =
        active > 0 ? x + MIN_SEG_W / 2 + (times[i] - t0) * perMs : x + ((i - s.from + 0.5) / (s.to - s.from + 1)) * w;
    spans.push({ x: x + MIN_SEG_W / 2, t0, t1: times[s.to] });
    x += w;
  }
  return { xs, gaps, ticks: ticksOf(spans, perMs) };
}

function ticksOf(spans: readonly { x: number; t0: number; t1: number }[], perMs: number): Tick[] {
  if (spans.length === 0) return [];
  const step = perMs > 0 ? (STEPS.find((s) => s * perMs >= TICK_PX) ?? 86_400_000) : 0;
  const seconds = step > 0 && step < 60_000;
  const out: Tick[] = [];
  let lastX = Number.NEGATIVE_INFINITY;
  let lastDay = '';
  const push = (x: number, t: number) => {
    if (x - lastX < TICK_PX * 0.8) return;
    const d = day(t);
    out.push({ x, label: d === lastDay ? hhmm(t, seconds) : `${d} ${hhmm(t, seconds)}` });
    lastDay = d;
    lastX = x;
  };
  for (const s of spans) {
    // A stretch after a pause is labelled at its start; inside it, round times.
    push(s.x, s.t0);
    if (step === 0) continue;
    for (let t = Math.ceil(s.t0 / step) * step; t <= s.t1; t += step) push(s.x + (t - s.t0) * perMs, t);
  }
  return out;
}
