// Claude Code session JSONL (SPEC §1.1, formats.md §1): a tree of lines linked by `parentUuid`. The main
// thread is the active branch; inline sidechains (1.0.x, `isSidechain`) and sub-agent files (2.x) become
// sidechain threads linked to the Task call that spawned them. Split assistant lines are one API response;
// compact_boundary + isCompactSummary lines are the agent's own compactions; unknown line types are counted.

import { pushAll } from '../lib/arrays.ts';
import { addCount, arr, isObject, type JsonObject, obj, str, toEpochMs, tryParseJson } from '../lib/json.ts';
import type { Line } from '../lib/lines.ts';
import type { Block, CompactedFrom, ParseIssue, Thread, TranscriptMeta } from '../model/transcript.ts';
import { anthropicContent } from './anthropic-blocks.ts';
import { renderAttachment } from './claude-code-attachments.ts';
import { responseKeyOf, withBatches } from './claude-code-batches.ts';
import { apartOf, type Billing, billingKey, billingOf } from './claude-code-billing.ts';
import {
  CC_TYPES,
  type Entry,
  type FileRead,
  isAttachment,
  isBoundary,
  isConversation,
  readFile,
} from './claude-code-entries.ts';
import {
  assembleThread,
  type BranchItem,
  buildTree,
  cyclesOf,
  pathTo,
  rootsOf,
  type Tree,
} from './claude-code-tree.ts';
import { jsonLines, jsonLinesOf } from './jsonl.ts';
import { bump, makeTranscript } from './thread.ts';
import type { FormatParser, ParseContext, ParseInput, SniffHead, SourceFile } from './types.ts';

