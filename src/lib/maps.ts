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
