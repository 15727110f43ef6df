// Opt-in redaction for shares (SPEC §7): text and tool content — text, thinking, tool inputs' string values,
// tool results, system prompts, tool descriptions, titles, parse-issue messages — become same-length filler
// of the same script (filler.ts), so token counts and therefore the analysis stay close. Ids, tool names,
// models and structure are kept, paths optionally; secret-looking strings are always replaced, even where
// the rest is kept. Returns the redacted copy and a preview of what changed. Never mutates its input.
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
import { type FillContext, fillText, type Span, wordsOf } from './filler.ts';
import { isPathValue, pathSpans } from './paths.ts';
import { findSecrets, maskSecret, type SecretHit, type SecretKind } from './secrets.ts';

export type RedactOptions = {
  /** Replace text and tool content (default true); false replaces only secret-looking strings. */
  content?: boolean;
  /** Keep file paths as they are (default true, SPEC §7: "ids/paths/tool names kept unless chosen"). */
  keepPaths?: boolean;
  /** Exact tokenizer: filler is chosen to match token counts, and the preview reports the token delta. */
  tokenizer?: Tokenizer;
  /** Distinct content changes listed in the preview (all are counted); default 500. */
  previewLimit?: number;
};

export type RedactionKind =
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

export type RedactionPreview = {
  options: { content: boolean; keepPaths: boolean };
  changes: RedactionChange[];
  secrets: RedactionChange[];
  keptPaths: string[];
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
  };
  /** Tokens of every message and prefix before and after (when a tokenizer was given). */
  tokens: { before: number; after: number } | null;
};

export type Redaction = { transcript: Transcript; preview: RedactionPreview };

/** Keys whose string values are identifiers, kept verbatim inside raw provider blocks and image sources
 *  (never inside tool inputs, whose string values are all content except paths). */
export const ID_KEYS: ReadonlySet<string> = new Set([
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
export const KEPT_EXTRA: ReadonlySet<string> = new Set([
  'model',
  'model_provider',
  'originator',
  'source',
  'status',
  'exit_status',
]);

/** JSON-schema keys whose values are prose (descriptions, examples); other schema strings are identifiers. */
export const SCHEMA_TEXT_KEYS: ReadonlySet<string> = new Set([
  'description',
  'title',
  'default',
  'examples',
  'example',
  '$comment',
]);

const CLIP = 120;

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
  private readonly changes = new Map<string, RedactionChange>();
  private readonly secrets = new Map<string, RedactionChange>();
  private readonly kept = new Set<string>();
  readonly counts: RedactionPreview['counts'] = {
    strings: 0,
    chars: 0,
    byKind: {},
    secrets: 0,
    secretsByKind: {},
    keptPaths: 0,
    omitted: 0,
  };

  constructor(o: RedactOptions, vocab: Set<string>) {
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
    this.fill = { vocab, count: tok ? count : undefined };
  }

  /** Content: filled (paths kept when asked), or only its secrets when content redaction is off. */
  text(s: string, kind: RedactionKind, ctx: Ctx, field: string): string {
    return this.content ? this.apply(s, 'content', kind, ctx, field) : this.apply(s, 'secrets', kind, ctx, field);
  }

  /** A kept value (path, id-like meta): only its secrets are replaced. */
  keptValue(s: string, kind: RedactionKind, ctx: Ctx, field: string): string {
    return this.apply(s, 'secrets', kind, ctx, field);
  }

  /** A path value: kept (secrets replaced) when paths are kept, else content. */
  pathValue(s: string, kind: RedactionKind, ctx: Ctx, field: string): string {
    if (!this.keepPaths) return this.text(s, kind, ctx, field);
    this.kept.add(s);
    return this.apply(s, 'secrets', kind, ctx, field);
  }

  private apply(s: string, mode: 'content' | 'secrets', kind: RedactionKind, ctx: Ctx, field: string): string {
    if (s === '') return s;
    const key = `${mode}\u0000${s}`;
    let done = this.memo.get(key);
    const first = done === undefined;
    if (done === undefined) {
      const hits = findSecrets(s);
      let out = s;
      if (mode === 'content') {
        const keep = this.keepPaths ? pathSpans(s).filter((p) => !hits.some((h) => overlaps(h, p))) : [];
        for (const p of keep) this.kept.add(s.slice(p.start, p.end));
        out = fillText(s, this.fill, keep);
      } else {
        for (const h of [...hits].reverse()) {
          const body = fillText(s.slice(h.start + h.prefix, h.end), this.fill);
          out = out.slice(0, h.start + h.prefix) + body + out.slice(h.end);
        }
      }
      done = { out, hits };
      this.memo.set(key, done);
    }
    const { out, hits } = done;
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
    if (out !== s && mode === 'content') {
      this.counts.strings++;
      this.counts.chars += s.length;
      this.counts.byKind[kind] = (this.counts.byKind[kind] ?? 0) + 1;
      const known = this.changes.get(s);
      if (known) known.occurrences++;
      else if (this.changes.size < this.limit)
        this.changes.set(s, { where, kind, before: clip(s), after: clip(out), occurrences: 1 });
      else if (first) this.counts.omitted++;
    }
    return out;
  }

  preview(tokens: RedactionPreview['tokens']): RedactionPreview {
    return {
      options: { content: this.content, keepPaths: this.keepPaths },
      changes: [...this.changes.values()],
      secrets: [...this.secrets.values()],
      keptPaths: [...this.kept],
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
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = mapStrings(x, f, k, path ? `${path}.${k}` : k);
    return out;
  }
  return v;
}

/** Strings of a JSON value: paths are path values; with `ids`, values under ID_KEYS are kept (raw provider
 *  blocks, image sources); everything else is content. Tool inputs pass `ids = false`: all content. */
function walkValue(r: Redactor, v: unknown, kind: RedactionKind, ctx: Ctx, field: string, ids: boolean): unknown {
  return mapStrings(v, (s, key, path) => {
    const at = path ? `${field}.${path}` : field;
    if (ids && key !== undefined && ID_KEYS.has(key)) return r.keptValue(s, kind, ctx, at);
    if (isPathValue(key, s)) return r.pathValue(s, kind, ctx, at);
    return r.text(s, kind, ctx, at);
  });
}

function walkSchema(r: Redactor, v: unknown, ctx: Ctx, field: string, prose = false): unknown {
  if (typeof v === 'string')
    return prose ? r.text(v, 'tool-description', ctx, field) : r.keptValue(v, 'tool-description', ctx, field);
  if (Array.isArray(v)) return v.map((x) => walkSchema(r, x, ctx, field, prose));
  if (typeof v === 'object' && v !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v))
      out[k] = walkSchema(r, x, ctx, `${field}.${k}`, prose || SCHEMA_TEXT_KEYS.has(k));
    return out;
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
      return b.source === undefined ? b : { ...b, source: walkValue(r, b.source, 'image', ctx, 'source', true) };
    case 'tool_use':
    case 'server_tool_use':
      return { ...b, input: walkValue(r, b.input, 'tool-input', ctx, 'input', false) };
    case 'tool_result':
      return {
        ...b,
        content:
          typeof b.content === 'string'
            ? r.text(b.content, 'tool-result', ctx, 'content')
            : b.content.map((x) => redactBlock(r, x, ctx, 'tool-result')),
      };
    case 'other':
      return { ...b, raw: walkValue(r, b.raw, 'other', ctx, 'raw', true) };
  }
}

