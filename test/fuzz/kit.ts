// Shared machinery of the fuzz suites: seeds (the real fixtures, read at test time, plus the inline samples),
// a loader that counts the work done per input (passes over the file and bytes read: the "ops" bound, since
// wall time is not asserted), the invariants every load result must hold, and byte/line mutation arbitraries.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { FORMAT_IDS, type LoadOptions, type LoadResult, parseTranscript } from '../../src/formats/index.ts';
import { exportBundle } from '../../src/formats/tierscope.ts';
import type { SourceFile } from '../../src/formats/types.ts';
import { chunksOf } from '../../src/lib/lines.ts';
import type { Block, FormatId, Message, ParseIssue, ThreadPrefix, Transcript } from '../../src/model/transcript.ts';
import { HAVE_REAL, REAL_DIR } from '../helpers/fixtures.ts';
import { SAMPLES } from './samples.ts';

export type Seed = { name: string; format: FormatId; jsonl: boolean; bytes: Uint8Array };

const enc = new TextEncoder();
export const bytesOf = (s: string): Uint8Array => enc.encode(s);

const FORMAT_OF_DIR: Record<string, FormatId> = {
  'claude-code': 'claude-code',
  'claude-trace': 'claude-trace',
  codex: 'codex',
  inspect: 'inspect',
  'openai-chat': 'openai-chat',
  'swe-agent': 'swe-agent',
};

/** Every real fixture (sub-agent companion files included, as inputs of their own), read once. */
export function realSeeds(): Seed[] {
  if (!HAVE_REAL) return [];
  const out: Seed[] = [];
  const walk = (dir: string) => {
    for (const f of readdirSync(dir).sort()) {
      const p = join(dir, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (!f.endsWith('.md')) {
        const rel = relative(REAL_DIR, p);
        const format = FORMAT_OF_DIR[rel.split('/')[0]];
        out.push({ name: rel, format, jsonl: f.endsWith('.jsonl'), bytes: new Uint8Array(readFileSync(p)) });
      }
    }
  };
  walk(REAL_DIR);
  return out;
}

export const inlineSeeds = (): Seed[] => SAMPLES.map((s) => ({ ...s, bytes: bytesOf(s.text) }));

/** Byte ranges [start, end) of the lines of `bytes` (without the LF). */
function lineRanges(bytes: Uint8Array): [number, number][] {
  const out: [number, number][] = [];
  let start = 0;
  for (;;) {
    const nl = bytes.indexOf(10, start);
    if (nl < 0) {
      if (start < bytes.length) out.push([start, bytes.length]);
      return out;
    }
    out.push([start, nl]);
    start = nl + 1;
  }
}

export function splitLines(bytes: Uint8Array): Uint8Array[] {
  return lineRanges(bytes).map(([a, b]) => bytes.subarray(a, b));
}

export function joinLines(lines: Uint8Array[], finalNewline = true): Uint8Array {
  const total = lines.reduce((n, l) => n + l.length + 1, 0) - (finalNewline ? 0 : 1);
  const out = new Uint8Array(Math.max(0, total));
  let o = 0;
  lines.forEach((l, i) => {
    out.set(l, o);
    o += l.length;
    if (finalNewline || i < lines.length - 1) out[o++] = 10;
  });
  return out;
}

/**
 * A window of consecutive lines of a JSONL seed, at most `budget` bytes (at least one line), starting at
 * line `start % lines`: big fixtures are fuzzed a window at a time so a run costs milliseconds.
 */
export function windowOf(seed: Seed, start: number, budget = 48 * 1024): Uint8Array {
  if (!seed.jsonl || seed.bytes.length <= budget) return seed.bytes;
  const lines = splitLines(seed.bytes);
  const first = start % lines.length;
  const picked: Uint8Array[] = [];
  let size = 0;
  for (let i = first; i < lines.length && (picked.length === 0 || size + lines[i].length < budget); i++) {
    picked.push(lines[i]);
    size += lines[i].length + 1;
  }
  return joinLines(picked);
}

/** Work done by one load: calls of `chunks()` (passes over the file) and bytes handed out. */
export type Ops = { passes: number; bytes: number };

/** An in-memory SourceFile that counts passes and bytes read. */
export function countedFile(name: string, bytes: Uint8Array, chunkSize: number, ops: Ops): SourceFile {
  return {
    name,
    size: bytes.length,
    chunks: function* () {
      ops.passes++;
      for (const c of chunksOf(bytes, chunkSize)) {
        ops.bytes += c.length;
        yield c;
      }
    },
  };
}

/** Passes over the file a load may make (sniff, document decode, the parser's own passes). */
const MAX_PASSES = 6;

export type Loaded = { result: LoadResult; ops: Ops };

/** Load bytes as `name`, counting the work. */
export function load(name: string, bytes: Uint8Array, options: LoadOptions = {}, chunkSize = 1 << 20): Loaded {
  const ops: Ops = { passes: 0, bytes: 0 };
  const result = parseTranscript(countedFile(name, bytes, chunkSize, ops), [], options);
  return { result, ops };
}

const SEVERITIES = new Set(['error', 'warning', 'info']);
const ROLES = new Set(['system', 'user', 'assistant']);
const KINDS = new Set(['main', 'sidechain', 'side-call']);
const BLOCKS = new Set([
  'text',
  'thinking',
  'redacted_thinking',
  'image',
  'tool_use',
  'tool_result',
  'server_tool_use',
  'other',
]);

/** Plain checks (not expect(): these run for every block of thousands of inputs). */
function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`invariant broken: ${what}`);
}
const isIndex = (n: unknown) => Number.isInteger(n) && (n as number) >= 0;
const optional = (v: unknown, type: string) => v === undefined || typeof v === type;

