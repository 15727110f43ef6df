// Python literals as `repr()` writes them (dicts, lists, tuples, strings, numbers, True/False/None) → JSON values.
// SWE-agent demonstration files store `tool_calls` / `tool_call_ids` that way; this reads them without ever
// evaluating anything, and never throws.

export type PyLiteralResult = { ok: true; value: unknown } | { ok: false; message: string; offset: number };

const MAX_DEPTH = 512;
const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '\n': '',
};

/**
 * Parse a Python literal as produced by `repr()` of dicts, lists, tuples, strings, numbers, True/False/None
 * into the equivalent JSON value (tuples become arrays). Never evaluates anything; never throws.
 */
export function parsePythonLiteral(text: string): PyLiteralResult {
  let pos = 0;
  const fail = (message: string): never => {
    throw new PyError(message, pos);
  };
  const ws = () => {
    while (pos < text.length && /\s/.test(text[pos])) pos++;
  };
  const pyStr = (): string => {
    const q = text[pos++];
    let out = '';
    for (;;) {
      if (pos >= text.length) fail('unterminated string');
      const c = text[pos++];
      if (c === q) return out;
      if (c !== '\\') {
        out += c;
        continue;
      }
      const e = text[pos++] ?? fail('unterminated escape');
      if (e in ESCAPES) out += ESCAPES[e];
      else if (e === 'x' || e === 'u' || e === 'U') {
        const n = e === 'x' ? 2 : e === 'u' ? 4 : 8;
        const hex = text.slice(pos, pos + n);
        if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(hex)) fail(`bad \\${e} escape`);
        const cp = Number.parseInt(hex, 16);
        if (cp > 0x10ffff) fail('code point out of range');
        out += String.fromCodePoint(cp);
        pos += n;
      } else if (/[0-7]/.test(e)) {
        const oct = /^[0-7]{1,3}/.exec(text.slice(pos - 1))?.[0] ?? e;
        out += String.fromCharCode(Number.parseInt(oct, 8));
        pos += oct.length - 1;
      } else out += `\\${e}`; // Python keeps unknown escapes verbatim
    }
  };
  const value = (depth: number): unknown => {
    if (depth > MAX_DEPTH) fail('nested too deeply');
    ws();
    const c = text[pos];
    if (c === undefined) return fail('unexpected end');
    if (c === "'" || c === '"') return pyStr();
    if (c === '{' || c === '[' || c === '(') {
      const close = c === '{' ? '}' : c === '[' ? ']' : ')';
      pos++;
      const items: unknown[] = [];
      const dict: Record<string, unknown> = {};
      for (;;) {
        ws();
        if (text[pos] === close) {
          pos++;
          return c === '{' ? dict : items;
        }
        const v = value(depth + 1);
        if (c === '{') {
          ws();
          if (text[pos++] !== ':') fail("expected ':'");
          // defineProperty: a '__proto__' key is data, not the dict's prototype.
          Object.defineProperty(dict, typeof v === 'string' ? v : JSON.stringify(v), {
            value: value(depth + 1),
            writable: true,
            enumerable: true,
            configurable: true,
          });
        } else items.push(v);
        ws();
        if (text[pos] === ',') pos++;
        else if (text[pos] !== close) fail(`expected ',' or '${close}'`);
      }
    }
    const word = /^(True|False|None|[-+]?(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][-+]?\d+)?|[-+]?inf|nan)/.exec(
      text.slice(pos, pos + 400),
    )?.[0];
    if (!word) return fail(`unexpected character ${JSON.stringify(c)}`);
    pos += word.length;
    if (word === 'True') return true;
    if (word === 'False') return false;
    if (word === 'None') return null;
    return Number(word.replaceAll('_', '').replace('inf', 'Infinity').replace('nan', 'NaN'));
  };
  try {
    const v = value(0);
    ws();
    if (pos < text.length) fail('unexpected text after the value');
    return { ok: true, value: v };
  } catch (e) {
    if (e instanceof PyError) return { ok: false, message: e.message, offset: e.offset };
    throw e;
  }
}

class PyError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}
