// Big replies cross the worker boundary as transferred UTF-8 JSON buffers in parts of bounded size: each part
// is parsed in its own main-thread task (a part of at most PART_CHARS parses in a few ms), so no single task
// blocks the page while a large result arrives (SPEC §9: no main-thread task over 100 ms while loading or
// re-running). A field packed as bytes (the run's timeline: typed columns) is read as views, not parsed. This is
// the page's side (reassemble, fetch, drop) and the shapes both sides share; the worker's side, which cuts and
// holds the parts, is held-replies.ts (kept out of the page's bundle).
import { unpackTimeline } from '../projections/timeline-bytes.ts';

export type Packed = { bytes: Uint8Array };

/** How a part's bytes are read when they are not JSON: the items of a field packed as bytes. */
export type Codec = 'timeline';

export function unpackJson<T>(p: Packed): T {
  return JSON.parse(new TextDecoder().decode(p.bytes)) as T;
}

/** JSON characters per part (a larger single item makes a part of its own). */
export const PART_CHARS = 192_000;

/** A reply split into parts: part 0 is the object without its big arrays; the rest are array slices, as JSON or
 *  (`codec`) packed as bytes. */
export type PartPlan = { key: string | null; from: number; to: number; codec?: Codec }[];

/** A reply cut into parts: part k's bytes are the UTF-8 JSON of `partValue(value, plan, k, arrayKeys)`, or for a
 *  packed part (`codec`) those items packed as bytes (timeline-bytes.ts). */
export type Parts = { plan: PartPlan; parts: Uint8Array[] };

/** Part `k` as the page reads it: its JSON value, or the items of a packed part. */
export function unpackPart(plan: PartPlan, k: number, p: Packed): unknown {
  return plan[k].codec === 'timeline' ? unpackTimeline(p.bytes) : unpackJson(p);
}

/** Reassemble parts received in order. */
export function mergePart(acc: unknown, plan: PartPlan, k: number, part: unknown): unknown {
  const p = plan[k];
  if (p.key === null && !Array.isArray(part)) return part;
  const arr = p.key === null ? ((acc as unknown[] | undefined) ?? []) : (acc as Record<string, unknown[]>)[p.key];
  for (const x of part as unknown[]) arr.push(x);
  return p.key === null ? arr : acc;
}

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
    acc = mergePart(acc, held.plan, k, unpackPart(held.plan, k, await remote.part(held.id, k)));
  }
  return acc as T;
}