const TASK_TOOLS = new Set(['Task', 'Agent']);
const INTERRUPTED = /^\[Request interrupted by user/;

/** Normalize a user/assistant entry (or a compact_boundary) into a branch item; undefined when it has no content. */
function toItem(e: Entry, skipped: Record<string, number>, billing: Billing, file?: string): BranchItem | undefined {
  if (isBoundary(e)) return { boundary: true, meta: boundaryMeta(e) };
  if (isAttachment(e)) return attachmentItem(e, skipped, file);
  const m = obj(e.o.message);
  const blocks = m ? anthropicContent(m.content) : [];
  if (blocks.length === 0) {
    bump(skipped, `${e.kind}:empty`);
    return undefined;
  }
  const role = e.kind === 'assistant' ? 'assistant' : 'user';
  const item: BranchItem = { line: e.no, role, blocks };
  if (e.hasUuid) item.uuid = e.id;
  if (file !== undefined) item.file = file;
  const time = toEpochMs(e.o.timestamp);
  if (time !== undefined) item.time = time;
  if (e.o.isMeta === true) item.meta = true;
  if (role === 'user') {
    if (e.o.isCompactSummary === true) item.compactSummary = true;
    if (isSyntheticResult(e.o, blocks)) item.synthetic = true;
    return item;
  }
  const model = str(m?.model);
  if (model !== undefined) item.model = model;
  if (model === '<synthetic>') {
    // Written by Claude Code itself (API error text, interruptions): a message, but no API response.
    item.notRequest = true;
    item.synthetic = true;
  }
  const responseKey = responseKeyOf(e.o);
  if (responseKey !== undefined) item.responseKey = responseKey;
  const requestId = str(e.o.requestId);
  if (requestId !== undefined) item.requestId = requestId;
  const key = billingKey(e, file);
  // A sidechain copy of a parent response (another requestId) is no call of this thread.
  if (billing.replays.has(key)) item.notRequest = true;
  const billed = billing.responses.get(key);
  if (billed?.usage) item.usage = billed.usage;
  if (billed?.cacheMiss !== undefined) item.cacheMiss = billed.cacheMiss;
  return item;
}

/** What a compact_boundary line recorded: its trigger (auto/manual) and the prompt tokens before compacting. */
function boundaryMeta(e: Entry): CompactedFrom {
  const c = obj(e.o.compactMetadata);
  const meta: CompactedFrom = { line: e.no };
  const trigger = str(c?.trigger);
  if (trigger !== undefined) meta.trigger = trigger;
  const pre = c?.preTokens;
  if (typeof pre === 'number' && Number.isFinite(pre) && pre >= 0) meta.preTokens = pre;
  return meta;
}

/** An attachment line: the reminder Claude Code sent for it (a meta user item), or a count of what it dropped. */
function attachmentItem(e: Entry, skipped: Record<string, number>, file?: string): BranchItem | undefined {
  const a = obj(e.o.attachment) ?? {};
  const rendered = renderAttachment(a);
  const type = str(a.type) ?? 'unknown';
  if (!rendered.sent) {
    bump(skipped, rendered.reason === 'not sent' ? `attachment:${type}` : `attachment:${type} (${rendered.reason})`);
    return undefined;
  }
  const item: BranchItem = {
    line: e.no,
    role: 'user',
    blocks: [{ type: 'text', text: rendered.text }],
    attachment: true,
  };
  item.meta = true;
  if (file !== undefined) item.file = file;
  const time = toEpochMs(e.o.timestamp);
  if (time !== undefined) item.time = time;
  return item;
}

/** A tool result the harness wrote instead of the tool: an interruption marker, or an interrupted run. */
function isSyntheticResult(o: JsonObject, blocks: Block[]): boolean {
  const tur = o.toolUseResult;
  if (typeof tur === 'string' && INTERRUPTED.test(tur)) return true;
  if (isObject(tur) && tur.interrupted === true) return true;
  return blocks.some((b) => {
    if (b.type !== 'tool_result') return false;
    const first = typeof b.content === 'string' ? b.content : b.content.find((x) => x.type === 'text');
    return INTERRUPTED.test(typeof first === 'string' ? first : first?.type === 'text' ? first.text : '');
  });
}

/**
 * The leaf of the active branch among eligible entries: the newest conversation line, unless a summary or
 * last-prompt line written after it points (leafUuid) to a line of this file — the leaf Claude Code recorded.
 */
function pickLeaf(r: FileRead, eligible: (e: Entry) => boolean): number {
  let leaf = -1;
  r.entries.forEach((e, i) => {
    if (isConversation(e) && eligible(e)) leaf = i;
  });
  const after = leaf >= 0 ? r.entries[leaf].no : 0;
  const marks = r.leafMarks.filter((m) => m.no > after);
  if (marks.length === 0) return leaf;
  const latest = new Map(r.entries.map((e, i) => [e.id, i]));
  for (const mark of marks) {
    const i = latest.get(mark.leaf);
    if (i !== undefined && eligible(r.entries[i])) leaf = i;
  }
  return leaf;
}

/**
 * Items of a path (parallel batches gathered in), remembering which entries were placed in a thread. Made one
 * at a time as the thread is assembled: a million-line branch is never held twice over (items and messages).
 */
function* branchItems(
  r: FileRead,
  tree: Tree,
  path: number[],
  placed: Set<number>,
  skipped: Record<string, number>,
  billing: Billing,
  file?: string,
): Generator<BranchItem> {
  for (const i of withBatches(r.entries, tree.parents, path)) {
    const e = r.entries[i];
    if (!isConversation(e) && !isBoundary(e) && !isAttachment(e)) continue;
    placed.add(i);
    const item = toItem(e, skipped, billing, file);
    if (item) yield item;
  }
}

/** Count conversation lines (and their attachments) that are on no active branch (rewound or superseded turns). */
function countOffBranch(r: FileRead, placed: Set<number>, skipped: Record<string, number>) {
  r.entries.forEach((e, i) => {
    if (!placed.has(i) && (isConversation(e) || isBoundary(e) || isAttachment(e))) bump(skipped, 'inactive-branch');
  });
}

/**
 * The path to the leaf, then the attachments written below the leaf after it (through non-conversation lines).
 * No request carried them (the session ended first), but they are in the log, so they stay as the thread's last
 * (meta) message rather than vanish into a count.
 */
function activePath(r: FileRead, tree: Tree, leaf: number): number[] {
  if (leaf < 0) return [];
  const path = pathTo(tree, leaf);
  for (let i = leaf + 1; i < r.entries.length; i++) {
    if (isAttachment(r.entries[i]) && anchorOf(r, tree, i) === leaf) path.push(i);
  }
  return path;
}

/** The nearest conversation or boundary line above line i (through non-conversation lines), or -1. */
function anchorOf(r: FileRead, tree: Tree, i: number): number {
  const seen = new Set<number>();
  for (let p = tree.parents[i]; p >= 0 && !seen.has(p); p = tree.parents[p]) {
    seen.add(p);
    const e = r.entries[p];
    if (isConversation(e) || isBoundary(e)) return p;
  }
  return -1;
}

/**
 * The file's tree, with duplicated uuids reported. A parentUuid that names no line of the file, or a
 * compact_boundary without a logicalParentUuid, is bridged to the previous line of the same chain kind so one bad
 * line does not cut the conversation in two: a parentUuid's bridge is a note when every line of the file was read
 * (the link points into another file — a resumed or continued session's — and nothing was lost), a warning when a
 * line could not be read (the parent may have been on it); a boundary without its logical parent is a warning.
 */
function treeOf(r: FileRead, ctx: ParseContext, file?: string, lostLines = true): Tree {
  const tree = buildTree(r.entries);
  const at = file ? { file } : {};
  for (const [id, uses] of tree.duplicates) {
    const first = r.entries[uses[0]].no;
    const message = `uuid "${id}" is used by ${uses.length} lines (first on line ${first}); each parentUuid resolves to the nearest earlier one`;
    ctx.issue({ line: first, severity: 'warning', message, ...at });
  }
  const previous: Record<string, number> = {};
  const before: (number | undefined)[] = [];
  r.entries.forEach((e, i) => {
    const chain = String(e.sidechain);
    const j = previous[chain];
    previous[chain] = i;
    before.push(j);
    if ((e.parent === undefined && !isBoundary(e)) || tree.parents[i] >= 0 || j === undefined) return;
    tree.parents[i] = j;
    const what =
      e.parent === undefined
        ? 'compact_boundary has no logicalParentUuid'
        : `parentUuid "${e.parent}" names no other line of this file`;
    const harmless = !lostLines && e.parent !== undefined;
    const why = harmless ? ' (nothing was lost: no line of the file is unreadable; harmless)' : '';
    const message = `${what}; linked to the previous line ${r.entries[j].no}${why}`;
    ctx.issue({ line: e.no, severity: harmless ? 'info' : 'warning', message, ...at });
  });
  breakCycles(r, tree, before, ctx, file);
  return tree;
}

/**
 * parentUuid links that lead back to themselves would cut the lines above the loop out of every branch. Each
 * cycle is cut at its forward link (a parent later in the log) and that line bridged to the previous line of its
 * chain, with a warning naming the lines; a bridge that closes another cycle makes the line a root instead.
 */
function breakCycles(r: FileRead, tree: Tree, before: (number | undefined)[], ctx: ParseContext, file?: string) {
  const at = file ? { file } : {};
  for (const cycle of cyclesOf(tree.parents)) {
    const cut = cycle[0];
    const e = r.entries[cut];
    const j = before[cut];
    tree.parents[cut] = j ?? -1;
    const nos = cycle.map((n) => r.entries[n].no);
    const loop = [...nos.slice(0, 8), ...(nos.length > 8 ? [`… (${nos.length} lines)`] : [e.no])].join(' → ');
    const link = e.parent === undefined ? 'its link' : `parentUuid "${e.parent}"`;
    const kept = j === undefined ? 'it starts its own branch' : `linked to the previous line ${r.entries[j].no}`;
    const message = `${link} makes a cycle (line ${loop}: each line's parent is the next); cut on line ${e.no} and ${kept}`;
    ctx.issue({ line: e.no, severity: 'warning', message, ...at });
  }
  // A bridge can close a new cycle only in a log built to do so: those lines become roots (no new cycle possible).
  for (const cycle of cyclesOf(tree.parents)) tree.parents[cycle[0]] = -1;
}

/** Lines of a companion file, reporting what the loader reports for the main file (bad UTF-8, over-long lines). */
function* fileLines(f: SourceFile, input: ParseInput, ctx: ParseContext): Generator<Line> {
  for (const line of input.extraLines(f)) {
    const at = { line: line.no, file: f.name, byteOffset: line.badUtf8At ?? line.byteOffset };
    if (line.badUtf8At !== undefined)
      ctx.issue({ ...at, severity: 'warning', message: 'invalid UTF-8; decoded with replacement characters' });
    if (line.tooLong) ctx.issue({ ...at, severity: 'error', message: 'line over the line-size limit; skipped' });
    yield line;
  }
}

type Side = { thread: Thread; agentId?: string };

/** Titles from `subagents/agent-*.meta.json` companions ({agentType, description}), by the agent file's name
 *  without extension: "description (agentType)". A file that is not such JSON is reported and ignored. */
function subagentMetas(input: ParseInput, ctx: ParseContext): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of input.extra) {
    if (!f.name.endsWith('.meta.json')) continue;
    const text = [...input.extraLines(f)].map((l) => l.text).join('\n');
    const parsed = tryParseJson(text);
    const v = parsed.ok ? parsed.value : undefined;
    const description = isObject(v) ? str(v.description) : undefined;
    const type = isObject(v) ? str(v.agentType) : undefined;
    if (!description && !type) {
      ctx.issue({
        line: 1,
        file: f.name,
        severity: 'warning',
        message: 'sub-agent .meta.json has no agentType or description; ignored',
      });
      continue;
    }
    const title = description && type ? `${description} (${type})` : (description ?? type ?? '');
    out.set(f.name.replace(/\.meta\.json$/, ''), title);
  }
  return out;
}

