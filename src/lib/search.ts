// The one binary search of the code base: the first index in [0, n) at which a monotone predicate (false …
// false, true … true) holds. Callers phrase "first entry ≥ x", "last entry ≤ x" (first > x, minus one) and
// "where would this go" through it, so the bounds are written and tested once.

/** The smallest i in [from, n) with `isAfter(i)` true, or n when there is none; `isAfter` must be monotone (a
 *  caller that knows the answer is at or after `from` searches only there). */
export function firstIndex(n: number, isAfter: (i: number) => boolean, from = 0): number {
  let lo = from;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (isAfter(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
