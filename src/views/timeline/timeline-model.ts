// Pure data shaping for the cache timeline: which requests are shown (one thread, or every thread by time),
// how categories are grouped (small tools merged), the y scale with its reference lines, the compaction and
// break marks with their causes in words (pixel columns: columns.ts; the time axis: time-scale.ts).
import type {
  BreakCause,
  BreakRow,
  CachePattern,
  CompactionListRow,
  NamedCause,
  RunResult,
  StageId,
} from '../../protocol/index.ts';
import { type DrawnPoint, drawnPoints, type Timeline } from './points.ts';

export type Scope = 'thread' | 'all';
export type BreakSource = 'observed' | 'simulated';

export type BreakMark = {
  source: BreakSource;
  point: DrawnPoint;
  /** Position of the point in the shown list. */
  pos: number;
  cause: BreakCause;
  detail: string;
  tokensLost: number;
  /** Dollars of writing those tokens again instead of reading them (estimate); null: no price. */
  usd: number | null;
  /** The message to select: where an observed break's cached prefix ended, or a simulated break's first rewrite. */
  messageIndex: number | null;
};

export type LineKey = 'window' | 'trigger' | 'landing' | 'hardcap';

/** Points shown for a scope: the thread's requests in order, or every request by time. */
export function shownPoints(timeline: Timeline, scope: Scope, thread: string): DrawnPoint[] {
  if (scope === 'thread') return drawnPoints(timeline, thread);
  return drawnPoints(timeline, null).sort((a, b) => (a.time ?? 0) - (b.time ?? 0) || a.k - b.k);
}

const FIXED = ['tools', 'system', 'user', 'assistant', 'thinking'];
export const OTHER_RESULTS = 'result:other tools';

/**
 * Category keys in stacking order (static prefix at the bottom, then conversation, then tool results by
 * size) and a map from raw key to shown key: result categories under 3% of all tokens, beyond the 7 largest,
 * are merged into one "other tools" band.
 */
export function groupCategories(points: readonly DrawnPoint[]): { order: string[]; map: Map<string, string> } {
  const totals = new Map<string, number>();
  let all = 0;
  for (const p of points) {
    const cats = p.categories;
    for (const k in cats) {
      const v = cats[k];
      totals.set(k, (totals.get(k) ?? 0) + v);
      all += v;
    }
  }
  const results = [...totals.entries()].filter(([k]) => k.startsWith('result:')).sort((a, b) => b[1] - a[1]);
  const map = new Map<string, string>();
  const kept: string[] = [];
  let merged = false;
  results.forEach(([k, v], i) => {
    if (i < 7 && v >= all * 0.03) {
      kept.push(k);
      map.set(k, k);
    } else {
      merged = true;
      map.set(k, OTHER_RESULTS);
    }
  });
  const fixed = FIXED.filter((k) => (totals.get(k) ?? 0) > 0);
  for (const k of fixed) map.set(k, k);
  const rest = [...totals.keys()].filter((k) => !map.has(k));
  for (const k of rest) map.set(k, k);
  return { order: [...fixed, ...rest, ...kept, ...(merged ? [OTHER_RESULTS] : [])], map };
}

/** Calibrated (≈) category values of a point, grouped; they sum to its estimated output size. */
export function stackOf(p: DrawnPoint, map: Map<string, string>): Map<string, number> {
  const f = p.outputTokens > 0 ? p.estimateOut / p.outputTokens : 1;
  const out = new Map<string, number>();
  const cats = p.categories;
  for (const k in cats) {
    const key = map.get(k) ?? k;
    out.set(key, (out.get(key) ?? 0) + cats[k] * f);
  }
  return out;
}

/** A "nice" upper bound and ticks (1, 2, 2.5, 5 × 10^k): the lowest top reached in at most `count` + 1 steps, so
 *  a 208k range ends at 250k rather than 300k. */
export function niceTicks(max: number, count = 4): { top: number; ticks: number[] } {
  if (!(max > 0)) return { top: 1000, ticks: [0, 500, 1000] };
  const mag = 10 ** Math.floor(Math.log10(max / count));
  let best = { top: Number.POSITIVE_INFINITY, step: 0 };
  for (const m of [1, 2, 2.5, 5, 10, 20]) {
    const step = m * mag;
    const top = Math.ceil(max / step) * step;
    if (top / step <= count + 1 && top < best.top) best = { top, step };
  }
  const ticks: number[] = [];
  for (let t = 0; t <= best.top + best.step / 2; t += best.step) ticks.push(t);
  return { top: best.top, ticks };
}