/** A sub-agent file of this session, read with its tree and active branch (threads are built once billing is
 *  known); its issues are reported as it is read, its skipped lines are kept for when its thread is built. */
type ExtraRead = { name: string; r: FileRead; tree: Tree; path: number[]; local: Record<string, number> };

/** The session id `readFile` finds in a file (its first user or assistant line's string `sessionId`), read only up
 *  to that line: a 2.0-era project folder holds every session's `agent-*.jsonl` side by side, and each session is
 *  handed all of them (issue 30: a scan parsed N sessions × M agent files whole to keep a few). */
function firstSessionId(f: SourceFile, input: ParseInput): string | undefined {
  const quiet: ParseContext = { issue: () => {} };
  for (const { value: o } of jsonLinesOf(fileLines(f, input, quiet), quiet, f.name)) {
    if (!isObject(o) || (o.type !== 'user' && o.type !== 'assistant')) continue;
    const id = str(o.sessionId);
    if (id !== undefined) return id;
  }
  return undefined;
}

/** Read the sub-agent files (input.extra): `subagents/` files, and sibling `agent-*.jsonl` only with our sessionId. */
function readExtras(input: ParseInput, sessionId: string | undefined, ctx: ParseContext): ExtraRead[] {
  const out: ExtraRead[] = [];
  for (const f of input.extra) {
    if (f.name.endsWith('.meta.json')) continue;
    const nested = /[/\\]subagents[/\\]/.test(f.name);
    // Another session's agent: nothing of it is read further (its issues and counts were never reported).
    if (!nested && (sessionId === undefined || firstSessionId(f, input) !== sessionId)) continue;
    const issues: ParseIssue[] = [];
    const local: Record<string, number> = {};
    const fctx: ParseContext = { issue: (i) => issues.push(i) };
    const r = readFile(jsonLinesOf(fileLines(f, input, fctx), fctx, f.name), fctx, local, f.name);
    const tree = treeOf(
      r,
      fctx,
      f.name,
      issues.some((i) => i.severity === 'error'),
    );
    const leaf = pickLeaf(r, () => true);
    out.push({ name: f.name, r, tree, path: activePath(r, tree, leaf), local });
    for (const i of issues) ctx.issue(i);
  }
  return out;
}

