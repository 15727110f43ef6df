// Patterns across a session's observed cache breaks and the advice they support (issue 16). Breaks of one thread
// whose cached prefix ended at the same point (same message and region, reads within the uncertainty) are one
// finding — "something rewrites message 1 every few turns: 9 times, 182k tokens re-written, $0.71" — ranked by
// dollars. Advice is given only with the dollars the evidence supports: a 1-hour TTL for the pauses seen (the
// ttl-expired breaks' own 1-hour estimate), keeping what changes out of the cached prefix (the recurring rewrite,
// the stops inside the static prefix). Breaks served the same older entry (OpenAI, `older-entry`: the same read to
// the token) are one finding too, with no advice: nothing in the log changed there. Counts and tokens are observed;
// dollars are estimates at list prices.

import { maxOf, minOf } from '../lib/arrays.ts';
import { fmtTok } from './cache-evidence.ts';
import type { BreakInfo } from './cache-timeline.ts';
import type { OneHourAdvice } from './trade-off-cost.ts';

/** One observed break as the findings read it. */
export type BreakRecord = {
  thread: string;
  index: number;
  brk: BreakInfo;
  /** The break's dollars (estimate; null: no price) and, at a ttl-expired break, the 1-hour estimate. */
  usd: number | null;
  oneHour: OneHourAdvice | null;
};

export type CachePattern = {
  thread: string;
  /** The shared divergence point: the message (and region) where the cached prefix ended, the reads' range. */
  messageIndex: number;
  region: 'unlogged-prefix' | 'messages';
  tokensFrom: number;
  tokensTo: number;
  /** The requests (indices in the thread) that broke there, and their causes (observed breaks). */
  requests: number[];
  causes: string[];
  /** Tokens no longer cached, summed (observed), and their dollars (estimate; null: no price). */
  tokensLost: number;
  usd: number | null;
  /** Median requests between recurrences. */
  every: number;
  text: string;
};

type CacheAdvice = {
  kind: 'one-hour-ttl' | 'recurring-rewrite' | 'stable-prefix';
  text: string;
  /** What following it would have saved (estimate at list prices; null: no price). */
  usd: number | null;
  /** The breaks it rests on. */
  breaks: { thread: string; index: number }[];
};

export type CacheFindings = { patterns: CachePattern[]; advice: CacheAdvice[] };

/** Causes whose divergence point says where content changed (a rewrite, not an expiry or a new thread). */
const REWRITE =
  /^(prefix-changed|memory-file-edited|date-changed|tools-changed|system-changed|history-rewritten@|not-served|lookback-exceeded)/;
/** Causes that stop inside the static prefix (system prompt, tools, context sent before the first message). */
const STATIC = /^(prefix-changed|memory-file-edited|date-changed|tools-changed|system-changed)$/;

const usdText = (x: number | null) => (x === null ? 'price unknown' : `≈$${x < 0.01 ? x.toFixed(4) : x.toFixed(2)}`);

function addUsd(a: number | null, b: number | null): number | null {
  return a === null && b === null ? null : (a ?? 0) + (b ?? 0);
}

const OLDER = 'older-entry';
/** Breaks that recur at one point: the rewrites, the best-effort misses and the older entries served. */
const groupable = (cause: string) => REWRITE.test(cause) || cause === OLDER;

/** Two breaks diverged at the same point: same thread, message and region, reads within the uncertainty; an older
 *  entry only with the same entry again (the same read, to the token). */
function samePoint(a: BreakRecord, b: BreakRecord): boolean {
  const x = a.brk.divergence;
  const y = b.brk.divergence;
  if (!x || !y || a.thread !== b.thread) return false;
  if ((a.brk.cause === OLDER) !== (b.brk.cause === OLDER)) return false;
  if (a.brk.cause === OLDER) return x.tokens === y.tokens;
  if (x.region !== y.region || x.messageIndex !== y.messageIndex) return false;
  // A cache that was not served is not a rewrite: the two never make one finding.
  if ((a.brk.cause === 'not-served') !== (b.brk.cause === 'not-served')) return false;
  const slack = Math.max(128, Math.min(x.uncertaintyTokens, y.uncertaintyTokens), 0.01 * x.tokens);
  return Math.abs(x.tokens - y.tokens) <= slack;
}

function where(p: Pick<CachePattern, 'messageIndex' | 'region' | 'tokensFrom' | 'tokensTo'>): string {
  const at = p.tokensFrom === p.tokensTo ? fmtTok(p.tokensFrom) : `${fmtTok(p.tokensFrom)}–${fmtTok(p.tokensTo)}`;
  return p.region === 'unlogged-prefix'
    ? `the context sent before message ${p.messageIndex} (system prompt, tools, injected context; the cache stopped at ${at} tokens)`
    : `message ${p.messageIndex} (the cache stopped at ${at} tokens)`;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s[s.length >> 1];
}

