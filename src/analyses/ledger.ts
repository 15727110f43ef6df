// The artifact ledger of a span of a thread (issue 17, SPEC §5.5): what a compaction folds — files read and
// modified (paths from tool inputs, canonical tool names), commands run, exact error strings of error results,
// identifiers declared by edits, the open todo list and the latest user instructions — each item with the
// message and source line it came from. Deterministic and exact: nothing here is inferred from prose.
import { headRunes, runeCount } from '../lib/runes.ts';
import { firstIndex } from '../lib/search.ts';
import type { Block, Message, Thread } from '../model/transcript.ts';
import { canonicalTool } from '../pipeline/aliases.ts';
import { inputPaths } from '../pipeline/artifacts.ts';
import { errorLineOf } from '../pipeline/error-line.ts';
import { resultText } from '../tokens/block-text.ts';

export type LedgerKind =
  | 'filesModified'
  | 'filesRead'
  | 'commands'
  | 'errors'
  | 'identifiers'
  | 'todos'
  | 'instructions';

/** One thing the span holds, and where it came from (the last message that named it). */
export type LedgerItem = {
  text: string;
  messageIndex: number;
  /** 1-based source line of that message (0 when not line-based). */
  line: number;
  /** The tool that named it (raw name), and its call, when a tool did. */
  tool?: string;
  toolUseId?: string;
  /** How many times the span named it. */
  times: number;
};

export type Ledger = Record<LedgerKind, LedgerItem[]> & {
  thread: string;
  /** Messages [from, to) of the thread. */
  from: number;
  to: number;
};

/** Latest user instructions the ledger keeps (the newest last). */
const MAX_INSTRUCTIONS = 3;
const MAX_IDENTIFIERS = 60;
const MIN_INSTRUCTION = 12;

function clip(s: string, n: number): string {
  return runeCount(s) > n ? `${headRunes(s, n)}…` : s;
}

/** Names a code edit declares (functions, classes, constants, types) — the identifiers the skill asks to keep. */
const DECLARATION =
  /\b(?:function|class|interface|type|enum|const|let|var|def|fn|func|struct|trait)\s+([A-Za-z_$][\w$]{2,})/g;

/** A name distinctive enough to probe for (a case hump or an underscore: `generateSpeech`, `MAX_SIZE`), not a
 *  word a summary would contain anyway (`url`, `data`). */
const DISTINCT = /[a-z][A-Z]|[A-Za-z]_[A-Za-z]/;

/** The new text an edit or write puts in a file (Edit new_string, MultiEdit edits, Write content, a patch). */
function editedText(input: unknown): string {
  if (typeof input === 'string') return input;
  if (typeof input !== 'object' || input === null) return '';
  const o = input as Record<string, unknown>;
  const parts: string[] = [];
  for (const k of ['new_string', 'content', 'input', 'new_str', 'file_text'])
    if (typeof o[k] === 'string') parts.push(o[k] as string);
  if (Array.isArray(o.edits))
    for (const e of o.edits)
      if (e && typeof e === 'object' && typeof (e as Record<string, unknown>).new_string === 'string')
        parts.push((e as Record<string, string>).new_string);
  return parts.join('\n');
}

/** Open items of a todo/plan tool call (Claude Code TodoWrite `todos`, Codex update_plan `plan`); null: not one. */
function openTodos(name: string, input: unknown): string[] | null {
  if (typeof input !== 'object' || input === null) return null;
  const o = input as Record<string, unknown>;
  const list = name === 'TodoWrite' ? o.todos : name === 'update_plan' ? o.plan : undefined;
  if (!Array.isArray(list)) return null;
  const out: string[] = [];
  for (const t of list) {
    if (!t || typeof t !== 'object') continue;
    const r = t as Record<string, unknown>;
    const text = typeof r.content === 'string' ? r.content : typeof r.step === 'string' ? r.step : undefined;
    if (text !== undefined && r.status !== 'completed') out.push(text);
  }
  return out;
}

/** The error line of a failed result (pipeline/error-line.ts): the exact string the agent saw (clipped at 300 runes). */
function errorString(b: Block): string | null {
  const line = errorLineOf(resultText(b).slice(0, 8000));
  return line ? clip(line, 300) : null;
}