/** A located issue: integer line ≥ 0, a non-empty message, a known severity, sane column and offset. */
function expectIssue(i: ParseIssue): void {
  check(isIndex(i.line), `issue line ${String(i.line)}: ${i.message}`);
  check(typeof i.message === 'string' && i.message.length > 0, 'issue message');
  check(SEVERITIES.has(i.severity), `issue severity ${i.severity}`);
  check(i.column === undefined || (isIndex(i.column) && i.column >= 1), `issue column ${i.column}`);
  check(i.byteOffset === undefined || isIndex(i.byteOffset), `issue byteOffset ${i.byteOffset}`);
  check(optional(i.file, 'string'), 'issue file');
}

function checkBlock(b: Block, where: string): void {
  check(BLOCKS.has(b.type), `${where}: block type ${String(b.type)}`);
  if (b.type === 'text') check(typeof b.text === 'string', `${where}: text`);
  if (b.type === 'thinking') check(typeof b.thinking === 'string' && optional(b.signature, 'string'), where);
  if (b.type === 'redacted_thinking') check(typeof b.data === 'string', where);
  if (b.type === 'image') check(optional(b.mediaType, 'string'), where);
  if (b.type === 'tool_use' || b.type === 'server_tool_use') {
    check(typeof b.id === 'string' && typeof b.name === 'string', `${where}: tool id/name`);
  }
  if (b.type === 'other') check(typeof b.kind === 'string', `${where}: other kind`);
  if (b.type === 'tool_result') {
    check(typeof b.toolUseId === 'string' && typeof b.isError === 'boolean', `${where}: tool_result`);
    if (typeof b.content !== 'string') {
      check(Array.isArray(b.content), `${where}: tool_result content`);
      for (const x of b.content) checkBlock(x, `${where}.content`);
    }
  }
}

/** `k`: the position the index must equal; undefined for exact inputs, whose messages keep thread indices. */
function checkMessage(m: Message, k: number | undefined, where: string): void {
  check(k === undefined ? isIndex(m.index) : m.index === k, `${where}: index ${m.index} at ${k}`);
  check(ROLES.has(m.role), `${where}: role ${String(m.role)}`);
  check(Array.isArray(m.blocks), `${where}: blocks`);
  for (const b of m.blocks) checkBlock(b, where);
  const s = m.source;
  check(isIndex(s.line), `${where}: source.line ${String(s.line)}`);
  check(s.lines === undefined || (Array.isArray(s.lines) && s.lines.every(isIndex)), `${where}: source.lines`);
  check(optional(s.uuid, 'string') && optional(s.file, 'string') && optional(s.path, 'string'), `${where}: source`);
  check(optional(m.time, 'number') && optional(m.model, 'string'), `${where}: time/model`);
}

