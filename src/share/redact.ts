// Opt-in redaction for shares (SPEC §7, §10): text and tool content — text, thinking, tool inputs (string values,
// numbers, and keys other than the tools' parameter names), tool results, system prompts, tool descriptions,
// titles, parse-issue messages — become same-length filler of the same script (filler.ts) drawn from a fresh
// CSPRNG stream per redaction, so the filler carries no function of what it hides (the same text gets the same
// filler within one share only) while token counts and the analysis stay close. Ids, tool names, models, paths
// (optionally) and structure are kept, each scanned for secrets like content (secrets.ts findKeptSecrets: also
// high-entropy runs and encoded keys) and listed in the preview; a final sweep covers the fields no rule names.
// Returns the redacted copy and a preview of what changed and what was kept, and why. Never mutates its input.
import type {
  Block,
  Message,
  ParseIssue,
  Request,
  Thread,
  ThreadPrefix,
  ToolDef,
  Transcript,
  TranscriptMeta,
} from '../model/transcript.ts';
import { blockTokens, toolDefTokens } from '../tokens/block-text.ts';
import type { Tokenizer } from '../tokens/tokenizer.ts';
import { wordsOf } from './filler.ts';
import { schemaPropertyNames } from './kept-keys.ts';
import { isPathValue } from './paths.ts';
import {
  type Ctx,
  ID_KEYS,
  KEPT_EXTRA,
  type Redaction,
  type RedactionKind,
  type RedactOptions,
  Redactor,
  SCHEMA_TEXT_KEYS,
} from './redactor.ts';
import { findSecrets, type SecretHit, scanStrings } from './secrets.ts';

export type { Redaction, RedactionChange, RedactionPreview, RedactionWhere, RedactOptions } from './redactor.ts';

type Walk = (s: string, key: string | undefined, path: string) => string;

/** Map every string of a JSON value (keys kept), deciding per string from its key and path. */
function mapStrings(v: unknown, f: Walk, key?: string, path = ''): unknown {
  if (typeof v === 'string') return f(v, key, path);
  if (Array.isArray(v)) return v.map((x) => mapStrings(x, f, key, path));
  if (typeof v === 'object' && v !== null) {
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [k, mapStrings(x, f, k, path ? `${path}.${k}` : k)] as const),
    );
  }
  return v;
}

/** Strings of a JSON value (raw provider blocks, image sources): values under ID_KEYS are kept, paths are path
 *  values, everything else is content. */
function walkValue(r: Redactor, v: unknown, kind: RedactionKind, ctx: Ctx, field: string): unknown {
  return mapStrings(v, (s, key, path) => {
    const at = path ? `${field}.${path}` : field;
    if (key !== undefined && ID_KEYS.has(key)) return r.keptValue(s, kind, ctx, at);
    if (isPathValue(key, s)) return r.pathValue(s, kind, ctx, at);
    return r.text(s, kind, ctx, at);
  });
}

/** A tool input: string values are content (paths kept when asked), numbers get random digits, and keys that are no
 *  parameter name are filled (`{"Jane Q. Doe, SSN …": …}`, a card number as a key). */
function walkInput(r: Redactor, v: unknown, ctx: Ctx, field: string, key?: string): unknown {
  if (typeof v === 'string') {
    if (isPathValue(key, v)) return r.pathValue(v, 'tool-input', ctx, field);
    return r.text(v, 'tool-input', ctx, field);
  }
  if (typeof v === 'number') return r.number(v, ctx, field);
  if (Array.isArray(v)) return v.map((x, i) => walkInput(r, x, ctx, `${field}[${i}]`, key));
  if (typeof v === 'object' && v !== null) {
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => {
        const at = `${field}.${k}`;
        return [r.inputKey(k, ctx, at), walkInput(r, x, ctx, at, k)] as const;
      }),
    );
  }
  return v;
}

function walkSchema(r: Redactor, v: unknown, ctx: Ctx, field: string, prose = false): unknown {
  if (typeof v === 'string')
    return prose ? r.text(v, 'tool-description', ctx, field) : r.keptValue(v, 'tool-description', ctx, field);
  if (Array.isArray(v)) return v.map((x) => walkSchema(r, x, ctx, field, prose));
  if (typeof v === 'object' && v !== null) {
    return Object.fromEntries(
      Object.entries(v).map(
        ([k, x]) => [k, walkSchema(r, x, ctx, `${field}.${k}`, prose || SCHEMA_TEXT_KEYS.has(k))] as const,
      ),
    );
  }
  return v;
}

