// The bytes a part of timeline chunks (timeline-chunk.ts: typed columns) crosses the worker boundary as. A part
// is transferred and read as views on its buffer: nothing to parse per point (its JSON cost ~25 ms to write and
// more to parse at 20k). Written in the worker (timeline-columns.ts), read on the page (wire.ts); this file is
// loaded by both, so it stays small.
import type { TimelineChunk } from './timeline-chunk.ts';

type Floats = { [K in keyof TimelineChunk]: TimelineChunk[K] extends Float64Array ? K : never }[keyof TimelineChunk];
type Ints = { [K in keyof TimelineChunk]: TimelineChunk[K] extends Int32Array ? K : never }[keyof TimelineChunk];

/** The number columns in their order in a part: 8-byte ones, then each category's, then the 4-byte ones. */
export const FLOAT_COLUMNS = [
  'time',
  'inputTokens',
  'outputTokens',
  'estimateIn',
  'estimateOut',
  'obsInput',
  'obsRead',
  'obsWrite',
  'obsOutput',
  'simRead',
  'simWrite',
  'simPrompt',
  'usdRecorded',
  'usdSimulated',
] as const satisfies readonly Floats[];
export const INT_COLUMNS = ['thread', 'index', 'model', 'responseMessage'] as const satisfies readonly Ints[];
/** Every typed column of a chunk is listed above (a column left out would not be sent): a compile-time check. */
type Unlisted = Exclude<Floats, (typeof FLOAT_COLUMNS)[number]> | Exclude<Ints, (typeof INT_COLUMNS)[number]>;
const everyColumnListed: [Unlisted] extends [never] ? true : never = true;
void everyColumnListed;

/** A chunk in a part's head: its first point, its point count and its tables. */
export type ChunkHead = { from: number; n: number; threads: string[]; models: string[]; cats: string[] };

export const pad8 = (x: number): number => (x + 7) & ~7;

/** A part's layout: the head's UTF-8 JSON length (u32, little-endian), the head (ChunkHead[]), zero bytes to a
 *  multiple of 8, then per chunk its float columns, its categories' columns and its int columns, padded to 8 (a
 *  no-op while the int columns are four, 16 bytes a point; kept so a fifth keeps the next chunk's floats aligned). */
export const chunkBytes = (h: ChunkHead): number =>
  pad8((FLOAT_COLUMNS.length + h.cats.length) * 8 * h.n + INT_COLUMNS.length * 4 * h.n);

/** The chunks of a part, as views on its bytes (copied first only if they do not start at a multiple of 8). */
export function unpackTimeline(bytes: Uint8Array): TimelineChunk[] {
  const own = bytes.byteOffset % 8 === 0 ? bytes : bytes.slice();
  const buf = own.buffer as ArrayBuffer;
  const base = own.byteOffset;
  const headLength = new DataView(buf, base, 4).getUint32(0, true);
  const heads = JSON.parse(new TextDecoder().decode(own.subarray(4, 4 + headLength))) as ChunkHead[];
  let at = base + pad8(4 + headLength);
  return heads.map((h) => {
    const start = at;
    const floats = () => {
      const col = new Float64Array(buf, at, h.n);
      at += 8 * h.n;
      return col;
    };
    const c = { from: h.from, threads: h.threads, models: h.models, cats: h.cats } as Record<string, unknown>;
    for (const k of FLOAT_COLUMNS) c[k] = floats();
    c.catValues = h.cats.map(floats);
    for (const k of INT_COLUMNS) {
      c[k] = new Int32Array(buf, at, h.n);
      at += 4 * h.n;
    }
    at = start + chunkBytes(h);
    return c as TimelineChunk;
  });
}