function checkPrefix(p: ThreadPrefix, where: string): void {
  for (const b of p.system ?? []) checkBlock(b, `${where}.system`);
  for (const t of p.tools ?? []) check(typeof t.name === 'string', `${where}: tool name`);
}

/** The invariants of a loaded transcript: plain, well-indexed, typed, serializable data with located issues. */
export function expectTranscript(t: Transcript): void {
  check(FORMAT_IDS.includes(t.format), `format ${t.format}`);
  for (const i of t.parseIssues) expectIssue(i);
  const ids = new Set<string>();
  for (const th of t.threads) {
    check(typeof th.id === 'string' && !ids.has(th.id), `thread id ${th.id} (unique string)`);
    ids.add(th.id);
    check(KINDS.has(th.kind), `thread kind ${th.kind}`);
    check(optional(th.title, 'string') && optional(th.parentToolUseId, 'string'), `${th.id}: title`);
    th.messages.forEach((m, k) => {
      checkMessage(m, k, `${th.id}.messages[${k}]`);
    });
    checkPrefix(th.prefix, `${th.id}.prefix`);
    th.requests.forEach((r, k) => {
      const where = `${th.id}.requests[${k}]`;
      check(r.index === k && r.thread === th.id, `${where}: index/thread`);
      check(isIndex(r.inputEnd) && r.inputEnd <= th.messages.length, `${where}: inputEnd ${r.inputEnd}`);
      const end = r.responseEnd;
      check(end === undefined || (isIndex(end) && end >= r.inputEnd && end <= th.messages.length), `${where}: end`);
      check(optional(r.time, 'number') && optional(r.responseTime, 'number'), `${where}: times`);
      check(optional(r.model, 'string') && optional(r.requestId, 'string'), `${where}: model/requestId`);
      const o = r.observed;
      if (o) check([o.input, o.cacheRead, o.cacheWrite, o.output].every(Number.isFinite), `${where}: observed`);
      r.exactInput?.forEach((m, j) => {
        checkMessage(m, undefined, `${where}.exactInput[${j}]`);
      });
      if (r.exactPrefix) checkPrefix(r.exactPrefix, `${where}.exactPrefix`);
    });
  }
  for (const [k, n] of Object.entries(t.meta.skipped ?? {})) check(typeof n === 'number', `meta.skipped.${k}`);
  for (const k of ['title', 'sessionId', 'version', 'fileName'] as const) {
    check(optional(t.meta[k], 'string'), `meta.${k}`);
  }
  // Plain data: crosses the worker boundary and exports to a bundle.
  structuredClone(t);
  check(typeof exportBundle(t) === 'string', 'exports');
}

/** Every load result: ok with a well-formed transcript, or one clear single-line error; never a parser crash. */
export function expectLoadResult(loaded: Loaded, size: number): void {
  const { result, ops } = loaded;
  check(ops.passes <= MAX_PASSES, `${ops.passes} passes over the file`);
  check(ops.bytes <= MAX_PASSES * size, `${ops.bytes} bytes read of ${size}`);
  if (result.ok) {
    expectTranscript(result.transcript);
    return;
  }
  check(result.error.length > 0, 'error message');
  check(!/parser failed on/.test(result.error), `a parser threw: ${result.error}`);
  check(!result.error.includes('\n'), `error is one line: ${result.error}`);
  for (const i of result.issues) expectIssue(i);
}

/** Load with detection and with one forced format, checking both results. */
export function fuzzLoad(bytes: Uint8Array, forced: FormatId, chunkSize = 1 << 20): LoadResult {
  const auto = load('input.jsonl', bytes, {}, chunkSize);
  expectLoadResult(auto, bytes.length);
  expectLoadResult(load('input.jsonl', bytes, { format: forced }, chunkSize), bytes.length);
  return auto.result;
}