/** `textKind`: what a text block is here (message text, a tool result's part, a system prompt). */
function redactBlock(r: Redactor, b: Block, ctx: Ctx, textKind: RedactionKind): Block {
  switch (b.type) {
    case 'text':
      return { ...b, text: r.text(b.text, textKind, ctx, 'text') };
    case 'thinking': {
      const out = { ...b, thinking: r.text(b.thinking, 'thinking', ctx, 'thinking') };
      if (b.signature !== undefined) out.signature = r.text(b.signature, 'thinking', ctx, 'signature');
      return out;
    }
    case 'redacted_thinking':
      return { ...b, data: r.text(b.data, 'thinking', ctx, 'data') };
    case 'image':
      return b.source === undefined ? b : { ...b, source: walkValue(r, b.source, 'image', ctx, 'source') };
    case 'tool_use':
    case 'server_tool_use':
      return { ...b, input: walkInput(r, b.input, ctx, 'input') };
    case 'tool_result':
      return {
        ...b,
        content:
          typeof b.content === 'string'
            ? r.text(b.content, 'tool-result', ctx, 'content')
            : b.content.map((x) => redactBlock(r, x, ctx, 'tool-result')),
      };
    case 'other':
      return { ...b, raw: walkValue(r, b.raw, 'other', ctx, 'raw') };
  }
}

/** A message's JSON-path locator (`samples/<id>_epoch_1.json:messages[3]`): the archive member before the `:` names
 *  a sample (data: content); the path after it is the parser's own (`messages[3]`), kept. */
function redactSource(r: Redactor, src: Message['source'], ctx: Ctx): Message['source'] {
  const p = src.path;
  const colon = p?.lastIndexOf(':') ?? -1;
  if (p === undefined || colon <= 0) return src;
  return { ...src, path: r.text(p.slice(0, colon), 'meta', ctx, 'source.path') + p.slice(colon) };
}

function redactMessages(r: Redactor, ms: readonly Message[], thread: string, request?: number): Message[] {
  return ms.map((m) => {
    const ctx = { thread, message: m.index, request };
    return {
      ...m,
      source: redactSource(r, m.source, ctx),
      blocks: m.blocks.map((b, i) => redactBlock(r, b, { ...ctx, block: i }, 'text')),
    };
  });
}

function redactTool(r: Redactor, t: ToolDef, ctx: Ctx, field: string): ToolDef {
  const out: ToolDef = { ...t };
  if (t.description !== undefined)
    out.description = r.text(t.description, 'tool-description', ctx, `${field}.${t.name}.description`);
  if (t.inputSchema !== undefined)
    out.inputSchema = walkSchema(r, t.inputSchema, ctx, `${field}.${t.name}.inputSchema`);
  return out;
}

function redactPrefix(r: Redactor, p: ThreadPrefix, ctx: Ctx, field: string): ThreadPrefix {
  const out: ThreadPrefix = { ...p };
  if (p.system) out.system = p.system.map((b, i) => redactBlock(r, b, { ...ctx, block: i }, 'system'));
  if (p.tools) out.tools = p.tools.map((t) => redactTool(r, t, ctx, `${field}.tools`));
  return out;
}

function redactRequest(r: Redactor, q: Request, thread: string): Request {
  const out: Request = { ...q };
  if (q.exactInput) out.exactInput = redactMessages(r, q.exactInput, thread, q.index);
  if (q.exactPrefix) out.exactPrefix = redactPrefix(r, q.exactPrefix, { thread, request: q.index }, 'exactPrefix');
  return out;
}

function redactThread(r: Redactor, th: Thread): Thread {
  const out: Thread = {
    ...th,
    messages: redactMessages(r, th.messages, th.id),
    requests: th.requests.map((q) => redactRequest(r, q, th.id)),
    prefix: redactPrefix(r, th.prefix, { thread: th.id }, 'prefix'),
  };
  if (th.title !== undefined && th.title !== th.id) out.title = r.text(th.title, 'title', { thread: th.id }, 'title');
  return out;
}

function redactMeta(r: Redactor, m: TranscriptMeta): TranscriptMeta {
  const out: TranscriptMeta = { ...m };
  const ctx = { thread: null };
  if (m.fileName !== undefined) out.fileName = r.pathValue(m.fileName, 'meta', ctx, 'meta.fileName');
  if (m.title !== undefined) out.title = r.text(m.title, 'title', ctx, 'meta.title');
  if (m.extra) {
    const value = (k: string, v: string | number | boolean) => {
      const field = `meta.extra.${k}`;
      if (typeof v !== 'string') return v;
      if (KEPT_EXTRA.has(k)) return r.keptValue(v, 'meta', ctx, field);
      return isPathValue(k, v) ? r.pathValue(v, 'meta', ctx, field) : r.text(v, 'meta', ctx, field);
    };
    out.extra = Object.fromEntries(Object.entries(m.extra).map(([k, v]) => [k, value(k, v)] as const));
  }
  return out;
}

function redactIssue(r: Redactor, i: ParseIssue): ParseIssue {
  return { ...i, message: r.text(i.message, 'parse-issue', { thread: null }, `parseIssues.line${i.line}`) };
}

/** Every distinct string and object key of a value (the strings redaction scans for secrets). */
function distinctStrings(v: unknown, into: Set<string>): void {
  if (typeof v === 'string') into.add(v);
  else if (Array.isArray(v)) for (const x of v) distinctStrings(x, into);
  else if (typeof v === 'object' && v !== null)
    for (const [k, x] of Object.entries(v)) {
      into.add(k);
      distinctStrings(x, into);
    }
}

