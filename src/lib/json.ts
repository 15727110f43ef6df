// Safe JSON helpers: parse without throwing (returning a message with a column when possible) and
// narrow `unknown` values without `any` (STYLE.md: parsers take unknown and narrow it). Values nested deeper
// than MAX_JSON_DEPTH are refused: JSON.parse accepts any depth, but structuredClone, JSON.stringify and every
// recursive walk downstream overflow the stack a few thousand levels down (SPEC §1.3: no crash).

export type JsonObject = { [key: string]: unknown };

export type JsonParseResult =
  | { ok: true; value: unknown }
  | { ok: false; message: string; column?: number; tooDeep?: true };

/** Deepest array/object nesting a parsed value may have (real transcripts stay far below it). */
export const MAX_JSON_DEPTH = 512;

/** JSON.parse that never throws; on failure returns the engine's message and a 1-based column if it names one. */
export function tryParseJson(text: string): JsonParseResult {
  // Checked first: building a 100,000-level value only to refuse it costs more than the scan.
  const at = deeperThan(text, MAX_JSON_DEPTH);
  if (at >= 0) {
    return { ok: false, message: `nested deeper than ${MAX_JSON_DEPTH} levels`, column: at + 1, tooDeep: true };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const m = /position (\d+)/.exec(message);
    return m ? { ok: false, message, column: Number(m[1]) + 1 } : { ok: false, message };
  }
}

/**
 * Offset of the bracket that opens level `max + 1` of a JSON text, or -1 when it nests no deeper than `max`
 * (or a string never closes: then the text is not JSON anyway). One linear scan, strings skipped with indexOf;
 * each level takes two characters, so short texts are not scanned at all.
 */
function deeperThan(text: string, max: number): number {
  if (text.length <= 2 * max || !moreOpenersThan(text, max)) return -1;
  let depth = 0;
  let found = -1;
  scanStructure(text, (c, i) => {
    if (c === 0x5b || c === 0x7b) {
      if (++depth > max) {
        found = i;
        return false;
      }
    } else if (c === 0x5d || c === 0x7d) depth--;
    return true;
  });
  return found;
}

/** Whether `text` holds more than `max` of `{` and `[` (in strings too): fewer cannot nest deeper than `max`, and
 *  counting them natively (indexOf) is much cheaper than the structural scan most lines would otherwise get. */
function moreOpenersThan(text: string, max: number): boolean {
  let n = 0;
  for (const opener of ['{', '[']) {
    for (let i = text.indexOf(opener); i >= 0; i = text.indexOf(opener, i + 1)) if (++n > max) return true;
  }
  return false;
}

/**
 * A JSON text with every value that opens level `max + 1` replaced by `placeholder` (a JSON string), and the
 * offsets where they started; the text itself when nothing is that deep. What a document keeps of a value it
 * cannot hold (the rest of the document loads), and what detection sees of a line it will refuse.
 */
export function cutDeep(text: string, max: number, placeholder: string): { text: string; cuts: number[] } {
  if (text.length <= 2 * max) return { text, cuts: [] };
  const cuts: number[] = [];
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  scanStructure(text, (c, i) => {
    if (c === 0x5b || c === 0x7b) {
      if (++depth === max + 1) {
        cuts.push(i);
        parts.push(text.slice(from, i), JSON.stringify(placeholder));
      }
    } else if (c === 0x5d || c === 0x7d) {
      if (depth-- === max + 1) from = i + 1;
    }
    return true;
  });
  if (cuts.length === 0) return { text, cuts };
  // A deep value never closed (a cut file): the text ends inside it, so nothing after the placeholder.
  parts.push(depth > max ? '' : text.slice(from));
  return { text: parts.join(''), cuts };
}

/** How a JSON text ends: brackets still open and whether inside a string. A valid text ends with neither; a
 *  file cut mid-write ends with one or both (then "truncated" says more than the parser's "unexpected end"). */
export function openAtEnd(text: string): { open: number; inString: boolean } {
  let open = 0;
  let inString = false;
  let last = -1;
  scanStructure(text, (c, i) => {
    last = i;
    if (c === 0x5b || c === 0x7b) open++;
    else if (c === 0x5d || c === 0x7d) open--;
    return true;
  });
  // scanStructure stops at a string that never closes: a quote after the last structural character, unmatched.
  const tail = text.slice(last + 1);
  inString = unclosedQuote(tail);
  return { open: Math.max(open, 0), inString };
}

/** Whether a text (with no structural characters outside strings) ends inside a string. */
function unclosedQuote(tail: string): boolean {
  let inside = false;
  for (let i = 0; i < tail.length; i++) {
    const c = tail.charCodeAt(i);
    if (c === 0x5c && inside) i++;
    else if (c === 0x22) inside = !inside;
  }
  return inside;
}

/** Calls `f` with each structural character (`[ ] { } , :`) of a JSON text outside strings, until it
 *  returns false. Strings are skipped with indexOf. */
function scanStructure(text: string, f: (c: number, i: number) => boolean): void {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      let j = i;
      for (;;) {
        j = text.indexOf('"', j + 1);
        if (j < 0) return;
        let k = j - 1;
        while (text.charCodeAt(k) === 0x5c) k--;
        if ((j - 1 - k) % 2 === 0) break; // not escaped: an even run of backslashes before it
      }
      i = j;
    } else if (c === 0x5b || c === 0x7b || c === 0x5d || c === 0x7d || c === 0x2c) {
      if (!f(c, i)) return;
    }
  }
}

/** Whether a JSON text holds more than `max` values (counted by their separators and brackets), in one scan
 *  that stops at `max`: a cheap check before JSON.parse builds millions of values. */
export function moreValuesThan(text: string, max: number): boolean {
  if (text.length <= max) return false;
  let n = 0;
  scanStructure(text, () => ++n <= max);
  return n > max;
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

/** A value as short text for ids, titles and messages: never throws (unlike String() on `{"toString":1}`). */
export function display(v: unknown, max = 80): string {
  if (typeof v === 'string') return v;
  if (v === null || typeof v === 'number' || typeof v === 'boolean' || v === undefined) return String(v);
  try {
    return preview(JSON.stringify(v) ?? typeof v, max);
  } catch {
    return Array.isArray(v) ? 'array' : typeof v;
  }
}

/** A value as it would appear in JSON, shortened, for issue messages: `"tool"`, `42`, `{"a":1}`. */
export function quoted(v: unknown, max = 60): string {
  return typeof v === 'string' ? JSON.stringify(preview(v, max)) : display(v, max);
}

/** Add `n` to `counter[key]`, also for keys that name Object.prototype members ("constructor", "__proto__"). */
export function addCount(counter: Record<string, number>, key: string, n = 1): void {
  const prev = Object.hasOwn(counter, key) ? counter[key] : 0;
  Object.defineProperty(counter, key, { value: prev + n, writable: true, enumerable: true, configurable: true });
}

/** Short, single-line preview of a text for error messages. */
export function preview(text: string, max = 80): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max)}…` : oneLine;
}
