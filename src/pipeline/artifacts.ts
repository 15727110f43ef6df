// The artifact index behind anchored summaries (SPEC §4 stage 5): exact paths from tool inputs,
// exact error strings, decisions and state lines, each tagged with the request that produced it.
// Built incrementally and merged with the previous summary's index, never regenerated from prose.

import { pushAll } from '../lib/arrays.ts';
import { headRunes, runeCount } from '../lib/runes.ts';
import type { Block, Message } from '../model/transcript.ts';
import { resultText } from '../tokens/block-text.ts';
import { canonicalTool } from './aliases.ts';
import { errorLineOf } from './error-line.ts';

export type Artifact = { readonly text: string; readonly request: number };

export type ArtifactIndex = {
  intent: Artifact[];
  filesModified: Artifact[];
  filesRead: Artifact[];
  decisions: Artifact[];
  errors: Artifact[];
  state: Artifact[];
  next: Artifact[];
};

export const SECTION_TITLES: Readonly<Record<keyof ArtifactIndex, string>> = {
  intent: 'Session Intent',
  filesModified: 'Files Modified',
  filesRead: 'Files Read',
  decisions: 'Decisions',
  errors: 'Errors',
  state: 'Current State',
  next: 'Next Steps',
};

export function emptyIndex(): ArtifactIndex {
  return { intent: [], filesModified: [], filesRead: [], decisions: [], errors: [], state: [], next: [] };
}

/** Whitespace that normalising would change: a run, or one that is not a plain space. */
const UNNORMAL = /[^\S ]|\s\s/;

function clip(s: string, n: number): string {
  // Normalise only a head long enough for n runes (whitespace runs collapse, so take generously). A text with
  // nothing to collapse is kept as it is, not copied (clips are kept per message of a run).
  const head = s.length > n * 8 + 64 ? s.slice(0, n * 8 + 64) : s;
  const t = (UNNORMAL.test(head) ? head.replace(/\s+/g, ' ') : head).trim();
  return runeCount(t) > n || head.length < s.length ? `${headRunes(t, n)}…` : t;
}

/** Append `a` itself (a merge keeps the items' identity: their rendered lines' counts are kept by it). */
function addArtifact(list: Artifact[], a: Artifact, max: number): void {
  if (a.text === '') return;
  for (let i = 0; i < list.length; i++) if (list[i].text === a.text) return;
  list.push(a);
  if (list.length > max) list.shift();
}

/** Paths a tool input names (file_path/path/notebook_path, or apply_patch headers). */
export function inputPaths(tool: string, input: unknown): string[] {
  const out: string[] = [];
  if (typeof input === 'object' && input !== null) {
    const o = input as Record<string, unknown>;
    for (const k of ['file_path', 'path', 'notebook_path', 'filePath', 'filename']) {
      if (typeof o[k] === 'string') out.push(o[k] as string);
    }
    if (typeof o.input === 'string') pushAll(out, patchPaths(o.input));
  } else if (typeof input === 'string' && canonicalTool(tool) === 'file_edit') pushAll(out, patchPaths(input));
  return out;
}

function patchPaths(patch: string): string[] {
  const out: string[] = [];
  for (const m of patch.matchAll(/^\*\*\* (?:Update|Add|Delete) File: (.+)$/gm)) out.push(m[1].trim());
  return out;
}

const DECISION = /\b(I'll|I will|Let me|let's|decided|instead|going to|plan is|the fix)\b/i;

function textOf(m: Message): string {
  return m.blocks
    .filter((b): b is Extract<Block, { type: 'text' }> => b.type === 'text')
    .map((b) => b.text)
    .join('\n');
}

/** What one message contributes to an index, independent of the index it is added to (cached per message). */
export type Contribution = {
  /** A number unique to the message object (summary drafts are memoized by the identity of what they fold). */
  id: number;
  user?: { intent: string; next: string };
  decisions: string[];
  state?: string;
  modified: string[];
  read: string[];
  errors: string[];
};

/** The error line of a failed result (error-line.ts), clipped. */
function errorLine(b: Block): string | null {
  const line = errorLineOf(resultText(b).slice(0, 4000));
  return line ? clip(line, 200) : null;
}

/** Most messages contribute no decision, path or error: their lists are this one (frozen, never pushed to), as a
 *  contribution is kept for every message of a run. */
const NOTHING: string[] = Object.freeze([]) as unknown as string[];

/** A gathered list kept at its exact length (a pushed-to array reserves 17 slots), or NOTHING. */
const listOrNothing = (list: string[]) => (list.length === 0 ? NOTHING : list.slice());

