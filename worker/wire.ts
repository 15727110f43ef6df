// Big replies cross the worker boundary as transferred UTF-8 JSON buffers in parts: each part is parsed
// in its own main-thread task (JSON.parse of a part takes a few ms), so no single task blocks the page
// while a large result arrives (SPEC §9: no main-thread task over 100 ms while loading or re-running).

export type Packed = { bytes: Uint8Array };

export function packJson(value: unknown): Packed {
  return { bytes: new TextEncoder().encode(JSON.stringify(value)) };
}

export function unpackJson<T>(p: Packed): T {
  return JSON.parse(new TextDecoder().decode(p.bytes)) as T;
}

/** Items per part for array fields. */
export const PART_ITEMS = 1500;

/** A reply split into parts: part 0 is the object without its big arrays; the rest are array slices. */
export type PartPlan = { key: string | null; from: number; to: number }[];

/** Split `value` (an array, or an object with some big array fields) into a plan of parts. */
export function planParts(value: unknown, arrayKeys: readonly string[]): PartPlan {
  if (Array.isArray(value)) return slices(null, value.length);
  const plan: PartPlan = [{ key: null, from: 0, to: 0 }];
  if (typeof value !== 'object' || value === null) return plan;
  for (const k of arrayKeys) {
    const v = (value as Record<string, unknown>)[k];
    if (Array.isArray(v)) plan.push(...slices(k, v.length));
  }
  return plan;
}

function slices(key: string | null, n: number): PartPlan {
  const out: PartPlan = [];
  for (let i = 0; i < n; i += PART_ITEMS) out.push({ key, from: i, to: Math.min(n, i + PART_ITEMS) });
  if (out.length === 0) out.push({ key, from: 0, to: 0 });
  return out;
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
  if (p.key === null) return [...((acc as unknown[] | undefined) ?? []), ...(part as unknown[])];
  const obj = acc as Record<string, unknown[]>;
  const arr = obj[p.key];
  for (const x of part as unknown[]) arr.push(x);
  return obj;
}