/**
 * The y range: the tallest request sent with some headroom, stretched to include the reference lines that
 * are near it (within 1.6× of the data), so a small session is not flattened by a 200K window far above.
 * The recorded input may rise above it (its outline is clipped): what is sent is what the chart is about.
 */
export function yRange(points: readonly DrawnPoint[], lines: RunResult['lines']): number {
  let max = 0;
  for (const p of points) max = Math.max(max, p.estimateOut);
  let top = max * 1.08;
  for (const v of Object.values(lines)) if (v > top && v <= Math.max(max, 1) * 1.6) top = v * 1.04;
  return Math.max(top, 1000);
}

/** Calibrated size of the recorded input (before the pipeline). */
export function estimateIn(p: DrawnPoint): number {
  return p.estimateIn;
}

/** A compaction on the chart: the compaction and the shown position of the first request that sent its summary. */
export type CompactionMark = { pos: number; row: CompactionListRow; lost: number; kept: number };

/** The compactions whose first request is shown, in shown order. */
export function compactionMarks(rows: readonly CompactionListRow[], points: readonly DrawnPoint[]): CompactionMark[] {
  if (rows.length === 0) return [];
  const at = new Map<string, number>();
  points.forEach((p, pos) => {
    at.set(`${p.thread}\u0000${p.index}`, pos);
  });
  const out: CompactionMark[] = [];
  for (const row of rows) {
    const pos = row.request === null ? undefined : at.get(`${row.thread}\u0000${row.request}`);
    if (pos === undefined) continue;
    out.push({ pos, row, lost: row.lost, kept: row.kept });
  }
  return out.sort((a, b) => a.pos - b.pos);
}

/** Every observed and simulated break among the shown points (the run's break rows; by shown position, observed
 *  before simulated at a point). */
export function breaksOf(points: readonly DrawnPoint[], rows: readonly BreakRow[]): BreakMark[] {
  if (points.length === 0 || rows.length === 0) return [];
  const posOf = new Map<number, number>();
  points.forEach((p, pos) => {
    posOf.set(p.k, pos);
  });
  const out: BreakMark[] = [];
  for (const r of rows) {
    const pos = posOf.get(r.point);
    if (pos === undefined) continue;
    out.push({
      source: r.source,
      point: points[pos],
      pos,
      cause: r.cause,
      detail: r.detail,
      tokensLost: r.tokens,
      usd: r.usd,
      messageIndex: r.messageIndex,
    });
  }
  // Rows come by timeline position, observed first at a point; a stable sort keeps that within a position.
  return out.sort((a, b) => a.pos - b.pos);
}

/** Words for every named cause and every stage (a cause the vocabulary gains does not compile without its words). */
const CAUSE_WORDS: Record<NamedCause | StageId, string> = {
  sidechain: 'sub-agent start',
  'model-changed': 'model changed',
  'ttl-expired': 'cache expired',
  'agent-compaction': 'agent compacted',
  'tools-changed': 'tools changed',
  'system-changed': 'system prompt changed',
  'below-minimum': 'below cacheable minimum',
  'not-served': 'cache not served',
  'prefix-changed': 'static prefix changed',
  'memory-file-edited': 'memory file edited',
  'date-changed': 'date changed',
  'lookback-exceeded': 'beyond breakpoint lookback',
  'older-entry': 'older cache entry served',
  'same-entry': 'same cache entry read again',
  'reasoning-dropped': 'reasoning dropped at new prompt',
  unexplained: 'unexplained drop',
  observations: 'observations elided',
  spill: 'spilled to disk',
  tiers: 'tiered',
  microcompact: 'microcompact cleared',
  summarize: 'summarised',
  hardcap: 'hard cap dropped',
};

/** The recurring finding an observed break belongs to (same thread, its request among the pattern's). */
export function patternOf(
  patterns: readonly CachePattern[],
  b: Pick<BreakMark, 'source' | 'point'>,
): CachePattern | undefined {
  if (b.source !== 'observed') return undefined;
  return patterns.find((p) => p.thread === b.point.thread && p.requests.includes(b.point.index));
}

/** A short phrase for a break cause ("cache expired", "history rewritten at message 12"). */
export function causeWords(cause: BreakCause): string {
  const at = /^history-rewritten@(\d+)$/.exec(cause);
  if (at) return `history rewritten at message ${at[1]}`;
  return Object.hasOwn(CAUSE_WORDS, cause) ? CAUSE_WORDS[cause as keyof typeof CAUSE_WORDS] : cause.replace(/-/g, ' ');
}
