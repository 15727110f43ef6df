// Causes of observed cache breaks in session logs (Claude Code, Codex), from evidence a reader can check in the
// log (issue 16). The log lacks the exact request, so each cause rests on what it does hold: the usage of both
// requests (sizes, reads, writes), what was appended between them (lines), memory-file edits, tool-schema
// loads, the date, and the provider's documented rules (Anthropic serves the longest prefix cached at a
// breakpoint, looking back at most 20 blocks; OpenAI caches best effort in 128-token steps). A break nothing
// supports stays `unexplained` — the evidence lists what was checked, never a guess.

import type { CacheApi } from '../catalog/cache-rules.ts';
import { isDeepSeek } from '../catalog/cache-rules.ts';
import { pushAll } from '../lib/arrays.ts';
import { grouped } from '../lib/digits.ts';
import type { Message, Request, Thread } from '../model/transcript.ts';
import { isPrompt } from '../replay/transcript.ts';
import { type Calibration, observedPrompt } from '../tokens/calibration.ts';
import { olderEntry, reasoningDrop, sameEntry } from './best-effort-evidence.ts';
import type { BreakCause } from './break-causes.ts';
import type { Divergence } from './cache-divergence.ts';

/** Anthropic looks back at most this many blocks from a breakpoint for an earlier cache entry. */
const LOOKBACK_BLOCKS = 20;
/** Memory files the agents send at the start of every conversation (Claude Code, Codex). */
const MEMORY_FILE = /(^|[/\\])(CLAUDE(\.local)?|AGENTS)\.md$/i;
const EDIT_TOOLS = /^(Edit|MultiEdit|Write|NotebookEdit|file_edit|file_write|str_replace_based_edit_tool)$/;
const DEFERRED_TOOLS = 'The following deferred tools are now available';

export const fmtTok = (n: number) => grouped(Math.round(n));
const at = (m: Message) => `line ${m.source.line}`;

/** The source line of block `j` of `m`: split responses (Claude Code) hold one block per line; else the range. */
function blockAt(m: Message, j: number): string {
  const all = [m.source.line, ...(m.source.lines ?? [])];
  if (all.length === m.blocks.length) return `line ${all[j]}`;
  return all.length > 1 ? `lines ${all[0]}–${all[all.length - 1]}` : at(m);
}
const lineOf = (r: Request) => (r.line !== undefined ? ` (line ${r.line})` : '');

export type SessionCause = { cause: BreakCause; detail: string; evidence: string[] };

/** What the log shows between the reference request and the break. */
type Facts = {
  appended: readonly Message[];
  appendedBlocks: number;
  memoryEdits: string[];
  toolLoads: string[];
  /** The UTC dates of both requests when they differ. */
  dates?: [string, string];
  newPrompt?: Message;
};

/** A memory file an edit of `m` changed (not an edit that failed), with the line of that edit. */
function editedPath(m: Message, results: Map<string, boolean>): string | undefined {
  for (const [j, b] of m.blocks.entries()) {
    if (b.type !== 'tool_use' || results.get(b.id) === true) continue;
    const input = b.input as { file_path?: unknown; path?: unknown; input?: unknown } | null;
    const path = typeof input?.file_path === 'string' ? input.file_path : input?.path;
    if (EDIT_TOOLS.test(b.name) && typeof path === 'string' && MEMORY_FILE.test(path))
      return `${path} edited at ${blockAt(m, j)}`;
    // Codex's apply_patch names the files in its patch text.
    const patch = typeof input?.input === 'string' ? input.input : typeof b.input === 'string' ? b.input : '';
    const hit = /\*\*\* (?:Add|Update) File: (\S*(?:CLAUDE|AGENTS)\.md)/i.exec(patch);
    if (b.name === 'apply_patch' && hit) return `${hit[1]} edited at ${blockAt(m, j)}`;
  }
  return undefined;
}

