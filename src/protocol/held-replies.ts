// The worker's side of the wire (wire.ts): a reply cut into parts by JSON length, not item count (rows and timeline
// points differ 2× in size), each part's UTF-8 bytes written as it is cut (no part text is held: a 20k run's texts
// took ~50 MB of its heap), held until the page fetches it or drops the reply (a run overtaken during a fast drag).
// An array field made on read (lib/made-on-read.ts: a run's timeline) is written item by item; a field packed as
// bytes (the timeline's typed columns) goes `perPart` items a part, which the page reads by the part's codec.
import { type Items, itemsOf } from '../lib/made-on-read.ts';
import type { TimelineChunk } from '../projections/timeline-chunk.ts';
import { PER_PART, packTimeline } from '../projections/timeline-columns.ts';
import { type Codec, PART_CHARS, type Packed, type PartPlan, type Parts } from './wire.ts';

/** A big array field sent as bytes, not JSON: `perPart` items a part, packed by `pack` (wire.ts unpacks a part by
 *  `codec`). */
type PackedKey = { key: string; codec: Codec; perPart: number; pack(items: readonly unknown[]): Uint8Array };
/** A big array field of a reply: its key (cut as JSON), or how it is packed. */
export type ArrayKey = string | PackedKey;

const keyOf = (a: ArrayKey): string => (typeof a === 'string' ? a : a.key);

/** Cut `value` (an array, or an object with some big array fields) into parts of at most `budget` JSON
 *  characters, each written as UTF-8 bytes at once (a packed field: its own parts of bytes). */
export function cutParts(value: unknown, arrayKeys: readonly ArrayKey[], budget = PART_CHARS): Parts {
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
  for (const a of arrayKeys) {
    const k = keyOf(a);
    const items = itemsOf(value, k);
    const v = (items ?? (value as Record<string, unknown>)[k]) as Items<unknown> | readonly unknown[];
    if (!items && !Array.isArray(v)) continue;
    if (typeof a === 'string') slices(k, v, budget, plan, out);
    else packed(a, v, plan, out);
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

  /** A part already written (bytes that own their buffer). */
  add(bytes: Uint8Array): void {
    this.parts.push(bytes);
  }
}

/** Item `i` of a list or of one made on read. */
function itemAt(items: Items<unknown> | readonly unknown[]): (i: number) => unknown {
  return Array.isArray(items) ? (i: number) => items[i] : (i: number) => (items as Items<unknown>).at(i);
}

/** A packed field's parts: `perPart` items each (one part, empty, when it has none). */
function packed(a: PackedKey, items: Items<unknown> | readonly unknown[], plan: PartPlan, out: PartWriter): void {
  const item = itemAt(items);
  for (let from = 0; from < items.length || from === 0; from += a.perPart) {
    const to = Math.min(items.length, from + a.perPart);
    const part: unknown[] = [];
    for (let i = from; i < to; i++) part.push(item(i));
    plan.push({ key: a.key, from, to, codec: a.codec });
    out.add(a.pack(part));
  }
}

function slices(
  key: string | null,
  items: Items<unknown> | readonly unknown[],
  budget: number,
  plan: PartPlan,
  out: PartWriter,
): void {
  const item = itemAt(items);
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
export function partValue(value: unknown, plan: PartPlan, k: number, arrayKeys: readonly ArrayKey[]): unknown {
  const p = plan[k];
  if (Array.isArray(value)) return value.slice(p.from, p.to);
  const obj = value as Record<string, unknown>;
  if (p.key === null) {
    // The fields in their order, the big arrays empty (an array made on read is not made).
    const head: Record<string, unknown> = {};
    const keys = arrayKeys.map(keyOf);
    for (const key of Object.keys(obj ?? {})) {
      const big = keys.includes(key) && (itemsOf(obj, key) !== undefined || Array.isArray(obj[key]));
      head[key] = big ? [] : obj[key];
    }
    return head;
  }
  const items = itemsOf(obj, p.key);
  if (items) return Array.from({ length: p.to - p.from }, (_, i) => items.at(p.from + i));
  return ((obj[p.key] as unknown[] | undefined) ?? []).slice(p.from, p.to);
}

/** The worker's side: replies cut into parts, held until the page has fetched each part or drops the reply. */
export class HeldReplies {
  private next = 1;
  private readonly replies = new Map<number, Uint8Array[]>();

  hold(value: unknown, arrayKeys: readonly ArrayKey[]): { id: number; plan: PartPlan } {
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

/** The run's timeline chunks, packed as bytes. */
const TIMELINE: PackedKey = {
  key: 'timeline',
  codec: 'timeline',
  perPart: PER_PART,
  pack: (chunks) => packTimeline(chunks as TimelineChunk[]),
};

/** The run result's arrays the worker cuts into parts (the rest of a run result goes whole in part 0). */
export const RUN_ARRAYS: readonly ArrayKey[] = [TIMELINE, 'breaks', 'pairing', 'compactions', 'tasks'];
