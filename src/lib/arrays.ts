// Array helpers that never put an array's elements on the stack. `a.push(...b)`, `Math.max(...b)` and friends pass
// every element as an argument, and a browser worker's stack holds only ~100k of them: an input-sized array (a
// session's 70,000 tool calls) ends the run with "Maximum call stack size exceeded". These loop instead; the lint
// plugin test/architecture/no-stack-spread.grit keeps spreads out of the core.

/** Append every element of `items` to `into` (in place); returns `into`. */
export function pushAll<T>(into: T[], items: Iterable<T>): T[] {
  for (const x of items) into.push(x);
  return into;
}

/** The largest element (`empty` when there is none). */
export function maxOf(xs: Iterable<number>, empty = Number.NEGATIVE_INFINITY): number {
  let m: number | undefined;
  for (const x of xs) if (m === undefined || x > m) m = x;
  return m ?? empty;
}

/** The smallest element (`empty` when there is none). */
export function minOf(xs: Iterable<number>, empty = Number.POSITIVE_INFINITY): number {
  let m: number | undefined;
  for (const x of xs) if (m === undefined || x < m) m = x;
  return m ?? empty;
}

/** `a.splice(start, deleteCount, ...items)` in place, without spreading `items` (none or one item: the native splice
 *  itself, one shift of the tail; else the removal is the native one and a few items go in one by one, many by one
 *  shift of the tail). Returns the removed elements. */
export function spliceIn<T>(a: T[], start: number, deleteCount: number, items: readonly T[]): T[] {
  if (items.length === 0) return a.splice(start, deleteCount);
  if (items.length === 1) return a.splice(start, deleteCount, items[0]);
  const removed = a.splice(start, deleteCount);
  if (items.length <= 8) {
    for (let i = 0; i < items.length; i++) a.splice(start + i, 0, items[i]);
    return removed;
  }
  const n = a.length;
  a.length = n + items.length;
  for (let i = n - 1; i >= start; i--) a[i + items.length] = a[i];
  for (let i = 0; i < items.length; i++) a[start + i] = items[i];
  return removed;
}