/** Each sub-agent file becomes a sidechain thread (titled from its `.meta.json`). */
function extraThreads(
  extras: readonly ExtraRead[],
  metas: Map<string, string>,
  billing: Billing,
  skipped: Record<string, number>,
  owners: Owner[],
): Side[] {
  const sides: Side[] = [];
  for (const x of extras) {
    const placed = new Set<number>();
    const items = [...branchItems(x.r, x.tree, x.path, placed, x.local, billing, x.name)]; // placed, before the count
    countOffBranch(x.r, placed, x.local);
    const agentId = x.r.agentId ?? /agent-([^/\\]+)\.jsonl$/.exec(x.name)?.[1];
    const thread = assembleThread(`agent:${agentId ?? x.name}`, 'sidechain', items);
    const title = metas.get(x.name.replace(/\.jsonl$/, ''));
    if (title) thread.title = title;
    sides.push({ thread, agentId });
    owners.push({ r: x.r, placed, file: x.name, owner: () => thread });
    for (const [k, n] of Object.entries(x.local)) addCount(skipped, k, n);
  }
  return sides;
}

/** Which thread a file's off-branch responses belong to, and which of its lines the threads hold. */
type Owner = { r: FileRead; placed: Set<number>; file?: string; owner: (i: number) => Thread };

