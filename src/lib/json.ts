// Safe JSON helpers: parse without throwing (returning a message with a column when possible) and
// narrow `unknown` values without `any` (STYLE.md: parsers take unknown and narrow it).

export type JsonObject = { [key: string]: unknown };

export type JsonParseResult = { ok: true; value: unknown } | { ok: false; message: string; column?: number };

/** JSON.parse that never throws; on failure returns the engine's message and a 1-based column if it names one. */
export function tryParseJson(text: string): JsonParseResult {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const m = /position (\d+)/.exec(message);
    return m ? { ok: false, message, column: Number(m[1]) + 1 } : { ok: false, message };
  }
}

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

export function arr(v: unknown): unknown[] | undefined {
  return Array.isArray(v) ? v : undefined;
}

export function obj(v: unknown): JsonObject | undefined {
  return isObject(v) ? v : undefined;
}

/** Parse an ISO-8601 timestamp or epoch seconds/ms into epoch milliseconds. */
export function toEpochMs(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v > 1e12 ? v : v * 1000;
  if (typeof v === 'string' && v.length > 0) {
    const t = Date.parse(v);
    return Number.isNaN(t) ? undefined : t;
  }
  return undefined;
}

/** Short, single-line preview of a text for error messages. */
export function preview(text: string, max = 80): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max)}…` : oneLine;
}
