// Tierscope's own normalized bundle (`.tierscope.json`): what exports and share links carry.
// Export writes the normalized model as versioned JSON; import narrows every field from `unknown`
// (a hand-edited or corrupted bundle yields issues, never an exception) and round-trips exactly.
import { arr, isObject, num, str } from '../lib/json.ts';
import type {
  Block,
  FormatId,
  Message,
  ParseIssue,
  Request,
  Role,
  Thread,
  ThreadKind,
  Transcript,
  TranscriptMeta,
} from '../model/transcript.ts';
import { makeTranscript } from './thread.ts';
import type { FormatParser, ParseContext } from './types.ts';

export const BUNDLE_VERSION = 1;

export type Bundle = {
  tierscope: typeof BUNDLE_VERSION;
  format: FormatId;
  meta: TranscriptMeta;
  threads: Thread[];
  parseIssues: ParseIssue[];
};

/** The bundle object for a transcript (plain data; JSON.stringify it to write a file). */
export function toBundle(t: Transcript): Bundle {
  const format = t.format === 'tierscope' ? (t.meta.originalFormat ?? 'tierscope') : t.format;
  const { originalFormat: _drop, ...meta } = t.meta;
  return { tierscope: BUNDLE_VERSION, format, meta, threads: t.threads, parseIssues: t.parseIssues };
}

export function exportBundle(t: Transcript): string {
  return JSON.stringify(toBundle(t));
}

const ROLES = new Set<Role>(['system', 'user', 'assistant']);
const KINDS = new Set<ThreadKind>(['main', 'sidechain', 'side-call']);
const BLOCK_TYPES = new Set([
  'text',
  'thinking',
  'redacted_thinking',
  'image',
  'tool_use',
  'tool_result',
  'server_tool_use',
  'other',
]);

function narrowBlock(v: unknown, where: string, issue: (m: string) => void): Block {
  if (!isObject(v) || typeof v.type !== 'string' || !BLOCK_TYPES.has(v.type)) {
    issue(`${where}: not a known block; kept as "other"`);
    return { type: 'other', kind: 'invalid', raw: v };
  }
  if (v.type === 'tool_result') {
    const c = v.content;
    const content =
      typeof c === 'string' ? c : (arr(c) ?? []).map((b, i) => narrowBlock(b, `${where}.content[${i}]`, issue));
    return { type: 'tool_result', toolUseId: str(v.toolUseId) ?? '', content, isError: v.isError === true };
  }
  if (v.type === 'text' && typeof v.text !== 'string') {
    issue(`${where}: text block without text`);
    return { type: 'text', text: '' };
  }
  if (
    (v.type === 'tool_use' || v.type === 'server_tool_use') &&
    (typeof v.id !== 'string' || typeof v.name !== 'string')
  ) {
    issue(`${where}: ${v.type} without id or name`);
  }
  return v as Block;
}

function narrowMessage(v: unknown, i: number, where: string, issue: (m: string) => void): Message | undefined {
  if (!isObject(v) || typeof v.role !== 'string' || !ROLES.has(v.role as Role) || !Array.isArray(v.blocks)) {
    issue(`${where}: not a message (needs role and blocks); dropped`);
    return undefined;
  }
  const blocks = v.blocks.map((b, j) => narrowBlock(b, `${where}.blocks[${j}]`, issue));
  const source = isObject(v.source) ? v.source : {};
  const m = { ...v, index: i, role: v.role as Role, blocks, source: { ...source, line: num(source.line) ?? 0 } };
  return m as Message;
}

function narrowRequest(
  v: unknown,
  n: number,
  threadId: string,
  where: string,
  issue: (m: string) => void,
): Request | undefined {
  if (!isObject(v) || num(v.inputEnd) === undefined) {
    issue(`${where}: not a request (needs inputEnd); dropped`);
    return undefined;
  }
  const inputEnd = Math.max(0, Math.min(n, num(v.inputEnd) ?? 0));
  const r = { ...v, thread: threadId, inputEnd } as Request;
  return r;
}

function narrowThread(v: unknown, i: number, issue: (m: string) => void): Thread | undefined {
  const where = `threads[${i}]`;
  if (!isObject(v)) {
    issue(`${where}: not a thread; dropped`);
    return undefined;
  }
  const id = str(v.id) ?? `thread-${i}`;
  const kind = KINDS.has(v.kind as ThreadKind) ? (v.kind as ThreadKind) : 'main';
  const messages: Message[] = [];
  for (const [j, m] of (arr(v.messages) ?? []).entries()) {
    const nm = narrowMessage(m, messages.length, `${where}.messages[${j}]`, issue);
    if (nm) messages.push(nm);
  }
  const requests: Request[] = [];
  for (const [j, r] of (arr(v.requests) ?? []).entries()) {
    const nr = narrowRequest(r, messages.length, id, `${where}.requests[${j}]`, issue);
    if (nr) requests.push(nr);
  }
  const prefix = isObject(v.prefix) ? (v.prefix as Thread['prefix']) : {};
  const t: Thread = { ...(v as Partial<Thread>), id, kind, messages, requests, prefix };
  return t;
}

/** Narrow a parsed bundle document into a Transcript; problems are reported, never thrown. */
export function importBundle(doc: unknown, ctx: ParseContext): Transcript {
  const issue = (message: string) => ctx.issue({ line: 0, severity: 'warning', message });
  if (!isObject(doc)) {
    ctx.issue({ line: 0, severity: 'error', message: 'bundle is not a JSON object' });
    return makeTranscript('tierscope', {}, []);
  }
  if (doc.tierscope !== BUNDLE_VERSION) {
    ctx.issue({
      line: 0,
      severity: 'error',
      message: `bundle version ${String(doc.tierscope)} is not supported (this Tierscope reads version ${BUNDLE_VERSION})`,
    });
  }
  const threads: Thread[] = [];
  for (const [i, t] of (arr(doc.threads) ?? []).entries()) {
    const nt = narrowThread(t, i, issue);
    if (nt) threads.push(nt);
  }
  const meta: TranscriptMeta = isObject(doc.meta) ? { ...(doc.meta as TranscriptMeta) } : {};
  const original = str(doc.format);
  if (original && original !== 'tierscope') meta.originalFormat = original as FormatId;
  const parseIssues = (arr(doc.parseIssues) ?? []).filter(isObject) as ParseIssue[];
  return { format: 'tierscope', meta, threads, parseIssues: [...parseIssues] };
}

export const tierscopeParser: FormatParser = {
  id: 'tierscope',
  label: 'Tierscope bundle',
  sniff: (head) => isObject(head.doc) && 'tierscope' in head.doc && Array.isArray(head.doc.threads),
  parse: (input, ctx) => importBundle(input.doc(), ctx),
};