/** A user message a person typed (not injected, not results, not a compaction summary, not a local command echo). */
export function instructionText(m: Message): string | null {
  if (m.role !== 'user' || m.meta || m.compaction) return null;
  const text = m.blocks
    .filter((b): b is Extract<Block, { type: 'text' }> => b.type === 'text')
    .map((b) => b.text)
    .join('\n')
    .trim();
  if (text === '' || /^<(command-|local-command-)/.test(text) || /^Caveat: The messages below/.test(text)) return null;
  return text;
}

class Items {
  readonly list: LedgerItem[] = [];
  private readonly at = new Map<string, LedgerItem>();
  add(text: string, m: Message, extra?: { tool: string; toolUseId: string }): void {
    const seen = this.at.get(text);
    const where = { messageIndex: m.index, line: m.source.line, ...extra };
    if (seen) {
      seen.times++;
      Object.assign(seen, where);
      return;
    }
    const item: LedgerItem = { text, ...where, times: 1 };
    this.at.set(text, item);
    this.list.push(item);
  }
  has(text: string): boolean {
    return this.at.has(text);
  }
}

/** What one message adds to a ledger, made once per message (it depends on the message alone): the items it names,
 *  in block order (an error result names its call's tool, looked up within the span when an error needs it:
 *  `callsBefore` is the number of the message's tool calls before it). `said`: the instruction it carries, clipped
 *  (null: none, or too short to probe). */
type LedgerEntry =
  | { kind: 'filesModified' | 'filesRead' | 'commands' | 'identifiers'; text: string; tool: string; toolUseId: string }
  | { kind: 'errors'; text: string; toolUseId: string; callsBefore: number };
type MessageLedger = { said: string | null; entries: LedgerEntry[] };

/** Message → what it adds to a ledger (the audit's memo keeps it: a drag audits spans over the same messages), for
 *  the messages that add something: most add nothing (a plain tool result), and those are not kept here (a run
 *  holds no entry per message for them; SPEC §9's bytes per message) but marked in the thread's `AddsNothing`.
 *  Assumes messages are never mutated. */
export type LedgerParts = WeakMap<Message, MessageLedger>;

/** By message of a thread, 1 when it is known to add nothing to a ledger (one byte a message: without it each
 *  ledger made them again, every run, for the 60% of messages that add nothing). */
export type AddsNothing = Uint8Array;

/** What a message that adds nothing adds (one shared object). */
const NOTHING: MessageLedger = Object.freeze({ said: null, entries: [] }) as unknown as MessageLedger;

/** The tool of call `id` as an error result of message `i` names it: the latest such call before the result, among
 *  the message's first `callsBefore` calls and then the span's earlier messages (from `from`); read only for error
 *  results, which are rare. */
function callTool(thread: Thread, from: number, i: number, callsBefore: number, id: string): string {
  for (let k = i; k >= from; k--) {
    const m = thread.messages[k];
    if (m.compaction) continue;
    const uses = m.blocks.filter((b) => b.type === 'tool_use');
    for (let j = (k === i ? callsBefore : uses.length) - 1; j >= 0; j--) {
      const b = uses[j];
      if (b.type === 'tool_use' && b.id === id) return b.name;
    }
  }
  return 'unknown';
}

function messageLedger(m: Message): MessageLedger {
  const said = instructionText(m);
  let calls = 0;
  const entries: LedgerEntry[] = [];
  for (const b of m.blocks) {
    if (b.type === 'tool_use') {
      calls++;
      const canon = canonicalTool(b.name);
      const at = { tool: b.name, toolUseId: b.id };
      const paths = inputPaths(b.name, b.input);
      if (canon === 'file_edit' || canon === 'file_write') {
        for (const p of paths) entries.push({ kind: 'filesModified', text: p, ...at });
        for (const d of editedText(b.input).matchAll(DECLARATION))
          if (DISTINCT.test(d[1])) entries.push({ kind: 'identifiers', text: d[1], ...at });
      } else if (canon === 'file_read') for (const p of paths) entries.push({ kind: 'filesRead', text: p, ...at });
      else if (canon === 'bash') {
        const o = b.input as Record<string, unknown> | null;
        const cmd = typeof b.input === 'string' ? b.input : o && typeof o === 'object' ? o.command : undefined;
        const text = Array.isArray(cmd) ? cmd.join(' ') : typeof cmd === 'string' ? cmd : '';
        const first = text
          .split('\n')
          .find((l) => l.trim() !== '')
          ?.trim();
        if (first) entries.push({ kind: 'commands', text: clip(first, 200), ...at });
      }
    } else if (b.type === 'tool_result' && b.isError && !m.synthetic) {
      const e = errorString(b);
      if (e) entries.push({ kind: 'errors', text: e, toolUseId: b.toolUseId, callsBefore: calls });
    }
  }
  // A short reply ("ja", "ok", "Hallo?") carries no instruction a summary could be probed for.
  const kept = said !== null && runeCount(said) >= MIN_INSTRUCTION ? clip(said, 600) : null;
  return kept === null && entries.length === 0 ? NOTHING : { said: kept, entries };
}