function factsBetween(t: Thread, ref: Request, r: Request): Facts {
  const from = Math.min(ref.inputEnd, r.inputEnd);
  const appended = t.messages.slice(from, r.inputEnd);
  const newPrompt = appended.find(isPrompt);
  // Memory edits count from the previous user prompt when this request starts a new one (the agents read memory
  // files again for a new prompt), else from the reference request.
  let scanFrom = from;
  if (newPrompt) {
    for (let i = from - 1; i >= 0; i--)
      if (isPrompt(t.messages[i])) {
        scanFrom = i;
        break;
      }
  }
  const errors = new Map<string, boolean>();
  for (const m of t.messages.slice(scanFrom, r.inputEnd))
    for (const b of m.blocks) if (b.type === 'tool_result') errors.set(b.toolUseId, b.isError);
  const memoryEdits: string[] = [];
  for (const m of t.messages.slice(scanFrom, r.inputEnd)) {
    const p = editedPath(m, errors);
    if (p) memoryEdits.push(p);
  }
  const toolLoads: string[] = [];
  for (const m of appended) {
    const loads = m.blocks.some(
      (b) =>
        (b.type === 'tool_result' &&
          typeof b.content !== 'string' &&
          b.content.some((x) => x.type === 'other' && x.kind === 'tool_reference')) ||
        (b.type === 'text' && b.text.includes(DEFERRED_TOOLS)),
    );
    if (loads) toolLoads.push(at(m));
  }
  const facts: Facts = {
    appended,
    appendedBlocks: appended.reduce((n, m) => n + m.blocks.length, 0),
    memoryEdits,
    toolLoads,
  };
  if (newPrompt) facts.newPrompt = newPrompt;
  const day = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString().slice(0, 10));
  const a = day(ref.responseTime ?? ref.time);
  const b = day(r.time);
  if (a && b && a !== b) facts.dates = [a, b];
  return facts;
}

/** How the prompt's growth compares with what the appended messages account for (calibrated estimate). */
type Shape = { growth: number; appended: number; miss: number; unexplained: boolean; line: string };

function shapeOf(cal: Calibration, ref: Request, r: Request, refPrompt: number, prompt: number): Shape | undefined {
  const a = cal.requests[ref.index];
  const b = cal.requests[r.index];
  // An input that lost counted content (not what an append does; Codex's earlier reasoning is `dropped` apart).
  const whole = (e: typeof a) => e.counted + (e.dropped ?? 0);
  if (!a || !b || a.segment !== b.segment || whole(b) < whole(a)) return undefined;
  const appended = cal.factor * (b.counted - a.counted) + (b.framing - a.framing) + (b.hidden - a.hidden);
  const growth = prompt - refPrompt;
  const miss = growth - appended;
  const unexplained = Math.abs(miss) > Math.max(250, 0.015 * prompt);
  const sign = (n: number) => `${n >= 0 ? '+' : '−'}${fmtTok(Math.abs(n))}`;
  const line = !unexplained
    ? `the prompt ${growth >= 0 ? 'grew' : 'changed'} by ${sign(growth)} tokens (observed); the appended messages account for ≈${sign(appended)} (estimated): nothing earlier changed size`
    : growth < 0 && appended >= 0
      ? `the prompt shrank by ${fmtTok(-growth)} tokens (observed) although the log only appended messages (≈${sign(appended)} tokens, estimated): ≈${fmtTok(-miss)} tokens of earlier content were removed or rewritten`
      : `the prompt changed by ${sign(growth)} tokens (observed) while the appended messages account for ≈${sign(appended)} (estimated): ≈${fmtTok(Math.abs(miss))} tokens ${miss > 0 ? 'that the log does not hold were added' : 'of earlier content were removed'}`;
  return { growth, appended, miss, unexplained, line };
}

/** The first message of `a` that `b` does not repeat (a.length when b starts with all of a). */
export function firstDifference(a: readonly Message[], b: readonly Message[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++)
    if (a[i] !== b[i] && JSON.stringify(a[i].blocks) !== JSON.stringify(b[i].blocks)) return i;
  return n;
}

export type SessionBreak = {
  thread: Thread;
  ref: Request;
  r: Request;
  cal: Calibration;
  api: CacheApi;
  step: number;
  divergence: Divergence | undefined;
  gapMs: number | undefined;
  /** The smallest cacheable prompt of the request's model (an older entry is at least this long). */
  min: number;
  /** Where the request's input starts in the thread (after the agent's last summary), when the caller knows it
   *  (a scan back per break made a log of breaks quadratic). */
  inputStart?: number;
};