export const formatArb = fc.constantFrom(...FORMAT_IDS);

// ---- mutations ----

export type ByteOp =
  | { kind: 'flip'; at: number; bit: number }
  | { kind: 'set'; at: number; value: number }
  | { kind: 'insert'; at: number; bytes: Uint8Array }
  | { kind: 'delete'; at: number; length: number };

const INTERESTING = [0x00, 0x0a, 0x0d, 0x22, 0x5c, 0x7b, 0x7d, 0x5b, 0x5d, 0x3a, 0x2c, 0x80, 0xc3, 0xe2, 0xf0, 0xff];

const byteArb = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(...INTERESTING));

export const byteOpArb: fc.Arbitrary<ByteOp> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }),
  fc.record({ kind: fc.constant('set' as const), at: fc.nat(), value: byteArb }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    bytes: fc.oneof(
      fc.uint8Array({ minLength: 1, maxLength: 8 }),
      fc.constantFrom(...['{', '}', '"', '\\', '\n', '[[[[', '\u00e9', '\ud83d\ude00', 'null'].map(bytesOf)),
    ),
  }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 16 }) }),
);

export function applyByteOps(bytes: Uint8Array, ops: ByteOp[]): Uint8Array {
  let b = bytes;
  for (const op of ops) {
    const at = b.length === 0 ? 0 : op.at % (b.length + (op.kind === 'insert' ? 1 : 0));
    if (op.kind === 'flip' && b.length > 0) {
      b = b.slice();
      b[at] ^= 1 << op.bit;
    } else if (op.kind === 'set' && b.length > 0) {
      b = b.slice();
      b[at] = op.value;
    } else if (op.kind === 'insert') {
      const out = new Uint8Array(b.length + op.bytes.length);
      out.set(b.subarray(0, at));
      out.set(op.bytes, at);
      out.set(b.subarray(at), at + op.bytes.length);
      b = out;
    } else if (op.kind === 'delete') {
      const out = new Uint8Array(b.length - Math.min(op.length, b.length - at));
      out.set(b.subarray(0, at));
      out.set(b.subarray(at + op.length), at);
      b = out;
    }
  }
  return b;
}

export type LineOp =
  | { kind: 'swap'; a: number; b: number }
  | { kind: 'duplicate'; at: number; times: number }
  | { kind: 'delete'; at: number }
  | { kind: 'reverse' };

export const lineOpArb: fc.Arbitrary<LineOp> = fc.oneof(
  fc.record({ kind: fc.constant('swap' as const), a: fc.nat(), b: fc.nat() }),
  fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat(), times: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.constant({ kind: 'reverse' as const }),
);

export function applyLineOps(bytes: Uint8Array, ops: LineOp[]): Uint8Array {
  const lines = splitLines(bytes);
  for (const op of ops) {
    if (lines.length === 0) break;
    if (op.kind === 'swap') {
      const a = op.a % lines.length;
      const b = op.b % lines.length;
      [lines[a], lines[b]] = [lines[b], lines[a]];
    } else if (op.kind === 'duplicate') {
      const at = op.at % lines.length;
      lines.splice(at, 0, ...Array.from({ length: op.times }, () => lines[at]));
    } else if (op.kind === 'delete') lines.splice(op.at % lines.length, 1);
    else lines.reverse();
  }
  return joinLines(lines);
}

/** Interleave the lines of two inputs (a random merge keeping each one's order). */
export function interleave(a: Uint8Array, b: Uint8Array, picks: boolean[]): Uint8Array {
  const la = splitLines(a);
  const lb = splitLines(b);
  const out: Uint8Array[] = [];
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < la.length || j < lb.length) {
    const fromA = j >= lb.length || (i < la.length && (picks[k++ % Math.max(1, picks.length)] ?? true));
    out.push(fromA ? la[i++] : lb[j++]);
  }
  return joinLines(out);
}
