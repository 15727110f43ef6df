// Big replies cross the worker boundary as transferred UTF-8 JSON buffers in parts of bounded size: each part
// is parsed in its own main-thread task (a part of at most PART_CHARS parses in a few ms), so no single task
// blocks the page while a large result arrives (SPEC §9: no main-thread task over 100 ms while loading or
// re-running). Parts are cut by JSON length, not item count: rows and timeline points differ 2× in size. The worker
// writes each part's bytes as it cuts it (no part text is held: a 20k run's texts took ~50 MB of its heap), and
// drops a reply the page no longer wants (a run overtaken during a fast drag) without sending the rest of it. An
// array field made on read (lib/made-on-read.ts: a run's timeline, events, tool results) is written item by item.
import { type Items, itemsOf } from '../lib/made-on-read.ts';

export type Packed = { bytes: Uint8Array };

export function unpackJson<T>(p: Packed): T {
  return JSON.parse(new TextDecoder().decode(p.bytes)) as T;
}

/** JSON characters per part (a larger single item makes a part of its own). */
export const PART_CHARS = 192_000;

/** A reply split into parts: part 0 is the object without its big arrays; the rest are array slices. */
export type PartPlan = { key: string | null; from: number; to: number }[];

/** A reply cut into parts: part k's bytes are the UTF-8 JSON of `partValue(value, plan, k, arrayKeys)`. */
export type Parts = { plan: PartPlan; parts: Uint8Array[] };

/** Cut `value` (an array, or an object with some big array fields) into parts of at most `budget` JSON
 *  characters, each written as UTF-8 bytes at once. */
export function cutParts(value: unknown, arrayKeys: readonly string[], budget = PART_CHARS): Parts {
  const plan: PartPlan = [];
  const out = new PartWriter();
  if (Array.isArray(value)) {
    slices(null, value, budget, plan, out);
    return { plan, parts: out.parts };
  }
  plan.push({ key: null, from: 0, to: 0 });
  out.write(JSON.stringify(partValue(value, plan, 0, arrayKeys)) ?? 'null');
  out.end();
  if (typeof value !== 'object' || value === null) return { plan, parts: out.parts };
  for (const k of arrayKeys) {
    const items = itemsOf(value, k);
    const v = items ?? (value as Record<string, unknown>)[k];
    if (items || Array.isArray(v)) slices(k, v as Items<unknown> | readonly unknown[], budget, plan, out);
  }
  return { plan, parts: out.parts };
}

/** Writes JSON texts as UTF-8 into one reused scratch buffer; `end` copies the part out at its exact size. Item
 *  texts are encoded one by one: JSON.stringify escapes lone surrogates, so each is well-formed and the bytes equal
 *  those of the joined text. */
class PartWriter {
  readonly parts: Uint8Array[] = [];
  private buf = new Uint8Array(1 << 16);
  private at = 0;
  private readonly encoder = new TextEncoder();

  write(text: string): void {
    const need = this.at + text.length * 3; // a UTF-16 unit is at most 3 UTF-8 bytes
    if (need > this.buf.length) {
      const grown = new Uint8Array(Math.max(need, this.buf.length * 2));
      grown.set(this.buf.subarray(0, this.at));
      this.buf = grown;
    }
    this.at += this.encoder.encodeInto(text, this.buf.subarray(this.at)).written;
  }

  end(): void {
    this.parts.push(this.buf.slice(0, this.at));
    this.at = 0;
  }
}

function slices(
  key: string | null,
  items: Items<unknown> | readonly unknown[],
  budget: number,
  plan: PartPlan,
  out: PartWriter,
): void {
  const item = Array.isArray(items) ? (i: number) => items[i] : (i: number) => (items as Items<unknown>).at(i);
  let from = 0;
  let count = 0;
  let size = 0;
  const flush = (to: number) => {
    plan.push({ key, from, to });
    if (count === 0) out.write('[');
    out.write(']');
    out.end();
    from = to;
    count = 0;
    size = 0;
  };
  for (let i = 0; i < items.length; i++) {
    const json = JSON.stringify(item(i)) ?? 'null'; // as JSON.stringify writes undefined in an array
    if (count > 0 && size + json.length + 1 > budget) flush(i);
    out.write(count === 0 ? '[' : ',');
    out.write(json);
    count++;
    size += json.length + 1;
  }
  if (count > 0 || from === 0) flush(items.length);
}