/** Billed responses no thread holds (rewound branches), listed on the thread that owns their lines. */
function attachApart(billing: Billing, owners: readonly Owner[]): void {
  const held = new Set<string>();
  for (const o of owners)
    for (const i of o.placed) if (o.r.entries[i].kind === 'assistant') held.add(billingKey(o.r.entries[i], o.file));
  const keys = new Map<Thread, string[]>();
  for (const o of owners)
    o.r.entries.forEach((e, i) => {
      if (e.kind !== 'assistant' || o.placed.has(i)) return;
      const t = o.owner(i);
      const list = keys.get(t);
      if (list) list.push(billingKey(e, o.file));
      else keys.set(t, [billingKey(e, o.file)]);
    });
  for (const [t, list] of keys) {
    const apart = apartOf(billing, list, held);
    if (apart.length > 0) t.billedApart = apart;
  }
}

/** Text of a thread's first user message (a sub-agent's prompt). */
function promptOf(t: Thread): string | undefined {
  const m = t.messages.find((x) => x.role === 'user');
  return m?.blocks.map((b) => (b.type === 'text' ? b.text : '')).join('');
}

/**
 * Link sidechains to the main thread's Task calls: by the agentId a Task result names (2.x), else by the
 * sub-agent's prompt, which Claude Code copies verbatim from the Task input (1.0.x inline sidechains).
 */
