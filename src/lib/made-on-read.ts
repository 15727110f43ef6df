// An array field of a reply made when first read: a run result's timeline, event rows and tool-result rows are
// written to the wire item by item from what the run keeps (items.at(i), each dropped once written), so a long
// session's 20k points do not live, promoted, from one run to the next. Reading the field (tests, the CLI, a spread)
// makes the plain array.

/** Items made one at a time. */
export type Items<T> = { readonly length: number; at(i: number): T; toArray(): T[] };

/** The accessor of a field made on read carries its items (no module state: the field's own descriptor says). */
const ITEMS = Symbol('items made on read');
type MadeGetter = (() => unknown) & { [ITEMS]?: Items<unknown> };

/** Make `obj[key]` (already a field, so the key order holds) the array of `items`, made on its first read. */
export function madeOnRead<T>(obj: object, key: string, items: Items<T>): void {
  const plain = (value: unknown) => {
    Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  };
  const get: MadeGetter = () => {
    const value = items.toArray();
    plain(value);
    return value;
  };
  get[ITEMS] = items;
  Object.defineProperty(obj, key, { enumerable: true, configurable: true, get, set: plain });
}

/** The items of `obj[key]` while that field has not been read (nor written), or undefined. */
export function itemsOf<T = unknown>(obj: object, key: string): Items<T> | undefined {
  const get = Object.getOwnPropertyDescriptor(obj, key)?.get as MadeGetter | undefined;
  return get?.[ITEMS] as Items<T> | undefined;
}
