// Get-or-create for nested caches (per meter, per transcript, per block …): one helper instead of the same
// five lines at every cache. Pass a module-level `make` so a lookup allocates nothing.

/** The value of `key` in `map` (a Map or WeakMap), made with `make` and stored on first use. */
export function getOrInsert<K, V>(
  map: { get(key: K): V | undefined; set(key: K, value: V): unknown },
  key: K,
  make: () => V,
): V {
  let v = map.get(key);
  if (v === undefined) {
    v = make();
    map.set(key, v);
  }
  return v;
}

/** `make` for a cache level that is a WeakMap, a Map or a list. */
export function newWeakMap<K extends object, V>(): WeakMap<K, V> {
  return new WeakMap();
}
export function newMap<K, V>(): Map<K, V> {
  return new Map();
}
export function newList<T>(): T[] {
  return [];
}