/** The value of part `k` of a plan. */
export function partValue(value: unknown, plan: PartPlan, k: number, arrayKeys: readonly string[]): unknown {
  const p = plan[k];
  if (Array.isArray(value)) return value.slice(p.from, p.to);
  const obj = value as Record<string, unknown>;
  if (p.key === null) {
    // The fields in their order, the big arrays empty (an array made on read is not made).
    const head: Record<string, unknown> = {};
    for (const key of Object.keys(obj ?? {})) {
      const big = arrayKeys.includes(key) && (itemsOf(obj, key) !== undefined || Array.isArray(obj[key]));
      head[key] = big ? [] : obj[key];
    }
    return head;
  }
  const items = itemsOf(obj, p.key);
  if (items) return Array.from({ length: p.to - p.from }, (_, i) => items.at(p.from + i));
  return ((obj[p.key] as unknown[] | undefined) ?? []).slice(p.from, p.to);
}

/** Reassemble parts received in order. */
export function mergePart(acc: unknown, plan: PartPlan, k: number, part: unknown): unknown {
  const p = plan[k];
  if (p.key === null && !Array.isArray(part)) return part;
  const arr = p.key === null ? ((acc as unknown[] | undefined) ?? []) : (acc as Record<string, unknown[]>)[p.key];
  for (const x of part as unknown[]) arr.push(x);
  return p.key === null ? arr : acc;
}

/** The worker's side: replies cut into parts, held until the page has fetched each part or drops the reply. */
export class HeldReplies {
  private next = 1;
  private readonly replies = new Map<number, Uint8Array[]>();

  hold(value: unknown, arrayKeys: readonly string[]): { id: number; plan: PartPlan } {
    const id = this.next++;
    const { plan, parts } = cutParts(value, arrayKeys);
    this.replies.set(id, parts);
    return { id, plan };
  }

  /** Part `k` of reply `id`, given up by the holder (the caller transfers its buffer); the last part ends the reply. */
  part(id: number, k: number): Packed {
    const parts = this.replies.get(id);
    if (!parts) throw new Error(`reply ${id} is gone`);
    const p = { bytes: parts[k] };
    parts[k] = EMPTY;
    if (k === parts.length - 1) this.replies.delete(id);
    return p;
  }

  /** Forget reply `id` and the parts not yet fetched (the page no longer wants it). */
  drop(id: number): void {
    this.replies.delete(id);
  }

  /** Replies held (tests). */
  get size(): number {
    return this.replies.size;
  }
}

const EMPTY = new Uint8Array(0);

/** The page's side: fetch and reassemble the parts of a held reply while `wanted()` holds; when it stops holding
 *  (a newer run was asked for), the rest is dropped in the worker unfetched and the answer is undefined. */
export async function fetchHeld<T>(
  remote: { part(id: number, k: number): Promise<Packed>; drop(id: number): Promise<void> },
  held: { id: number; plan: PartPlan },
  wanted: () => boolean = () => true,
): Promise<T | undefined> {
  let acc: unknown;
  for (let k = 0; k < held.plan.length; k++) {
    if (!wanted()) {
      await remote.drop(held.id);
      return undefined;
    }
    acc = mergePart(acc, held.plan, k, unpackJson(await remote.part(held.id, k)));
  }
  return acc as T;
}

/** The run result's arrays the worker cuts into parts (the rest of a run result goes whole in part 0). */
export const RUN_ARRAYS = [
  'timeline',
  'toolResults',
  'events',
  'pairing',
  'refetches',
  'compactions',
  'tasks',
] as const;
