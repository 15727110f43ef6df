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
import { type FillContext, fillNumber, fillText, type Rng, type Span, secureRng, wordsOf } from './filler.ts';
import { isParameterName, schemaPropertyNames } from './kept-keys.ts';
import { isPathValue, pathSpans } from './paths.ts';
import {
  findKeptSecrets,
  findSecrets,
  maskSecret,
  mergeHits,
  type SecretHit,
  type SecretKind,
  scanStrings,
} from './secrets.ts';

export type RedactOptions = {
  /** Replace text and tool content (default true); false replaces only secret-looking strings. */
  content?: boolean;
  /** Keep file paths as they are (default true, SPEC §7: "ids/paths/tool names kept unless chosen"). */
  keepPaths?: boolean;
  /** Exact tokenizer: filler is chosen to match token counts, and the preview reports the token delta. */
  tokenizer?: Tokenizer;
  /** Distinct content changes listed in the preview (all are counted); default 500. */
  previewLimit?: number;
  /** The random stream filler is drawn from: a fresh CSPRNG stream (secureRng) unless a test passes its own. */
  random?: Rng;
};

type RedactionKind =
  | 'text'
  | 'thinking'
  | 'tool-input'
  | 'tool-result'
  | 'system'
  | 'tool-description'
  | 'title'
  | 'parse-issue'
  | 'meta'
  | 'image'
  | 'other';

export type RedactionWhere = {
  thread: string | null;
  /** Message index in the thread, or in the request's exact input when `request` is set. */
  message?: number;
  block?: number;
  request?: number;
  /** Which field: `text`, `input.file_path`, `exactInput`, `prefix.tools.Bash.description`, `meta.title`… */
  field: string;
};

export type RedactionChange = {
  where: RedactionWhere;
  kind: RedactionKind | 'secret';
  secret?: SecretKind;
  /** Clipped original (secrets: masked, never whole). */
  before: string;
  /** Clipped replacement. */
  after: string;
  /** How many times this exact original occurs (request logs repeat every message in each request). */
  occurrences: number;
};

/** Identifiers left as they are (secret-looking parts aside), by what they are; the preview says why. */
type KeptIdentifiers = {
  /** Tool names (tool calls and definitions): the pipeline's tool rules and re-fetch detection read them. */
  toolNames: string[];
  /** Model ids: they set the context window, prices and cache rules. */
  models: string[];
  /** How many distinct ids (tool-call, message, request, session and thread ids): pairing and links use them. */
  ids: number;
  /** Other short values kept as structure (types, roles, versions, enum fields, object keys). */
  other: number;
  /** Every distinct value kept as it is (as the share writes it), by what it is: ids, the tool-input keys kept as
   *  parameter names, object keys, and other values (types, roles, versions, enums, skipped kinds). Up to
   *  KEPT_LISTED each; `totals` counts them all. */
  values: { ids: string[]; inputKeys: string[]; keys: string[]; other: string[] };
  totals: { ids: number; inputKeys: number; keys: number; other: number };
};

export type RedactionPreview = {
  options: { content: boolean; keepPaths: boolean };
  changes: RedactionChange[];
  secrets: RedactionChange[];
  keptPaths: string[];
  kept: KeptIdentifiers;
  counts: {
    /** Strings replaced (with repeats) and their characters; keptPaths counts distinct paths. */
    strings: number;
    chars: number;
    byKind: Partial<Record<RedactionKind, number>>;
    secrets: number;
    secretsByKind: Partial<Record<SecretKind, number>>;
    keptPaths: number;
    /** Distinct changes not listed in `changes` (over previewLimit). */
    omitted: number;
    /** Numbers of tool inputs replaced (with repeats). */
    numbers: number;
  };
  /** Tokens of every message and prefix before and after (when a tokenizer was given). */
  tokens: { before: number; after: number } | null;
};

export type Redaction = {
  transcript: Transcript;
  preview: RedactionPreview;
  /** A kept value (a thread id a view points at) as this redaction wrote it: its secrets replaced, the same way. */
  keptValue: (s: string) => string;
};

/** Keys whose string values are identifiers, kept (secret-scanned) inside raw provider blocks and image sources
 *  (never inside tool inputs, whose string values are all content except paths). */
const ID_KEYS: ReadonlySet<string> = new Set([
  'type',
  'id',
  'tool_use_id',
  'toolUseId',
  'call_id',
  'name',
  'role',
  'model',
  'media_type',
  'mediaType',
  'detail',
  'status',
  'kind',
  'format',
]);

/** `meta.extra` keys whose values are identifiers (the rest is redacted as content; `cwd` as a path). */
const KEPT_EXTRA: ReadonlySet<string> = new Set([
  'model',
  'model_provider',
  'originator',
  'source',
  'status',
  'exit_status',
]);

/** JSON-schema keys whose values are prose (descriptions, examples); other schema strings are identifiers. */
const SCHEMA_TEXT_KEYS: ReadonlySet<string> = new Set([
  'description',
  'title',
  'default',
  'examples',
  'example',
  '$comment',
]);