/** Words of every string of the transcript, and its numbers of 4+ digits, for the vocabulary filler avoids (an
 *  over-approximation: content or not, filler only has to avoid them). */
function vocabularyOf(strings: Iterable<string>, t: Transcript): Set<string> {
  const vocab = new Set<string>();
  for (const s of strings) if (s.length >= 4) wordsOf(s, vocab);
  const stack: unknown[] = [t];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'number' && (v >= 1000 || v <= -1000)) wordsOf(String(v), vocab);
    else if (Array.isArray(v)) for (const x of v) stack.push(x);
    else if (typeof v === 'object' && v !== null) for (const x of Object.values(v)) stack.push(x);
  }
  return vocab;
}

/** What a kept value is, by the key it sits under. */
function keptClass(key: string | undefined): 'toolNames' | 'models' | 'ids' | 'other' {
  if (key === 'name') return 'toolNames';
  if (key === 'model') return 'models';
  if (key !== undefined && /(?:^id|Id|_id|uuid|Uuid|^thread)$/.test(key)) return 'ids';
  return 'other';
}

/**
 * The final sweep over what the structured pass returned: every string value and object key it did not write
 * itself (ids, names, metadata, fields no rule names) is scanned and its secrets replaced; with content
 * redaction on, prose (a string with whitespace) under a key that is no identifier becomes filler too.
 * Objects are copied only where something changed, as null-prototype-safe entries (`__proto__` stays a key).
 */
function sweep(r: Redactor, v: unknown, ctx: Ctx, field: () => string, key?: string): unknown {
  if (typeof v === 'string') {
    if (v === '' || r.outputs.has(v)) return v;
    const kind = keptClass(key);
    if (r.content && kind === 'other' && /\s/.test(v)) return r.text(v, 'other', ctx, field());
    const out = r.keptValue(v, 'meta', ctx, field());
    r.noteKept(out, kind);
    return out;
  }
  if (Array.isArray(v)) {
    let changed = false;
    const out = v.map((x, i) => {
      const y = sweep(r, x, ctx, () => `${field()}[${i}]`, key);
      if (y !== x) changed = true;
      return y;
    });
    return changed ? out : v;
  }
  if (typeof v === 'object' && v !== null) {
    let changed = false;
    const entries = Object.entries(v).map(([k, x]): [string, unknown] => {
      const at = () => `${field()}.${k}`;
      let nk = k;
      if (!r.outputs.has(k)) {
        nk = r.keptValue(k, 'meta', ctx, at());
        r.noteKept(nk, 'keys');
      }
      const nx = sweep(r, x, ctx, at, k);
      if (nk !== k || nx !== x) changed = true;
      return [nk, nx];
    });
    return changed ? Object.fromEntries(entries) : v;
  }
  return v;
}

function transcriptTokens(t: Transcript, tok: Tokenizer): number {
  let n = 0;
  const prefix = (p: ThreadPrefix | undefined) => {
    for (const b of p?.system ?? []) n += blockTokens(tok, b);
    for (const d of p?.tools ?? []) n += toolDefTokens(tok, d);
  };
  for (const th of t.threads) {
    for (const m of th.messages) for (const b of m.blocks) n += blockTokens(tok, b);
    prefix(th.prefix);
  }
  return n;
}

/** Redact a transcript. Random by design: two redactions of the same transcript fill it differently (within one,
 *  the same text gets the same filler), unless a test passes its own `random` stream. */
export function redactTranscript(t: Transcript, o: RedactOptions = {}): Redaction {
  const seen = new Set<string>();
  distinctStrings(t, seen);
  const list = [...seen];
  const scanned = scanStrings(list);
  const hits = new Map<string, SecretHit[]>();
  for (let i = 0; i < list.length; i++) if (scanned[i].length > 0) hits.set(list[i], scanned[i]);
  const hitsOf = (s: string) => hits.get(s) ?? (seen.has(s) ? [] : findSecrets(s));
  const r = new Redactor(o, vocabularyOf(list, t), hitsOf, schemaPropertyNames(t));
  const structured: Transcript = {
    ...t,
    meta: redactMeta(r, t.meta),
    threads: t.threads.map((th) => redactThread(r, th)),
    parseIssues: t.parseIssues.map((i) => redactIssue(r, i)),
  };
  const top = { thread: null };
  const transcript: Transcript = {
    ...structured,
    meta: sweep(r, structured.meta, top, () => 'meta') as TranscriptMeta,
    threads: structured.threads.map(
      (th, i) => sweep(r, th, { thread: t.threads[i].id }, () => `threads[${i}]`) as Thread,
    ),
    parseIssues: sweep(r, structured.parseIssues, top, () => 'parseIssues') as ParseIssue[],
  };
  const tokens = o.tokenizer
    ? { before: transcriptTokens(t, o.tokenizer), after: transcriptTokens(transcript, o.tokenizer) }
    : null;
  return { transcript, preview: r.preview(tokens), keptValue: (s) => r.rewritten(s) };
}