/**
 * The ledger of messages [from, to) of a thread. The todo list is the state at `to`: the newest todo/plan call
 * before it, even one before `from` (a list written earlier is still open). `sites`: the thread's todoSites (made
 * here when not given); `parts`: each message's entries kept from earlier ledgers (a fresh memo when not given);
 * `nothing`: the thread's messages known to add nothing (filled here).
 */
export function buildLedger(
  thread: Thread,
  from: number,
  to: number,
  sites: readonly number[] = todoSites(thread),
  parts: LedgerParts = new WeakMap(),
  nothing: AddsNothing = new Uint8Array(thread.messages.length),
): Ledger {
  const items = {
    filesModified: new Items(),
    filesRead: new Items(),
    commands: new Items(),
    errors: new Items(),
    identifiers: new Items(),
  };
  const instructions: LedgerItem[] = [];
  const partOf = (m: Message, i: number): MessageLedger => {
    let part = parts.get(m);
    if (!part) {
      part = messageLedger(m);
      if (part !== NOTHING) parts.set(m, part);
      else nothing[i] = 1;
    }
    return part;
  };
  for (let i = from; i < to && i < thread.messages.length; i++) {
    if (nothing[i] === 1) continue;
    const m = thread.messages[i];
    if (m.compaction) continue;
    const part = partOf(m, i);
    if (part.said !== null)
      instructions.push({ text: part.said, messageIndex: m.index, line: m.source.line, times: 1 });
    for (const e of part.entries) {
      if (e.kind === 'errors') {
        const tool = callTool(thread, from, i, e.callsBefore, e.toolUseId);
        items.errors.add(e.text, m, { tool, toolUseId: e.toolUseId });
      } else if (e.kind !== 'identifiers' || items.identifiers.list.length < MAX_IDENTIFIERS)
        items[e.kind].add(e.text, m, { tool: e.tool, toolUseId: e.toolUseId });
    }
  }
  const modified = items.filesModified;
  return {
    thread: thread.id,
    from,
    to,
    filesModified: modified.list,
    // Read but not modified (the skill's "read but unchanged" files; a modified file is listed once, above).
    filesRead: items.filesRead.list.filter((x) => !modified.has(x.text)),
    commands: items.commands.list,
    errors: items.errors.list,
    identifiers: items.identifiers.list,
    todos: todosAt(thread, to, sites),
    instructions: instructions.slice(-MAX_INSTRUCTIONS),
  };
}

/** The open items of the newest todo/plan call before message `to`. */
/** The positions of a thread's messages holding a todo list (a tool_use whose input has open todos), ascending: the ledger's
 *  todos are the last list before its end. Depends on the thread alone (kept per thread by the audit's memo). */
export function todoSites(thread: Thread): number[] {
  const out: number[] = [];
  thread.messages.forEach((m, i) => {
    if (m.role === 'assistant' && m.blocks.some((b) => b.type === 'tool_use' && openTodos(b.name, b.input) !== null))
      out.push(i);
  });
  return out;
}

function todosAt(thread: Thread, to: number, sites: readonly number[]): LedgerItem[] {
  const end = Math.min(to, thread.messages.length);
  const k = firstIndex(sites.length, (i) => sites[i] >= end) - 1;
  if (k < 0) return [];
  const m = thread.messages[sites[k]];
  for (let j = m.blocks.length - 1; j >= 0; j--) {
    const b = m.blocks[j];
    if (b.type !== 'tool_use') continue;
    const open = openTodos(b.name, b.input);
    if (open === null) continue;
    return open.map((text) => ({
      text,
      messageIndex: m.index,
      line: m.source.line,
      tool: b.name,
      toolUseId: b.id,
      times: 1,
    }));
  }
  return [];
}
