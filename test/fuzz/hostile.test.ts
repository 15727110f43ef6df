// Hostile structure rather than random bytes: every field position of every inline sample replaced by a
// value of the wrong type (null, a number, strings that name Object.prototype members, arrays, objects whose
// toString is not a function, a value nested past the depth limit) or deleted; JSON nested 100,000 levels deep
// on one line, as a whole document and inside strings the parsers decode (tool arguments, SSE data, request
// bodies, Python reprs); values nested just under the limit in every position; one 50 MB single line.
// Every load returns a well-formed result (kit.ts expectLoadResult) and no parser throws.
import { describe, expect, it } from 'vitest';
import { PARSERS } from '../../src/formats/index.ts';
import { MAX_JSON_DEPTH } from '../../src/lib/json.ts';
import type { FormatId } from '../../src/model/transcript.ts';
import { bytesOf, expectLoadResult, expectTranscript, load } from './kit.ts';
import { SAMPLES, type Sample } from './samples.ts';

type Path = (string | number)[];

/** What kind of element an array index points at: its `type` (or `role`, `event`) when it has one. */
function kindOf(x: unknown): string {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return '#';
  const o = x as Record<string, unknown>;
  const k = o.type ?? o.role ?? o.event;
  return typeof k === 'string' ? `#${k}` : '#';
}

/**
 * Every distinct field position of a JSON value, down to `maxDepth`: paths whose signature (array indices
 * replaced by the kind of element they hold) was already seen are left out, so a position is fuzzed once.
 */
function pathsOf(v: unknown, maxDepth = 7, seen = new Set<string>(), prefix: Path = [], sig = ''): Path[] {
  if (prefix.length >= maxDepth || typeof v !== 'object' || v === null) return [];
  const out: Path[] = [];
  const entries: [string | number, unknown][] = Array.isArray(v)
    ? v.map((x, i) => [i, x])
    : Object.entries(v as Record<string, unknown>);
  for (const [k, x] of entries) {
    const p = [...prefix, k];
    const s = `${sig}/${typeof k === 'number' ? kindOf(x) : k}`;
    if (seen.has(s)) continue;
    seen.add(s);
    out.push(p, ...pathsOf(x, maxDepth, seen, p, s));
  }
  return out;
}

const DELETE = Symbol('delete');
const MARKER = '\u0000WRONG\u0000';

/** A deep copy of `v` with the value at `path` replaced by MARKER (or deleted). */
function replaced(v: unknown, path: Path, value: typeof MARKER | typeof DELETE): unknown {
  const copy: unknown = JSON.parse(JSON.stringify(v));
  let o = copy as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) o = o[k] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (value === DELETE) {
    if (Array.isArray(o)) o.splice(Number(last), 1);
    else delete o[last];
  } else o[last] = value;
  return copy;
}

const deepText = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

/**
 * JSON texts of the wrong type for any position: null, a number, strings (empty, and names of Object.prototype
 * members that probe unguarded lookups), an array, objects (empty, and one String() cannot convert), a value
 * nested past the depth limit; or the field deleted.
 */
const WRONG: (string | typeof DELETE)[] = [
  'null',
  '-1',
  '""',
  '"constructor"',
  '"__proto__"',
  '[null,1,"x"]',
  '{}',
  '{"toString":1,"valueOf":1}',
  deepText(MAX_JSON_DEPTH + 10),
  DELETE,
];

/** The sample as a list of JSON values (one per line) or one document. */
function valuesOf(s: Sample): unknown[] {
  return s.jsonl
    ? s.text
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as unknown)
    : [JSON.parse(s.text) as unknown];
}

/** The sample's text with `values`, MARKER replaced by `wrong` (a JSON text). */
function textFor(s: Sample, values: unknown[], wrong = 'null'): string {
  const text = s.jsonl ? `${values.map((v) => JSON.stringify(v)).join('\n')}\n` : JSON.stringify(values[0]);
  return text.replace(JSON.stringify(MARKER), () => wrong);
}

function checkBoth(text: string, format: FormatId): void {
  checkOne(text, format, 'detected');
  checkOne(text, format, 'forced');
}

/** One load: with detection, or with the sample's format forced (the parser then sees every mutation). */
function checkOne(text: string, format: FormatId, how: 'detected' | 'forced'): void {
  const bytes = bytesOf(text);
  expectLoadResult(load('input.jsonl', bytes, how === 'forced' ? { format } : {}), bytes.length);
}

describe('wrong-typed fields in every position the parsers read', () => {
  for (const sample of SAMPLES) {
    it(`${sample.name}: every field replaced by a wrong type, or deleted`, () => {
      const values = valuesOf(sample);
      const seen = new Set<string>();
      let cases = 0;
      let positions = 0;
      values.forEach((v, line) => {
        for (const path of [[], ...pathsOf(v, 7, seen, [], kindOf(v))] as Path[]) {
          positions++;
          WRONG.forEach((w, k) => {
            if (path.length === 0 && w === DELETE) return;
            const next = values.slice();
            next[line] = path.length === 0 ? MARKER : replaced(v, path, w === DELETE ? DELETE : MARKER);
            // Detected and forced loads alternate, shifted per position: each route sees every position
            // and every wrong value.
            const how = (positions + k) % 2 === 0 ? 'forced' : 'detected';
            checkOne(textFor(sample, next, w === DELETE ? undefined : w), sample.format, how);
            cases++;
          });
        }
      });
      expect(cases).toBeGreaterThan(100);
    }, 60_000);
  }
});