const CLIP = 120;
/** Distinct kept values listed per class in the preview (all are counted). */
const KEPT_LISTED = 1000;
type KeptClass = 'ids' | 'inputKeys' | 'keys' | 'other';

function clip(s: string): string {
  const cps = Array.from(s);
  return cps.length <= CLIP ? s : `${cps.slice(0, CLIP).join('')}…`;
}

const overlaps = (a: Span, b: Span) => a.start < b.end && b.start < a.end;

type Ctx = { thread: string | null; message?: number; block?: number; request?: number };

class Redactor {
  readonly content: boolean;
  readonly keepPaths: boolean;
  readonly limit: number;
  readonly fill: FillContext;
  private readonly memo = new Map<string, { out: string; hits: SecretHit[] }>();
  private readonly numbers = new Map<number, number>();
  /** Filled tool-input keys by what they replace, and the reverse (two keys never share a filler). */
  private readonly keyFill = new Map<string, string>();
  private readonly keyOwner = new Map<string, string>();
  private readonly changes = new Map<string, RedactionChange>();
  private readonly secrets = new Map<string, RedactionChange>();
  private readonly kept = new Set<string>();
  /** Every string this redaction wrote (the final sweep leaves them alone: they were scanned already). */
  readonly outputs = new Set<string>();
  readonly keptNames = {
    toolNames: new Set<string>(),
    models: new Set<string>(),
    ids: new Set<string>(),
    inputKeys: new Set<string>(),
    keys: new Set<string>(),
    other: new Set<string>(),
  };
  readonly counts: RedactionPreview['counts'] = {
    strings: 0,
    chars: 0,
    byKind: {},
    secrets: 0,
    secretsByKind: {},
    keptPaths: 0,
    omitted: 0,
    numbers: 0,
  };

  constructor(
    o: RedactOptions,
    vocab: Set<string>,
    private readonly hitsOf: (s: string) => SecretHit[],
    /** Parameter names the transcript's own tool definitions declare (kept as tool-input keys). */
    private readonly declared: ReadonlySet<string>,
  ) {
    this.content = o.content ?? true;
    this.keepPaths = o.keepPaths ?? true;
    this.limit = o.previewLimit ?? 500;
    const tok = o.tokenizer;
    // Runs are short and repeat a lot; the tokenizer itself only caches texts of 24+ characters.
    const counts = new Map<string, number>();
    const count = (s: string) => {
      let n = counts.get(s);
      if (n === undefined && tok) {
        n = tok.count(s);
        counts.set(s, n);
      }
      return n ?? 0;
    };
    this.fill = { rng: o.random ?? secureRng(), vocab, count: tok ? count : undefined };
  }

  /** Content: filled (paths kept when asked), or only its secrets when content redaction is off. */
  text(s: string, kind: RedactionKind, ctx: Ctx, field: string): string {
    return this.content ? this.apply(s, 'content', kind, ctx, field) : this.apply(s, 'secrets', kind, ctx, field);
  }

  /** A kept value (path, id-like meta): only its secrets are replaced, found as in content and also as high-entropy
   *  runs and encoded keys (a kept value is shipped as it is). */
  keptValue(s: string, kind: RedactionKind, ctx: Ctx, field: string): string {
    return this.apply(s, 'kept', kind, ctx, field);
  }

  /** A path value: kept (secrets replaced) when paths are kept, else content. */
  pathValue(s: string, kind: RedactionKind, ctx: Ctx, field: string): string {
    if (!this.keepPaths) return this.text(s, kind, ctx, field);
    this.kept.add(s);
    return this.apply(s, 'kept', kind, ctx, field);
  }

  /** A number of a tool input: same shape, random digits (the same number gets the same filler in this share). */
  number(n: number, ctx: Ctx, field: string): number {
    if (!this.content || !Number.isFinite(n)) return n;
    let out = this.numbers.get(n);
    const first = out === undefined;
    if (out === undefined) {
      out = fillNumber(n, this.fill);
      this.numbers.set(n, out);
    }
    this.counts.numbers++;
    this.note(String(n), String(out), 'tool-input', { ...ctx, field }, first);
    return out;
  }

  /** A tool input's key: a parameter name (the agents' tools' own, or one a tool definition of this transcript
   *  declares) is kept, secret-scanned and listed; any other key is content (a name, an id number: filled). */
  inputKey(k: string, ctx: Ctx, field: string): string {
    if (isParameterName(k) || this.declared.has(k)) {
      const out = this.keptValue(k, 'tool-input', ctx, field);
      this.noteKept(out, 'inputKeys');
      return out;
    }
    if (!this.content) return this.apply(k, 'kept', 'tool-input', ctx, field);
    // Filled as content (its secrets counted and listed like any text's); a filler another key already took is drawn
    // again, so an input keeps all of its keys.
    const filled = this.apply(k, 'content', 'tool-input', ctx, `${field} (key)`);
    let out = this.keyFill.get(k);
    if (out === undefined) {
      out = filled;
      for (let i = 0; i < 64 && (this.keyOwner.has(out) || isParameterName(out) || this.declared.has(out)); i++)
        out = fillText(k, this.fill);
      if (this.keyOwner.has(out)) out = `${out}~${this.keyFill.size}`;
      this.keyFill.set(k, out);
      this.keyOwner.set(out, k);
      this.outputs.add(out);
    }
    return out;
  }