/** Breaks that recur at one divergence point, ranked by dollars (then tokens). */
function cachePatterns(breaks: readonly BreakRecord[]): CachePattern[] {
  const groups: BreakRecord[][] = [];
  for (const b of breaks) {
    if (!groupable(b.brk.cause) || !b.brk.divergence) continue;
    const g = groups.find((x) => samePoint(x[0], b));
    if (g) g.push(b);
    else groups.push([b]);
  }
  const out: CachePattern[] = [];
  for (const g of groups) {
    if (g.length < 2) continue;
    const d = g.map((b) => b.brk.divergence as NonNullable<BreakInfo['divergence']>);
    const requests = g.map((b) => b.index).sort((a, b) => a - b);
    const tokensLost = g.reduce((n, b) => n + b.brk.tokensLost, 0);
    const usd = g.reduce<number | null>((n, b) => addUsd(n, b.usd), null);
    const p = {
      thread: g[0].thread,
      messageIndex: d[0].messageIndex,
      region: d[0].region,
      tokensFrom: minOf(d.map((x) => x.tokens)),
      tokensTo: maxOf(d.map((x) => x.tokens)),
      requests,
      causes: [...new Set(g.map((b) => b.brk.cause))],
      tokensLost,
      usd,
      every: median(requests.slice(1).map((r, i) => r - requests[i])),
    };
    const notServed = p.causes.every((c) => c === 'not-served');
    const older = p.causes.every((c) => c === OLDER);
    const text = older
      ? `the cache served the same older ${fmtTok(p.tokensFrom)}-token entry ${g.length} times (requests ${requests.join(', ')}) while requests between read more: ${fmtTok(tokensLost)} tokens sent again (observed), ${usdText(usd)}`
      : notServed
        ? `the cache served only up to ${where(p)} ${g.length} times (requests ${requests.join(', ')}) although the log shows the prefix unchanged: ${fmtTok(tokensLost)} tokens sent again (observed), ${usdText(usd)}`
        : `something rewrites ${where(p)} every ~${p.every} requests: ${g.length} times (requests ${requests.join(', ')}), ${fmtTok(tokensLost)} tokens re-written (observed), ${usdText(usd)}`;
    out.push({ ...p, text });
  }
  return out.sort((a, b) => (b.usd ?? -1) - (a.usd ?? -1) || b.tokensLost - a.tokensLost);
}

/** Advice with its dollar effect, from the breaks and their patterns (largest first). */
function cacheAdvice(breaks: readonly BreakRecord[], patterns: readonly CachePattern[]): CacheAdvice[] {
  const out: CacheAdvice[] = [];
  const ttl = breaks.filter((b) => b.brk.cause === 'ttl-expired');
  const helps = ttl.filter((b) => b.oneHour?.helps && b.oneHour.savedUsd !== null && b.oneHour.extraUsd !== null);
  if (helps.length > 0) {
    const net = helps.reduce((n, b) => n + ((b.oneHour?.savedUsd ?? 0) - (b.oneHour?.extraUsd ?? 0)), 0);
    const gaps = helps.map((b) => Math.round((b.brk.gapMs ?? 0) / 60_000));
    out.push({
      kind: 'one-hour-ttl',
      text: `use a 1-hour cache TTL: ${helps.length} of the ${ttl.length} expiries came after pauses of ${minOf(gaps) === maxOf(gaps) ? minOf(gaps) : `${minOf(gaps)}–${maxOf(gaps)}`} min (under an hour); writing those prefixes for 1 hour would have saved ${usdText(net)} net of the 1-hour write premium at those breaks`,
      usd: net,
      breaks: helps.map((b) => ({ thread: b.thread, index: b.index })),
    });
  }
  const inPattern = new Set<string>();
  for (const p of patterns) {
    // Nothing to change where the provider did not serve what it had, or served an older entry.
    if (p.causes.every((c) => c === 'not-served' || c === OLDER)) continue;
    for (const r of p.requests) inPattern.add(`${p.thread}#${r}`);
    out.push({
      kind: 'recurring-rewrite',
      text: `find what rewrites ${where(p)} and keep it after the last cache breakpoint: it broke the cache ${p.requests.length} times, ${fmtTok(p.tokensLost)} tokens re-written, ${usdText(p.usd)}`,
      usd: p.usd,
      breaks: p.requests.map((index) => ({ thread: p.thread, index })),
    });
  }
  const stat = breaks.filter((b) => STATIC.test(b.brk.cause) && !inPattern.has(`${b.thread}#${b.index}`));
  if (stat.length > 0) {
    const usd = stat.reduce<number | null>((n, b) => addUsd(n, b.usd), null);
    const tokens = stat.reduce((n, b) => n + b.brk.tokensLost, 0);
    const causes = [...new Set(stat.map((b) => b.brk.cause))].join(', ');
    out.push({
      kind: 'stable-prefix',
      text: `keep ephemeral content (dates, memory files, tool lists that change) out of the cached prefix, or after the last breakpoint: ${stat.length} break${stat.length === 1 ? '' : 's'} stopped inside the static prefix (${causes}), ${fmtTok(tokens)} tokens re-written, ${usdText(usd)}`,
      usd,
      breaks: stat.map((b) => ({ thread: b.thread, index: b.index })),
    });
  }
  return out.sort((a, b) => (b.usd ?? -1) - (a.usd ?? -1));
}

export function cacheFindings(breaks: readonly BreakRecord[]): CacheFindings {
  const patterns = cachePatterns(breaks);
  return { patterns, advice: cacheAdvice(breaks, patterns) };
}
