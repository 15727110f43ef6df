// The first step of reading a Claude Code session file (claude-code.ts): each line into a tree entry (its uuid,
// parent, kind and the fields the rest of the parse reads, slimmed so a million held lines stay small) and the
// file's metadata (summaries, titles, leaf marks, session id, version), with a warning for each malformed line.

import { arr, isObject, type JsonObject, str } from '../lib/json.ts';
import type { LineNumber } from '../model/units.ts';
import type { JsonLine } from './jsonl.ts';
import { bump } from './thread.ts';
import type { ParseContext } from './types.ts';

/** A line that takes part in the tree: `id` is its uuid, or a stand-in for a user/assistant line without one. */
export type Entry = {
  no: LineNumber;
  kind: string;
  id: string;
  hasUuid: boolean;
  parent?: string;
  sidechain: boolean;
  o: JsonObject;
};

/** What one file contributes before threads are built. */
export type FileRead = {
  entries: Entry[];
  /** `leafUuid` pointers of summary / last-prompt lines, in file order. */
  leafMarks: { no: LineNumber; leaf: string }[];
  summaries: { text: string; leaf?: string }[];
  customTitle?: string;
  aiTitle?: string;
  sessionId?: string;
  version?: string;
  agentId?: string;
};

/** The line types a Claude Code session file holds (what detection looks for). */
export const CC_TYPES = new Set([
  'user',
  'assistant',
  'system',
  'summary',
  'file-history-snapshot',
  'attachment',
  'progress',
]);

export const isConversation = (e: Entry) => e.kind === 'user' || e.kind === 'assistant';
export const isBoundary = (e: Entry) => e.kind === 'system:compact_boundary';
export const isAttachment = (e: Entry) => e.kind === 'attachment';

/** Read a file's lines into tree entries and metadata; non-conversation lines are counted in `skipped`. */
export function readFile(lines: Iterable<JsonLine>, ctx: ParseContext, skipped: Record<string, number>, file?: string) {
  const r: FileRead = { entries: [], leafMarks: [], summaries: [] };
  const warn = (line: LineNumber, message: string) =>
    ctx.issue({ line, severity: 'warning', message, ...(file ? { file } : {}) });
  for (const { line, value: o } of lines) {
    if (!isObject(o)) {
      warn(line.no, 'line is not a JSON object; skipped');
      continue;
    }
    const type = str(o.type);
    if (type === undefined) {
      warn(line.no, 'line has no string "type"; skipped');
      continue;
    }
    const leaf = str(o.leafUuid);
    if ((type === 'summary' || type === 'last-prompt') && leaf) r.leafMarks.push({ no: line.no, leaf });
    if (type === 'summary') r.summaries.push({ text: str(o.summary) ?? '', ...(leaf ? { leaf } : {}) });
    if (type === 'custom-title') r.customTitle = str(o.customTitle) ?? r.customTitle;
    if (type === 'ai-title') r.aiTitle = str(o.aiTitle) ?? r.aiTitle;
    if (type === 'summary' || type === 'last-prompt' || type === 'custom-title' || type === 'ai-title') continue;
    const kind = type === 'system' ? `system:${str(o.subtype) ?? 'unknown'}` : type;
    const conversation = type === 'user' || type === 'assistant';
    // Attachments are counted where the branch is assembled: some reach the model, some do not.
    if (!conversation && kind !== 'system:compact_boundary' && kind !== 'attachment') bump(skipped, kind);
    if (conversation) checkConversationLine(o, line.no, warn, r);
    r.agentId ??= str(o.agentId);
    const uuid = str(o.uuid);
    if (uuid === undefined) {
      if (!conversation && kind !== 'system:compact_boundary') continue;
      warn(line.no, `${kind} line has no string "uuid"; it is placed by its parentUuid only`);
    }
    const p = o.parentUuid;
    if (p !== undefined && p !== null && typeof p !== 'string')
      warn(line.no, '"parentUuid" is not a string; treated as a root');
    const parent =
      typeof p === 'string' ? p : kind === 'system:compact_boundary' ? str(o.logicalParentUuid) : undefined;
    r.entries.push({
      no: line.no,
      kind,
      id: uuid ?? `#${line.no}`,
      hasUuid: uuid !== undefined,
      ...(parent !== undefined ? { parent } : {}),
      sidechain: o.isSidechain === true,
      o: slim(o),
    });
  }
  return r;
}

/** The fields of a line the rest of the parse reads (items, billing, batches, attachments, sub-agent links). */
const KEPT = [
  'message',
  'timestamp',
  'isMeta',
  'isCompactSummary',
  'toolUseResult',
  'requestId',
  'compactMetadata',
  'attachment',
  'agentId',
] as const;
const KEPT_MESSAGE = ['id', 'model', 'content', 'usage', 'diagnostics'] as const;

/**
 * A line as the entries hold it until the threads are built: without its envelope (session id, cwd, version,
 * branch, user type, uuids: read already), its message without role and type, and a tool result's copy of the
 * tool output (`toolUseResult`) cut to what is read of it. Every line is held until then: a million of them
 * held whole were ~0.5 KB each of the parse's peak.
 */
function slim(o: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const k of KEPT) if (Object.hasOwn(o, k)) out[k] = o[k];
  const m = out.message;
  if (isObject(m)) {
    const message: JsonObject = {};
    for (const k of KEPT_MESSAGE) if (Object.hasOwn(m, k)) message[k] = m[k];
    out.message = message;
  }
  const tur = out.toolUseResult;
  if (isObject(tur)) {
    const kept: JsonObject = {};
    if (Object.hasOwn(tur, 'interrupted')) kept.interrupted = tur.interrupted;
    if (Object.hasOwn(tur, 'agentId')) kept.agentId = tur.agentId;
    out.toolUseResult = kept;
  }
  return out;
}

/** Warnings for a user/assistant line with missing or mistyped fields; collects session id and version. */
function checkConversationLine(o: JsonObject, no: LineNumber, warn: (l: LineNumber, m: string) => void, r: FileRead) {
  r.sessionId ??= str(o.sessionId);
  const v = str(o.version);
  if (v && /^\d+\.\d+/.test(v)) r.version = v;
  const m = o.message;
  if (!isObject(m)) return warn(no, `${o.type} line has no "message" object; skipped`);
  const c = m.content;
  if (typeof c !== 'string' && !Array.isArray(c)) return warn(no, '"message.content" is neither a string nor an array');
  for (const b of arr(c) ?? []) {
    if (!isObject(b)) continue;
    if (b.type === 'tool_use' && typeof b.id !== 'string') warn(no, 'tool_use block has no "id"');
    if (b.type === 'tool_result' && typeof b.tool_use_id !== 'string')
      warn(no, 'tool_result block has no "tool_use_id"');
  }
}
