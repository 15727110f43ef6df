// The redactor of one share (redact.ts walks a transcript through it): the preview's types, what is kept and why,
// and the state of one redaction — its CSPRNG filler stream, the same filler for the same text within the share, the
// changes and kept values it lists, the secrets it found.
import type { Transcript } from '../model/transcript.ts';
import type { Tokenizer } from '../tokens/tokenizer.ts';
import { type FillContext, fillNumber, fillText, type Rng, type Span, secureRng } from './filler.ts';
import { isParameterName } from './kept-keys.ts';
import { pathSpans } from './paths.ts';
import { findKeptSecrets, maskSecret, mergeHits, type SecretHit, type SecretKind } from './secrets.ts';

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
/** Distinct kept values listed per class in the preview (all are counted). */
const KEPT_LISTED = 1000;
export type KeptClass = 'ids' | 'inputKeys' | 'keys' | 'other';

function clip(s: string): string {
  const cps = Array.from(s);
  return cps.length <= CLIP ? s : `${cps.slice(0, CLIP).join('')}…`;
}

const overlaps = (a: Span, b: Span) => a.start < b.end && b.start < a.end;

export type Ctx = { thread: string | null; message?: number; block?: number; request?: number };

export class Redactor {
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