/** Gathered in a scratch object, kept as one literal (a field added to a made object takes a property array). */
function contribution(m: Message, id: number): Contribution {
  const c: Contribution = { id, decisions: [], modified: [], read: [], errors: [] };
  fill(c, m);
  return {
    id,
    decisions: listOrNothing(c.decisions),
    modified: listOrNothing(c.modified),
    read: listOrNothing(c.read),
    errors: listOrNothing(c.errors),
    ...(c.user ? { user: c.user } : {}),
    ...(c.state !== undefined ? { state: c.state } : {}),
  };
}

function fill(c: Contribution, m: Message): void {
  const text = textOf(m);
  const hasText = text.trim() !== '';
  if (m.role === 'user' && hasText && !m.meta) {
    const intent = clip(text, 300);
    const next = clip(text, 200);
    c.user = { intent, next: next === intent ? intent : next }; // one string when the text is short
  }
  if (m.role === 'assistant') {
    for (const sentence of text.split(/(?<=[.!?])\s+|\n+/))
      if (DECISION.test(sentence)) c.decisions.push(clip(sentence, 160));
    if (hasText) c.state = clip(text, 300);
  }
  for (const b of m.blocks) {
    if (b.type === 'tool_use') {
      const canon = canonicalTool(b.name);
      const paths = inputPaths(b.name, b.input);
      if (canon === 'file_edit' || canon === 'file_write') pushAll(c.modified, paths);
      else if (canon === 'file_read') pushAll(c.read, paths);
    } else if (b.type === 'tool_result' && b.isError) {
      const first = errorLine(b);
      if (first) c.errors.push(first);
    }
  }
}

/** A contribution's items at the request that made its message (`req`), as the index holds them. */
type MessageArtifacts = {
  req: number;
  user?: { intent: Artifact; next: Artifact };
  decisions: Artifact[];
  state?: Artifact;
  modified: Artifact[];
  read: Artifact[];
  errors: Artifact[];
};

/** The items of an empty list (shared, like NOTHING: most messages have no decision, path or error). */
const NO_ITEMS: Artifact[] = Object.freeze([]) as unknown as Artifact[];

function artifactsOf(c: Contribution, req: number): MessageArtifacts {
  const at = (text: string): Artifact => ({ text, request: req });
  const items = (list: string[]) => (list.length === 0 ? NO_ITEMS : list.map(at));
  return {
    req,
    ...(c.user ? { user: { intent: at(c.user.intent), next: at(c.user.next) } } : {}),
    decisions: items(c.decisions),
    ...(c.state !== undefined ? { state: at(c.state) } : {}),
    modified: items(c.modified),
    read: items(c.read),
    errors: items(c.errors),
  };
}

/** What each message contributes to an artifact index, kept per message object for a run (PipelineMemo): a
 *  rewritten message is the same object on every re-run (placements.ts), so result messages are found again too.
 *  Assumes messages are never mutated. Bound: the messages alive. */
export class Contributions {
  private readonly byMessage = new WeakMap<Message, Contribution>();
  /** A contribution → its items at the request last asked for (one request per message in a thread), the same
   *  objects every time, so the lines a summary renders from them are counted once (summary-drafts.ts). */
  private readonly items = new WeakMap<Contribution, MessageArtifacts>();
  private nextId = 1;

  of(m: Message): Contribution {
    let c = this.byMessage.get(m);
    if (!c) {
      c = contribution(m, this.nextId++);
      this.byMessage.set(m, c);
    }
    return c;
  }

  /** `c`'s items made at request `req`. */
  artifacts(c: Contribution, req: number): MessageArtifacts {
    let found = this.items.get(c);
    if (!found || found.req !== req) {
      found = artifactsOf(c, req);
      this.items.set(c, found);
    }
    return found;
  }
}

/** Add each of `items` to `list`. */
function addAll(list: Artifact[], items: readonly Artifact[], max: number): void {
  for (let i = 0; i < items.length; i++) addArtifact(list, items[i], max);
}

/** Add one message's items (Contributions.artifacts) to `index`. Next Steps and Current State are the latest
 *  message's: emptied in place (an index's lists are its own; mergeIndex copies them), as summaries index every
 *  message they fold. */
export function indexMessage(index: ArtifactIndex, a: MessageArtifacts): void {
  if (a.user) {
    if (index.intent.length === 0) addArtifact(index.intent, a.user.intent, 40);
    index.next.length = 0;
    addArtifact(index.next, a.user.next, 40);
  }
  addAll(index.decisions, a.decisions, 12);
  if (a.state !== undefined) {
    index.state.length = 0;
    addArtifact(index.state, a.state, 40);
  }
  addAll(index.filesModified, a.modified, 40);
  addAll(index.filesRead, a.read, 40);
  addAll(index.errors, a.errors, 20);
}