function linkSidechains(main: Thread, sides: Side[], agentResults: Map<string, string>) {
  const tasks: { id: string; prompt?: string; description?: string }[] = [];
  for (const m of main.messages) {
    for (const b of m.blocks) {
      if (b.type !== 'tool_use' || !TASK_TOOLS.has(b.name)) continue;
      const input = obj(b.input);
      tasks.push({ id: b.id, prompt: str(input?.prompt), description: str(input?.description) });
    }
  }
  const used = new Set<number>();
  for (const side of sides) {
    const byAgent = side.agentId !== undefined ? agentResults.get(side.agentId) : undefined;
    const prompt = promptOf(side.thread)?.trim();
    const k = tasks.findIndex(
      (t, i) => !used.has(i) && t.id !== '' && (byAgent ? t.id === byAgent : t.prompt?.trim() === prompt),
    );
    if (k < 0) continue;
    used.add(k);
    side.thread.parentToolUseId = tasks[k].id;
    // A title from the sub-agent's .meta.json wins over the Task call's description.
    const title = tasks[k].description;
    if (title !== undefined && side.thread.title === undefined) side.thread.title = title;
  }
}

/** agentId → tool_use id, from Task results on the main branch that name their sub-agent (2.x). */
function agentResultsOf(r: FileRead, path: number[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const i of path) {
    const o = r.entries[i].o;
    const agentId = str(obj(o.toolUseResult)?.agentId);
    const result = arr(obj(o.message)?.content)?.find((b) => isObject(b) && b.type === 'tool_result');
    const id = isObject(result) ? str(result.tool_use_id) : undefined;
    if (agentId && id) out.set(agentId, id);
  }
  return out;
}

/** Tool results Claude Code itself rewrote before sending (2.1): large outputs saved to `tool-results/` and sent
 *  as a `<persisted-output>` preview, and old results it cleared. The log holds what was sent; these are counted
 *  so the analyses can tell the agent's own spills and clearings from Tierscope's. */
function agentRewrites(threads: readonly Thread[]): { persisted: number; cleared: number } {
  let persisted = 0;
  let cleared = 0;
  for (const th of threads) {
    for (const m of th.messages) {
      for (const b of m.blocks) {
        if (b.type !== 'tool_result') continue;
        const first = typeof b.content === 'string' ? b.content : b.content.find((x) => x.type === 'text');
        const text = typeof first === 'string' ? first : first?.type === 'text' ? first.text : '';
        if (text.startsWith('<persisted-output>')) persisted++;
        else if (text === '[Old tool result content cleared]') cleared++;
      }
    }
  }
  return { persisted, cleared };
}

function titleOf(r: FileRead): string | undefined {
  const ids = new Set(r.entries.map((e) => e.id));
  const own = r.summaries.filter((s) => s.leaf !== undefined && ids.has(s.leaf)).pop();
  // A summary pointing to another session's leaf is still the only title Claude Code wrote into this file.
  return r.customTitle ?? own?.text ?? r.aiTitle ?? r.summaries[r.summaries.length - 1]?.text;
}

function looksLikeClaudeCode(v: unknown): boolean {
  if (!isObject(v) || typeof v.type !== 'string' || !CC_TYPES.has(v.type)) return false;
  if (v.type === 'summary') return typeof v.leafUuid === 'string';
  if (v.type === 'file-history-snapshot') return typeof v.messageId === 'string' && isObject(v.snapshot);
  // user/assistant/system/attachment/progress share the envelope: uuid, parentUuid (may be null), sessionId.
  if (typeof v.uuid !== 'string' || !('parentUuid' in v) || typeof v.sessionId !== 'string') return false;
  return v.type === 'user' || v.type === 'assistant' ? isObject(v.message) : true;
}

