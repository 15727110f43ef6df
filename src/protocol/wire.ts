// Big replies cross the worker boundary as transferred UTF-8 JSON buffers in parts of bounded size: each part
// is parsed in its own main-thread task (a part of at most PART_CHARS parses in a few ms), so no single task
// blocks the page while a large result arrives (SPEC §9: no main-thread task over 100 ms while loading or
// re-running). Parts are cut by JSON length, not item count: rows and timeline points differ 2× in size.

export type Packed = { bytes: Uint8Array };

export function packText(json: string): Packed {
  return { bytes: new TextEncoder().encode(json) };
}

export function unpackJson<T>(p: Packed): T {
  return JSON.parse(new TextDecoder().decode(p.bytes)) as T;
}

/** JSON characters per part (a larger single item makes a part of its own). */
export const PART_CHARS = 192_000;

/** A reply split into parts: part 0 is the object without its big arrays; the rest are array slices. */
export type PartPlan = { key: string | null; from: number; to: number }[];

/** A reply cut into parts, each part's JSON text made once. */
export type Parts = { plan: PartPlan; texts: string[] };

/** Cut `value` (an array, or an object with some big array fields) into parts of at most `budget` JSON
 *  characters; text k is the JSON of `partValue(value, plan, k, arrayKeys)`. */
export function cutParts(value: unknown, arrayKeys: readonly string[], budget = PART_CHARS): Parts {
  const plan: PartPlan = [];
  const texts: string[] = [];
  if (Array.isArray(value)) {
    slices(null, value, budget, plan, texts);
    return { plan, texts };
  }
  plan.push({ key: null, from: 0, to: 0 });
  texts.push(JSON.stringify(partValue(value, plan, 0, arrayKeys)) ?? 'null');
  if (typeof value !== 'object' || value === null) return { plan, texts };
  for (const k of arrayKeys) {
    const v = (value as Record<string, unknown>)[k];
    if (Array.isArray(v)) slices(k, v, budget, plan, texts);
  }
  return { plan, texts };
}

function slices(key: string | null, items: readonly unknown[], budget: number, plan: PartPlan, texts: string[]): void {
  let from = 0;
  let chunk: string[] = [];
  let size = 0;
  const flush = (to: number) => {
    plan.push({ key, from, to });
    texts.push(`[${chunk.join(',')}]`);
    from = to;
    chunk = [];
    size = 0;
  };
  for (let i = 0; i < items.length; i++) {
    const json = JSON.stringify(items[i]) ?? 'null'; // as JSON.stringify writes undefined in an array
    if (chunk.length > 0 && size + json.length + 1 > budget) flush(i);
    chunk.push(json);
    size += json.length + 1;
  }
  if (chunk.length > 0 || from === 0) flush(items.length);
}

/** The value of part `k` of a plan. */
export function partValue(value: unknown, plan: PartPlan, k: number, arrayKeys: readonly string[]): unknown {
  const p = plan[k];
  if (Array.isArray(value)) return value.slice(p.from, p.to);
  if (p.key === null) {
    const head: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    for (const key of arrayKeys) if (Array.isArray(head[key])) head[key] = [];
    return head;
  }
  return ((value as Record<string, unknown[]>)[p.key] ?? []).slice(p.from, p.to);
}

/** Reassemble parts received in order. */
export function mergePart(acc: unknown, plan: PartPlan, k: number, part: unknown): unknown {
  const p = plan[k];
  if (p.key === null && !Array.isArray(part)) return part;
  const arr = p.key === null ? ((acc as unknown[] | undefined) ?? []) : (acc as Record<string, unknown[]>)[p.key];
  for (const x of part as unknown[]) arr.push(x);
  return p.key === null ? arr : acc;
}