/** Merge `more` into a copy of `base` (previous summary kept, new items appended). */
export function mergeIndex(base: ArtifactIndex, more: ArtifactIndex): ArtifactIndex {
  const out = emptyIndex();
  for (const k of Object.keys(out) as (keyof ArtifactIndex)[]) {
    const replaceable = k === 'state' || k === 'next';
    out[k] = replaceable && more[k].length > 0 ? [...more[k]] : [...base[k]];
    if (!replaceable) for (const a of more[k]) addArtifact(out[k], a, 60);
  }
  return out;
}

/** An item's line in the anchored sections (without its "\n"). */
export function itemLine(a: Artifact): string {
  return `- ${a.text} (req ${a.request})`;
}

const SECTION_KEYS = Object.keys(SECTION_TITLES) as (keyof ArtifactIndex)[];
const NONE_LINE = '- (none)';

/** Each line of the anchored sections in order, with the item it renders (none for titles and prose). */
function forEachSectionLine(
  index: ArtifactIndex,
  line: (text: string, item: Artifact | undefined) => void,
  prose?: Partial<Record<keyof ArtifactIndex, string>>,
): void {
  for (const k of SECTION_KEYS) {
    line(`## ${SECTION_TITLES[k]}`, undefined);
    const extra = prose?.[k];
    if (extra) line(extra.trim(), undefined);
    if (index[k].length === 0 && !extra) line(NONE_LINE, undefined);
    for (const a of index[k]) line(itemLine(a), a);
  }
}

/** Render the anchored sections (every item tagged with its request). */
export function renderSections(index: ArtifactIndex, prose?: Partial<Record<keyof ArtifactIndex, string>>): string {
  const lines: string[] = [];
  forEachSectionLine(index, (l) => lines.push(l), prose);
  return lines.join('\n');
}

/** Runes of `renderSections(index)` (no prose) without rendering it: its lines' runes and the breaks between them.
 *  An item's line is `- `, its text, ` (req `, the request's digits and `)`; the rest is ASCII. */
export function sectionRunes(index: ArtifactIndex): number {
  let n = -1; // one break fewer than lines
  for (const k of SECTION_KEYS) {
    const items = index[k];
    n += (TITLE_LINES.get(k) as string).length; // "## Title" and its break
    if (items.length === 0) n += NONE_LINE_BREAK.length;
    for (let i = 0; i < items.length; i++) {
      const a = items[i];
      n += runeCount(a.text) + ITEM_FIXED_RUNES + digits(a.request);
    }
  }
  return n;
}

/** `- `, ` (req `, `)` and the line's break. */
const ITEM_FIXED_RUNES = 10;

/** Characters of a request number as an item line writes it (`${n}`). */
function digits(n: number): number {
  if (!Number.isSafeInteger(n) || n < 0) return String(n).length;
  let d = 1;
  for (let x = n; x >= 10; x = Math.floor(x / 10)) d++;
  return d;
}

/** A title line and `- (none)`, each with its "\n" (made once: a draft is measured per candidate cut). */
const TITLE_LINES = new Map(SECTION_KEYS.map((k) => [k, `## ${SECTION_TITLES[k]}\n`]));
const NONE_LINE_BREAK = `${NONE_LINE}\n`;

/**
 * Tokens of `renderSections(index)` without rendering or hashing it: every line but the first starts with "#" or
 * "-", so the break before it is a safe cut (tokens/line-units.ts) and the count is the sum of the lines' counts,
 * each with its "\n" but the last. `count` counts a line that renders no item; `itemCount` is the count of an
 * item's line with its "\n", kept by the item's identity (a merged index keeps its items: summaries share most of
 * their lines), so an item's line is built only when its count is not known yet (`itemLine`). The last line is an
 * item of Next Steps or `- (none)`, counted without its "\n".
 */
export function sectionTokens(
  index: ArtifactIndex,
  count: (line: string) => number,
  itemCount: (a: Artifact) => number,
): number {
  let n = 0;
  for (let s = 0; s < SECTION_KEYS.length; s++) {
    const k = SECTION_KEYS[s];
    const items = index[k];
    const last = s === SECTION_KEYS.length - 1;
    n += count(TITLE_LINES.get(k) as string);
    if (items.length === 0) n += count(last ? NONE_LINE : NONE_LINE_BREAK);
    for (let i = 0; i < items.length; i++)
      n += last && i === items.length - 1 ? count(itemLine(items[i])) : itemCount(items[i]);
  }
  return n;
}