function redactMessages(r: Redactor, ms: readonly Message[], thread: string, request?: number): Message[] {
  return ms.map((m) => ({
    ...m,
    blocks: m.blocks.map((b, i) => redactBlock(r, b, { thread, message: m.index, block: i, request }, 'text')),
  }));
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
    const extra: Record<string, string | number | boolean> = {};
    for (const [k, v] of Object.entries(m.extra)) {
      const field = `meta.extra.${k}`;
      extra[k] =
        typeof v !== 'string'
          ? v
          : KEPT_EXTRA.has(k)
            ? r.keptValue(v, 'meta', ctx, field)
            : isPathValue(k, v)
              ? r.pathValue(v, 'meta', ctx, field)
              : r.text(v, 'meta', ctx, field);
    }
    out.extra = extra;
  }
  return out;
}

function redactIssue(r: Redactor, i: ParseIssue): ParseIssue {
  return { ...i, message: r.text(i.message, 'parse-issue', { thread: null }, `parseIssues.line${i.line}`) };
}

/** Every string of the transcript that redaction treats as content, for the vocabulary filler avoids. */
function contentVocabulary(t: Transcript): Set<string> {
  const vocab = new Set<string>();
  const seen = new Set<string>();
  const add = (s: unknown) => {
    if (typeof s === 'string' && s.length >= 4 && !seen.has(s)) {
      seen.add(s);
      wordsOf(s, vocab);
    }
  };
  const walk = (v: unknown): void => {
    if (typeof v === 'string') add(v);
    else if (Array.isArray(v)) for (const x of v) walk(x);
    else if (typeof v === 'object' && v !== null) for (const x of Object.values(v)) walk(x);
  };
  // Over-approximation: every string value anywhere (content or not). Filler only has to avoid them.
  walk(t);
  return vocab;
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

/** Redact a transcript. Deterministic: the same transcript and options give the same result. */
export function redactTranscript(t: Transcript, o: RedactOptions = {}): Redaction {
  const r = new Redactor(o, contentVocabulary(t));
  const transcript: Transcript = {
    ...t,
    meta: redactMeta(r, t.meta),
    threads: t.threads.map((th) => redactThread(r, th)),
    parseIssues: t.parseIssues.map((i) => redactIssue(r, i)),
  };
  const tokens = o.tokenizer
    ? { before: transcriptTokens(t, o.tokenizer), after: transcriptTokens(transcript, o.tokenizer) }
    : null;
  return { transcript, preview: r.preview(tokens) };
}
