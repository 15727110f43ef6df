// An array field of a reply made when first read: a run result's timeline, event rows and tool-result rows are
// written to the wire item by item from what the run keeps (items.at(i), each dropped once written), so a long
// session's 20k points do not live, promoted, from one run to the next. Reading the field (tests, the CLI, a spread)
// makes the plain array.

/** Items made one at a time. */
export type Items<T> = { readonly length: number; at(i: number): T; toArray(): T[] };

const sources = new WeakMap<object, Map<string, Items<unknown>>>();

/** Make `obj[key]` (already a field, so the key order holds) the array of `items`, made on its first read. */
export function madeOnRead<T>(obj: object, key: string, items: Items<T>): void {
  const plain = (value: unknown) => {
    sources.get(obj)?.delete(key);
    Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  };
  Object.defineProperty(obj, key, {
    enumerable: true,
    configurable: true,
    get() {
      const value = items.toArray();
      plain(value);
      return value;
    },
    set: plain,
  });
  const m = sources.get(obj) ?? new Map<string, Items<unknown>>();
  m.set(key, items);
  sources.set(obj, m);
}

/** The items of `obj[key]` while that field has not been read, or undefined. */
export function itemsOf<T = unknown>(obj: object, key: string): Items<T> | undefined {
  return sources.get(obj)?.get(key) as Items<T> | undefined;
}