export const claudeCodeParser: FormatParser = {
  id: 'claude-code',
  label: 'Claude Code session JSONL',
  sniff: (head: SniffHead) => head.lines.some(looksLikeClaudeCode),
  parse: (input, ctx) => {
    const skipped: Record<string, number> = {};
    let unreadable = false;
    const read: ParseContext = {
      ...ctx,
      issue: (i) => {
        if (i.severity === 'error') unreadable = true;
        ctx.issue(i);
      },
    };
    const r = readFile(jsonLines(input, read), read, skipped);
    const tree = treeOf(r, ctx, undefined, unreadable);
    // A sub-agent file opened on its own (2.0 `agent-*.jsonl`: every line isSidechain) has no parent
    // conversation in it; its own chain is the conversation to inspect, so it loads as the main thread.
    const agentFile = r.entries.some(isConversation) && r.entries.filter(isConversation).every((e) => e.sidechain);
    const inMain = (e: Entry) => agentFile || !e.sidechain;
    const leaf = pickLeaf(r, inMain);
    const mainPath = activePath(r, tree, leaf);
    const metas = subagentMetas(input, ctx);
    const extras = readExtras(input, r.sessionId, ctx);
    const billing = billingOf([{ lines: r.entries }, ...extras.map((x) => ({ file: x.name, lines: x.r.entries }))]);
    for (const [what, m] of billing.modifiers)
      ctx.issue({
        line: m.line,
        ...(m.file !== undefined ? { file: m.file } : {}),
        severity: 'info',
        message: `${m.count} response(s) billed with usage ${what}: list prices do not carry it, so their dollars are the standard price of their tokens (first at this line)`,
      });
    const placed = new Set<number>();
    const main = assembleThread('main', 'main', branchItems(r, tree, mainPath, placed, skipped, billing));
    const sides: Side[] = [];
    // Inline sidechains (1.0.x): group by the root of each parentUuid chain; each group's newest line is its leaf.
    // In a sub-agent file the main thread's own chain is not one (its off-branch lines are rewound turns), but
    // another chain is: a file whose only main-chain line was lost must not lose its sidechains with it.
    const roots = rootsOf(tree);
    const mainRoot = agentFile ? mainPath[0] : undefined;
    const groups = new Map<number, number>();
    r.entries.forEach((e, i) => {
      if (e.sidechain && isConversation(e) && !placed.has(i) && roots[i] !== mainRoot) groups.set(roots[i], i);
    });
    const byRoot = new Map<number, Thread>();
    for (const [root, last] of groups) {
      const items = branchItems(r, tree, activePath(r, tree, last), placed, skipped, billing);
      const agentId = str(r.entries[root].o.agentId);
      const thread = assembleThread(`sidechain:${r.entries[root].id}`, 'sidechain', items);
      byRoot.set(root, thread);
      sides.push({ thread, agentId });
    }
    countOffBranch(r, placed, skipped);
    const owners: Owner[] = [{ r, placed, owner: (i) => (r.entries[i].sidechain && byRoot.get(roots[i])) || main }];
    pushAll(sides, extraThreads(extras, metas, billing, skipped, owners));
    attachApart(billing, owners);
    linkSidechains(main, sides, agentResultsOf(r, mainPath));
    const ids = new Set(['main']);
    for (const { thread } of sides) {
      // Thread ids must be unique (duplicated uuids, two files with one agentId): suffix repeats.
      let id = thread.id;
      for (let n = 2; ids.has(id); n++) id = `${thread.id}#${n}`;
      ids.add(id);
      thread.id = id;
    }
    const meta: TranscriptMeta = {};
    if (r.sessionId !== undefined) meta.sessionId = r.sessionId;
    if (r.version !== undefined) meta.version = r.version;
    // The sub-agent files read as threads: a folder scan counts another session's agent files, and those whose
    // session file is missing, apart (sessions/scan.ts).
    if (extras.length > 0) meta.attached = extras.map((x) => x.name);
    const title = titleOf(r);
    if (title) meta.title = title;
    if (Object.keys(skipped).length > 0) meta.skipped = skipped;
    const rewritten = agentRewrites([main, ...sides.map((x) => x.thread)]);
    if (rewritten.persisted > 0) meta.extra = { ...meta.extra, persistedOutputs: rewritten.persisted };
    if (rewritten.cleared > 0) meta.extra = { ...meta.extra, clearedByAgent: rewritten.cleared };
    return makeTranscript('claude-code', meta, [main, ...sides.map((s) => s.thread)]);
  },
};
