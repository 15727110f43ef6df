// The artifact index behind anchored summaries (SPEC §4 stage 5): exact paths from tool inputs,
// exact error strings, decisions and state lines, each tagged with the request that produced it.
// Built incrementally and merged with the previous summary's index, never regenerated from prose.

import { pushAll } from '../lib/arrays.ts';
import { headRunes, runeCount } from '../lib/runes.ts';
import type { Block, Message } from '../model/transcript.ts';
import { resultText } from '../tokens/block-text.ts';
import { canonicalTool } from './aliases.ts';

type Artifact = { text: string; request: number };

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

function addUnique(list: Artifact[], text: string, request: number, max = 40): void {
  if (text === '' || list.some((a) => a.text === text)) return;
  list.push({ text, request });
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

/** The first non-empty line of an error result, clipped. */
function errorLine(b: Block): string | null {
  const first = resultText(b)
    .slice(0, 4000)
    .split('\n')
    .find((l) => l.trim() !== '');
  return first ? clip(first, 200) : null;
}

/** Most messages contribute no decision, path or error: their lists are this one (frozen, never pushed to), as a
 *  contribution is kept for every message of a run. */
const NOTHING: string[] = Object.freeze([]) as unknown as string[];

const listOrNothing = (list: string[]) => (list.length === 0 ? NOTHING : list);

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

/** What each message contributes to an artifact index, kept per message object for a run (PipelineMemo): a
 *  rewritten message is the same object on every re-run (placements.ts), so result messages are found again too.
 *  Assumes messages are never mutated. Bound: the messages alive. */
export class Contributions {
  private readonly byMessage = new WeakMap<Message, Contribution>();
  private nextId = 1;

  of(m: Message): Contribution {
    let c = this.byMessage.get(m);
    if (!c) {
      c = contribution(m, this.nextId++);
      this.byMessage.set(m, c);
    }
    return c;
  }
}

/** Add one message's contribution (made at request `req`) to `index`. */
export function indexMessage(index: ArtifactIndex, c: Contribution, req: number): void {
  if (c.user) {
    if (index.intent.length === 0) addUnique(index.intent, c.user.intent, req);
    index.next = [];
    addUnique(index.next, c.user.next, req);
  }
  for (const d of c.decisions) addUnique(index.decisions, d, req, 12);
  if (c.state !== undefined) {
    index.state = [];
    addUnique(index.state, c.state, req);
  }
  for (const p of c.modified) addUnique(index.filesModified, p, req);
  for (const p of c.read) addUnique(index.filesRead, p, req);
  for (const e of c.errors) addUnique(index.errors, e, req, 20);
}

/** Merge `more` into a copy of `base` (previous summary kept, new items appended). */
export function mergeIndex(base: ArtifactIndex, more: ArtifactIndex): ArtifactIndex {
  const out = emptyIndex();
  for (const k of Object.keys(out) as (keyof ArtifactIndex)[]) {
    const replaceable = k === 'state' || k === 'next';
    out[k] = replaceable && more[k].length > 0 ? [...more[k]] : [...base[k]];
    if (!replaceable) for (const a of more[k]) addUnique(out[k], a.text, a.request, 60);
  }
  return out;
}

/** Render the anchored sections (every item tagged with its request). */
export function renderSections(index: ArtifactIndex, prose?: Partial<Record<keyof ArtifactIndex, string>>): string {
  const lines: string[] = [];
  for (const k of Object.keys(SECTION_TITLES) as (keyof ArtifactIndex)[]) {
    lines.push(`## ${SECTION_TITLES[k]}`);
    const extra = prose?.[k];
    if (extra) lines.push(extra.trim());
    if (index[k].length === 0 && !extra) lines.push('- (none)');
    for (const a of index[k]) lines.push(`- ${a.text} (req ${a.request})`);
  }
  return lines.join('\n');
}