/** The cause of a break no recorded change explains, from the evidence the session log holds. */
export function sessionCause(x: SessionBreak): SessionCause {
  const { thread: t, ref, r, divergence: d } = x;
  if (!ref.observed || !r.observed) return unexplained([]);
  const refPrompt = observedPrompt(ref.observed);
  const prompt = observedPrompt(r.observed);
  const read = r.observed.cacheRead;
  const facts = factsBetween(t, ref, r);
  const shape = shapeOf(x.cal, ref, r, refPrompt, prompt);
  const evidence: string[] = [];
  const n = facts.appended.length;
  const lines = n > 0 ? ` (${at(facts.appended[0])}${n > 1 ? `–${facts.appended[n - 1].source.line}` : ''})` : '';
  evidence.push(
    `request ${ref.index}${lineOf(ref)} sent ${fmtTok(refPrompt)} prompt tokens; this request${lineOf(r)} read ${fmtTok(read)} of them from cache (observed) after the log appended ${n} message${n === 1 ? '' : 's'}${lines}`,
  );
  if (shape) evidence.push(shape.line);
  if (d) evidence.push(divergenceLine(d, x.step));
  if (x.api !== 'anthropic') return bestEffort(x, facts, shape, evidence, refPrompt, read);
  // Anthropic: the previous request cached its prompt through its last breakpoint (read + write cover it), within
  // the TTL and for the same model (checked before this): had nothing before that point changed, this request
  // would have read it all, unless its breakpoint sat more than 20 blocks after that entry.
  const cachedThrough = ref.observed.cacheRead + ref.observed.cacheWrite;
  const wasCached = cachedThrough >= refPrompt - Math.max(64, 0.01 * refPrompt);
  if (wasCached) {
    const gap = x.gapMs !== undefined ? ` ${fmtGap(x.gapMs)} earlier` : '';
    evidence.push(
      `request ${ref.index} cached its prompt through ${fmtTok(cachedThrough)} tokens (read ${fmtTok(ref.observed.cacheRead)} + write ${fmtTok(ref.observed.cacheWrite)}, observed)${gap}, within the TTL: Anthropic serves the longest cached prefix, so the input changed after token ${fmtTok(read)}`,
    );
  }
  if (facts.appendedBlocks > LOOKBACK_BLOCKS) {
    evidence.push(
      `${facts.appendedBlocks} content blocks were appended since request ${ref.index}'s breakpoint; Anthropic looks back at most ${LOOKBACK_BLOCKS} blocks from a breakpoint for an earlier cache entry`,
    );
    return {
      cause: 'lookback-exceeded',
      detail: `the new breakpoint is ${facts.appendedBlocks} blocks after the last cache entry (Anthropic looks back ${LOOKBACK_BLOCKS})`,
      evidence,
    };
  }
  if (!wasCached && !shape?.unexplained) return unexplained(evidence);
  const inputStart = x.inputStart ?? firstIndex(t, r);
  const front = d?.region === 'unlogged-prefix' || (d !== undefined && d.messageIndex === inputStart);
  if (front && facts.memoryEdits.length > 0) {
    evidence.push(
      `${facts.memoryEdits.join('; ')}: the agent sends its memory files in the context before the first message`,
    );
    return {
      cause: 'memory-file-edited',
      detail: `a memory file was edited (${facts.memoryEdits[0]}) and the cached prefix ended before the first message`,
      evidence,
    };
  }
  if (facts.toolLoads.length > 0) {
    evidence.push(`tool definitions were loaded or announced at ${facts.toolLoads.join(', ')} (deferred tools)`);
    return { cause: 'tools-changed', detail: 'deferred tool definitions were loaded between the requests', evidence };
  }
  if (front && facts.dates) {
    evidence.push(
      `the UTC date changed between the requests (${facts.dates[0]} → ${facts.dates[1]}); Claude Code's context states today's date before the first message (in the user's time zone, which the log does not record: a UTC change is where that date changes for a user in UTC)`,
    );
    return {
      cause: 'date-changed',
      detail: `the date changed (${facts.dates[0]} → ${facts.dates[1]} UTC) and the cached prefix ended before the first message`,
      evidence,
    };
  }
  if (d?.region === 'unlogged-prefix') {
    const att = attachmentsBefore(t, Math.max(d.messageIndex, inputStart));
    if (att) evidence.push(att);
    return {
      cause: 'prefix-changed',
      detail: `the cached prefix ended at ${fmtTok(read)} tokens, inside the ≈${fmtTok(d.unloggedTokens)} tokens the log does not hold (system prompt, tools, injected context): that part changed`,
      evidence,
    };
  }
  return rewritten(d, evidence, shape, t);
}