describe('deeply nested JSON', () => {
  const DEPTH = 100_000;
  const nest = deepText(DEPTH);
  const objNest = `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`;

  it('a line of 100,000 nested arrays (and objects) among valid lines is an issue, not a crash', () => {
    for (const sample of SAMPLES.filter((s) => s.jsonl)) {
      for (const bad of [nest, objNest]) {
        const lines = sample.text.split('\n');
        lines.splice(2, 0, bad);
        const text = lines.join('\n');
        const { result } = load('input.jsonl', bytesOf(text));
        expect(result.ok, sample.name).toBe(true);
        if (!result.ok) continue;
        expectTranscript(result.transcript);
        expect(result.transcript.format).toBe(sample.format);
        expect(result.transcript.parseIssues.some((i) => i.line === 3)).toBe(true);
        checkBoth(text, sample.format);
      }
    }
  });

  it('a whole document nested 100,000 levels deep, under every format', () => {
    for (const text of [nest, objNest, `{"version":2,"eval":{},"samples":${nest}}`]) {
      for (const p of PARSERS) checkBoth(text, p.id);
    }
  });

  it('every field position holding a value nested just under the depth limit', () => {
    // Over the limit a line is refused before any parser sees it; just under it, the value reaches the
    // parsers and every recursive walk after them (content keys, dedupe, structuredClone, export).
    for (const sample of SAMPLES) {
      const values = valuesOf(sample);
      const seen = new Set<string>();
      let n = 0;
      values.forEach((v, line) => {
        for (const path of pathsOf(v, 4, seen, [], kindOf(v))) {
          const next = values.slice();
          next[line] = replaced(v, path, MARKER);
          const text = textFor(sample, next, deepText(MAX_JSON_DEPTH - path.length - 2));
          checkOne(text, sample.format, n++ % 2 === 0 ? 'forced' : 'detected');
        }
      });
    }
  }, 60_000);

  it('strings that hold deep JSON (tool arguments, SSE data, request bodies, Python reprs)', () => {
    for (const depth of [DEPTH, MAX_JSON_DEPTH - 4]) {
      const inner = deepText(depth);
      const cases: [FormatId, string][] = [
        [
          'codex',
          JSON.stringify({
            timestamp: '2025-01-01T00:00:00Z',
            type: 'response_item',
            payload: { type: 'function_call', name: 'shell', call_id: 'c', arguments: inner },
          }),
        ],
        [
          'openai-chat',
          JSON.stringify({
            messages: [
              { role: 'user', content: 'x' },
              { role: 'assistant', tool_calls: [{ id: 'c', function: { name: 'f', arguments: inner } }] },
            ],
          }),
        ],
        [
          'claude-trace',
          JSON.stringify({
            request: { url: 'https://x/v1/messages', method: 'POST', body: `{"model":"m","messages":${inner}}` },
            response: { status_code: 200, body_raw: `event: message_start\ndata: ${inner}\n\n` },
            logged_at: 1,
          }),
        ],
        [
          'swe-agent',
          JSON.stringify({
            history: [{ role: 'assistant', content: 'x', tool_calls: inner.replaceAll('[', '(').replaceAll(']', ')') }],
            trajectory: [],
            info: {},
          }),
        ],
      ];
      for (const [format, text] of cases) checkBoth(`${text}\n`, format);
      // The tool call keeps its arguments: parsed when the depth is allowed, as text (with a warning) when not.
      const { result } = load('codex.jsonl', bytesOf(`${cases[0][1]}\n`));
      if (!result.ok) throw new Error(result.error);
      const input = result.transcript.threads[0].messages[0].blocks[0];
      expect(input.type === 'tool_use' && typeof input.input).toBe(depth > MAX_JSON_DEPTH ? 'string' : 'object');
    }
  });
});

describe('a huge single line (one case, ≥ 50 MB)', () => {
  it('a 50 MB text message loads whole, and the lines around it load as they do alone', () => {
    const sample = SAMPLES.find((s) => s.format === 'claude-code');
    if (!sample) throw new Error('no claude-code sample');
    const big = 'x'.repeat(50 * 1024 * 1024);
    const line = JSON.stringify({
      parentUuid: 'u9',
      type: 'user',
      sessionId: 'sess-cc',
      uuid: 'big',
      message: { role: 'user', content: big },
    });
    const bytes = bytesOf(`${sample.text}${line}\nnot json\n`);
    expect(bytes.length).toBeGreaterThan(50 * 1024 * 1024);
    const loaded = load('huge.jsonl', bytes);
    expectLoadResult(loaded, bytes.length);
    const { result } = loaded;
    if (!result.ok) throw new Error(result.error);
    const t = result.transcript;
    const lines = sample.text.split('\n').length;
    const bigMessage = t.threads.flatMap((th) => th.messages).find((m) => m.source.line === lines);
    const first = bigMessage?.blocks[0];
    expect(first?.type === 'text' ? first.text.length : 0).toBe(big.length);
    expect(t.parseIssues.find((i) => i.line === lines + 1)?.message).toMatch(/^not valid JSON/);
    // The small sample before the huge line still loads as it does alone.
    const alone = load('small.jsonl', bytesOf(sample.text)).result;
    if (!alone.ok) throw new Error(alone.error);
    const main = (x: typeof t) => x.threads.find((th) => th.id === 'main')?.messages.slice(0, 5);
    expect(main(t)).toEqual(main(alone.transcript));
  }, 60_000);
});