  private apply(s: string, mode: 'content' | 'secrets' | 'kept', kind: RedactionKind, ctx: Ctx, field: string): string {
    if (s === '') return s;
    const key = `${mode}\u0000${s}`;
    let done = this.memo.get(key);
    if (done === undefined) {
      let hits = mode === 'kept' ? findKeptSecrets(s, this.hitsOf(s)) : this.hitsOf(s);
      let out = s;
      if (mode === 'content') {
        // Paths kept inside content are shipped as they are: scanned like any kept value.
        const paths = this.keepPaths ? pathSpans(s) : [];
        const inPaths = paths.flatMap((p) =>
          findKeptSecrets(s.slice(p.start, p.end), []).map((h) => ({
            ...h,
            start: h.start + p.start,
            end: h.end + p.start,
          })),
        );
        if (inPaths.length > 0) hits = mergeHits([...hits, ...inPaths], s);
        const keep = paths.filter((p) => !hits.some((h) => overlaps(h, p)));
        for (const p of keep) this.kept.add(s.slice(p.start, p.end));
        out = fillText(s, this.fill, keep);
      }
      // Each secret becomes filler whole, its kind prefix too (`sk-ant-…` filled no longer looks like a key to
      // the next scanner); a URL's password becomes stars (filler would keep the `//user:…@` shape).
      for (const h of [...hits].reverse()) {
        const span = s.slice(h.start, h.end);
        const body = h.kind === 'url-credentials' ? '*'.repeat(span.length) : fillText(span, this.fill);
        if (mode !== 'content' || h.kind === 'url-credentials') out = out.slice(0, h.start) + body + out.slice(h.end);
      }
      done = { out, hits };
      this.memo.set(key, done);
    }
    const { out, hits } = done;
    this.outputs.add(out);
    const where: RedactionWhere = { ...ctx, field };
    for (const h of hits) {
      const secret = s.slice(h.start, h.end);
      this.counts.secrets++;
      this.counts.secretsByKind[h.kind] = (this.counts.secretsByKind[h.kind] ?? 0) + 1;
      const known = this.secrets.get(secret);
      if (known) known.occurrences++;
      else
        this.secrets.set(secret, {
          where,
          kind: 'secret',
          secret: h.kind,
          before: maskSecret(secret, h.prefix),
          after: clip(out.slice(h.start, h.end)),
          occurrences: 1,
        });
    }
    if (out !== s && mode === 'content') this.count(s, out, kind, where);
    return out;
  }

  /** Count one content change, listing it once (with its repeats). */
  private count(before: string, after: string, kind: RedactionKind, where: RedactionWhere): void {
    this.counts.strings++;
    this.counts.chars += before.length;
    this.note(before, after, kind, where, !this.changes.has(before));
  }

  private note(before: string, after: string, kind: RedactionKind, where: RedactionWhere, first: boolean): void {
    this.counts.byKind[kind] = (this.counts.byKind[kind] ?? 0) + 1;
    const known = this.changes.get(before);
    if (known) known.occurrences++;
    else if (this.changes.size < this.limit)
      this.changes.set(before, { where, kind, before: clip(before), after: clip(after), occurrences: 1 });
    else if (first) this.counts.omitted++;
  }

  /** Remember a kept value (as written) for the preview's "kept" lists. */
  noteKept(s: string, kind: 'toolNames' | 'models' | KeptClass): void {
    const set = this.keptNames[kind];
    if (kind === 'toolNames' || kind === 'models' ? set.size < 200 : true) set.add(s);
  }

  /** A kept value as written, without counting it again (a view's thread id). */
  rewritten(s: string): string {
    return (
      this.memo.get(`kept\u0000${s}`)?.out ??
      this.memo.get(`secrets\u0000${s}`)?.out ??
      this.memo.get(`content\u0000${s}`)?.out ??
      s
    );
  }

  preview(tokens: RedactionPreview['tokens']): RedactionPreview {
    const k = this.keptNames;
    const list = (c: KeptClass) => [...k[c]].sort().slice(0, KEPT_LISTED);
    const total = (c: KeptClass) => k[c].size;
    return {
      options: { content: this.content, keepPaths: this.keepPaths },
      changes: [...this.changes.values()],
      secrets: [...this.secrets.values()],
      keptPaths: [...this.kept],
      kept: {
        toolNames: [...k.toolNames].sort(),
        models: [...k.models].sort(),
        ids: total('ids'),
        other: total('other'),
        values: { ids: list('ids'), inputKeys: list('inputKeys'), keys: list('keys'), other: list('other') },
        totals: { ids: total('ids'), inputKeys: total('inputKeys'), keys: total('keys'), other: total('other') },
      },
      counts: { ...this.counts, keptPaths: this.kept.size },
      tokens,
    };
  }
}

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