/** The index of the user prompt before message `at` (−1: none, the turn began with the session). */
function promptBefore(t: Thread, at: number): number {
  for (let i = at - 1; i >= 0; i--) if (isPrompt(t.messages[i])) return i;
  return -1;
}

/** Best-effort caches (OpenAI, Gemini): a miss is the provider's unless the log shows the prefix changed. */
function bestEffort(
  x: SessionBreak,
  facts: Facts,
  shape: Shape | undefined,
  evidence: string[],
  refPrompt: number,
  read: number,
): SessionCause {
  const { thread: t, ref, r, divergence: d } = x;
  const drop =
    x.api === 'openai' && facts.newPrompt && shape
      ? reasoningDrop(t, ref, r, facts.newPrompt, promptBefore(t, facts.newPrompt.index), {
          ...shape,
          perTurn: x.cal.requests[r.index]?.hiddenFrom !== undefined,
        })
      : undefined;
  if (drop) {
    // The sizes fit once the reasoning is taken out: the shape line's "nothing earlier changed size" would not.
    const i = shape ? evidence.indexOf(shape.line) : -1;
    if (i >= 0 && !shape?.unexplained) evidence[i] = evidence[i].replace(/: nothing earlier changed size$/, '');
    evidence.push(drop.evidence);
  }
  // The drop is the cause when most of the tokens lost lay past the first reasoning item it removed.
  if (drop && drop.explains >= 0.5 * (refPrompt - read)) {
    // What the read itself was: an older entry too, when it equals an earlier read.
    const older = olderEntry(t, ref, r, x.min);
    if (older) evidence.push(older.evidence[0]);
    return { cause: 'reasoning-dropped', detail: drop.detail, evidence };
  }
  if (shape?.unexplained && !drop) return rewritten(d, evidence, shape);
  if (!shape) return unexplained(evidence);
  const provider = isDeepSeek(r.model) ? 'DeepSeek' : x.api === 'openai' ? 'OpenAI' : 'Gemini';
  // "Not served" only where the exact input proves the prefix unchanged (SPEC §5.4, issue 16): a request log
  // that holds both inputs, the later one starting with every message of the earlier one.
  const exact = ref.exactInput && r.exactInput ? firstDifference(ref.exactInput, r.exactInput) : -1;
  if (ref.exactInput && exact === ref.exactInput.length) {
    evidence.push(
      `the exact input of this request starts with all ${ref.exactInput.length} messages of request ${ref.index}'s, unchanged; ${provider} caches best effort (requests are routed by a hash of the prompt's start; another machine has no entry)`,
    );
    return {
      cause: 'not-served',
      detail: `prefix unchanged (exact input) but only ${fmtTok(read)} of ${fmtTok(refPrompt)} tokens served (best-effort cache)`,
      evidence,
    };
  }
  const injected = facts.appended.filter((m) => m.meta && m.role === 'user');
  if (injected.length > 0)
    evidence.push(
      `context the agent injects was appended at ${injected.map(at).join(', ')} (environment context, instructions)`,
    );
  const older = x.api === 'openai' && injected.length === 0 ? olderEntry(t, ref, r, x.min) : undefined;
  if (older) {
    pushAll(evidence, older.evidence);
    return { cause: 'older-entry', detail: older.detail, evidence };
  }
  const same = x.api === 'openai' && injected.length === 0 ? sameEntry(t, ref, r, x.min, provider) : undefined;
  if (same) {
    pushAll(evidence, same.evidence);
    return { cause: 'same-entry', detail: same.detail, evidence };
  }
  if (x.api === 'openai') evidence.push(checkedLine(t, r, facts, read, injected.length > 0));
  evidence.push(
    `the log's input is the previous one plus appended items and no earlier content changed size${drop ? ' beyond that reasoning' : ''} (estimated): consistent with ${provider}'s best-effort cache not serving an unchanged prefix, but the log does not hold the exact request, so the prefix cannot be shown unchanged`,
  );
  return unexplained(evidence);
}

/** What an OpenAI break left unexplained was checked against: earlier reads, a new prompt, injected context. */
function checkedLine(t: Thread, r: Request, facts: Facts, read: number, injected: boolean): string {
  const reads = new Set(t.requests.filter((q) => q.index < r.index && q.observed).map((q) => q.observed?.cacheRead));
  const parts = [
    `the read, ${fmtTok(read)} tokens, equals none of the ${reads.size} distinct earlier reads (the mark of an older entry served)`,
    facts.newPrompt ? '' : 'no user prompt was appended (a turn’s reasoning leaves the prompt only at one)',
    injected ? '' : 'no context the agent injects (environment context, instructions) was appended',
  ];
  return `checked: ${parts.filter(Boolean).join('; ')}`;
}

const MENTION = /(?:^|\s)@([\w.\-/]+\.\w+)/g;
const IDE_FILE = /<ide_opened_file>/;

/** Content the agent attaches that the log does not record, in the first message of the input: @-mentioned
 *  files and IDE context (Claude Code sends their contents with the message). */
function attachmentsBefore(t: Thread, index: number): string | undefined {
  const m = t.messages[index];
  if (m?.role !== 'user') return undefined;
  const files = new Set<string>();
  let ide = false;
  for (const b of m.blocks) {
    if (b.type !== 'text') continue;
    for (const x of b.text.matchAll(MENTION)) files.add(x[1]);
    if (IDE_FILE.test(b.text)) ide = true;
  }
  if (files.size === 0 && !ide) return undefined;
  const what = [
    files.size > 0
      ? `@-mentions ${[...files].slice(0, 4).join(', ')}${files.size > 4 ? ` (+${files.size - 4})` : ''}`
      : '',
    ide ? 'carries IDE context (<ide_opened_file>)' : '',
  ]
    .filter(Boolean)
    .join(' and ');
  return `message ${m.index} (${at(m)}) ${what}: the agent sends the contents of such attachments with the message, and the log does not record them`;
}

function firstIndex(t: Thread, r: Request): number {
  for (let i = r.inputEnd - 1; i >= 0; i--) if (t.messages[i].compaction === 'summary') return i;
  return 0;
}

function rewritten(d: Divergence | undefined, evidence: string[], shape: Shape | undefined, t?: Thread): SessionCause {
  if (!d) return unexplained(evidence);
  const m = t?.messages[d.messageIndex];
  if (m?.meta)
    evidence.push(`message ${d.messageIndex} (${at(m)}) is content the agent injects (a reminder or attachment)`);
  const why = shape?.unexplained
    ? `; ${shape.growth < 0 ? 'the prompt shrank' : 'the prompt changed size'} beyond what was appended`
    : '';
  return {
    cause: `history-rewritten@${d.messageIndex}`,
    detail: `the cached prefix ended at message ${d.messageIndex} (${fmtTok(d.tokens)} tokens): content there or after it was rewritten${why}`,
    evidence,
  };
}

function unexplained(evidence: string[]): SessionCause {
  return { cause: 'unexplained', detail: 'no recorded change explains the drop', evidence };
}

export function divergenceLine(d: Divergence, step: number): string {
  const steps =
    step > 1 ? ` (a multiple of the ${step}-token step: the prefix ended within ${step} tokens after it)` : '';
  return d.region === 'unlogged-prefix'
    ? `the cached prefix ended at ${fmtTok(d.tokens)} tokens${steps}, inside the ≈${fmtTok(d.unloggedTokens)} tokens sent before message ${d.messageIndex}'s logged content (estimated ±${fmtTok(d.uncertaintyTokens)})`
    : `the cached prefix ended at ${fmtTok(d.tokens)} tokens${steps}, in message ${d.messageIndex} block ${d.blockIndex}, which starts at ≈${fmtTok(d.messageStart)} (estimated ±${fmtTok(d.uncertaintyTokens)})`;
}

export function fmtGap(ms: number): string {
  const s = Math.round(ms / 1000);
  const m = Math.floor(s / 60);
  if (m === 0) return `${s} s`;
  return s % 60 === 0 ? `${m} min` : `${m} min ${s % 60} s`;
}
