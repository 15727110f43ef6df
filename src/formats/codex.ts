// Codex CLI rollout JSONL (formats.md §3): `{timestamp, type, payload}` lines, where `response_item`
// payloads are what the model saw (messages, reasoning, tool calls and outputs), `event_msg` lines are
// UI echoes plus `token_count` usage, `turn_context` carries the model and `compacted` records the
// agent's own compaction. Also reads legacy (pre-envelope, mid-2025) rollouts of bare items.
// One model call = one assistant message = one request. Its usage is the token_count written when its response
// completed: before the call's items in current rollouts (0.42–0.58: count, items, the same count again), after
// them in older ones.
// A forked sub-agent (0.11x `spawn_agent` with `fork_context`; codex-rs AgentControl::spawn_agent_with_options)
// writes its own session_meta, then the parent's rollout replayed from its start (the parent's session_meta, items
// and token_counts with the parent's running totals, every line stamped with the fork's time), then a
// function_call_output answering its own spawn call ("You are the newly spawned agent. …"), then its own turns: the
// replayed part is the child's context but none of its requests (codex-fork.ts reads the family).
import { isObject, type JsonObject, num, preview, str, toEpochMs, tryParseJson } from '../lib/json.ts';
import type { BilledResponse, Message, ObservedUsage, Request, Thread, TranscriptMeta } from '../model/transcript.ts';
import type { LineNumber } from '../model/units.ts';
import { codexDefaultModel } from './codex-default-model.ts';
import { describeFork, ForkTracker, forkOutput, readChildren, totalsOf } from './codex-fork.ts';
import { codexUsage, ItemGrouper, normalizeItem, usageDelta } from './codex-items.ts';
import { jsonLines } from './jsonl.ts';
import { bump, makeTranscript, newThread, pushMessage } from './thread.ts';
import type { FormatParser, ParseContext, ParseInput, SniffHead } from './types.ts';

const LINE_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);
/** Item types a legacy rollout writes as bare lines. */
const BARE_ITEM_TYPES = new Set([
  'message',
  'reasoning',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'local_shell_call',
  'web_search_call',
]);

function isRolloutLine(v: unknown): boolean {
  return isObject(v) && !!v.timestamp && typeof v.type === 'string' && LINE_TYPES.has(v.type) && isObject(v.payload);
}

function isLegacyHeader(v: unknown): v is JsonObject {
  return (
    isObject(v) &&
    v.type === undefined &&
    typeof v.id === 'string' &&
    'timestamp' in v &&
    ('instructions' in v || 'git' in v)
  );
}

function isLegacyBody(v: unknown): boolean {
  if (!isObject(v) || 'payload' in v) return false;
  return v.record_type === 'state' || (typeof v.type === 'string' && BARE_ITEM_TYPES.has(v.type));
}

/**
 * Mark the replacement-history message that carries the summary: an encrypted `compaction` item
 * (remote compaction), else the last message whose text contains the summary (local compaction).
 */
function markSummary(messages: Message[], summary: string): void {
  const encrypted = messages.filter((m) => m.blocks.some((b) => b.type === 'other' && b.kind === 'compaction'));
  const holder = (m: Message) => m.blocks.some((b) => b.type === 'text' && b.text.includes(summary));
  const marked = encrypted.length > 0 ? encrypted : summary === '' ? [] : messages.filter(holder).slice(-1);
  for (const m of marked) m.compaction = 'summary';
}

type Compaction = { summaryIndex: number; history?: Message[] };
type EventEcho = { kind: string; text: string; line: LineNumber };

/** A token_count waiting for the model call it was written for. */
type PendingUsage = {
  usage: ObservedUsage;
  reasoning: number | undefined;
  line: LineNumber;
  time: number | undefined;
  model: string | undefined;
};

/** One pass over the lines; all state of a parse lives here. */
class RolloutReader {
  readonly thread: Thread = newThread('main', 'main');
  readonly meta: TranscriptMeta = {};
  private readonly skipped: Record<string, number> = {};
  private readonly extra: Record<string, string | number | boolean> = {};
  private readonly grouper = new ItemGrouper(this.thread.messages, (m) => this.openRequest(m));
  private readonly compactions: Compaction[] = [];
  private readonly echoes: EventEcho[] = [];
  private readonly itemTexts = { user: new Set<string>(), assistant: new Set<string>() };
  private model: string | undefined;
  private boundaryPending = false;
  private lastTotalKey: string | undefined;
  /** Usage that arrived before the items of its model call (current rollouts): the next request's. */
  private pendingUsage: PendingUsage | undefined;
  private lastTotal: unknown;
  /** The last running total the log wrote (the self-check compares the thread's billed usage with it). */
  private finalTotal: { total: unknown; line: LineNumber } | undefined;
  private sessionMetas = 0;
  /** Fork state: whether this rollout replays a parent's history and where that replay ends. */
  readonly fork = new ForkTracker();
  private badTimes = { count: 0, first: 0 };
  private foreign = { count: 0, first: 0, types: new Set<string>() };

  /** `enveloped`: the file is a current rollout, so a bare line is a legacy item only if its type is one. */
  constructor(
    private readonly ctx: ParseContext,
    private readonly enveloped = false,
  ) {}

  private issue(line: LineNumber, severity: 'error' | 'warning' | 'info', message: string): void {
    this.ctx.issue({ line, severity, message });
  }

  /** Dispatch one parsed line. */
  line(no: LineNumber, v: unknown): void {
    if (!isObject(v)) {
      this.issue(no, 'error', 'line is not a JSON object; skipped');
    } else if (typeof v.type === 'string' && 'payload' in v) {
      if (!isObject(v.payload)) {
        this.issue(no, 'error', `"${v.type}" line: payload is not an object; skipped`);
        return;
      }
      const time = toEpochMs(v.timestamp);
      if (time === undefined && this.badTimes.count++ === 0) this.badTimes.first = no;
      if (this.fork.endsBefore(time)) this.endInheritance();
      this.envelope(no, v.type, v.payload, time);
    } else if (typeof v.record_type === 'string') {
      bump(this.skipped, `record_type:${v.record_type}`);
    } else if (typeof v.type === 'string') {
      if (LINE_TYPES.has(v.type)) this.issue(no, 'error', `"${v.type}" line has no payload; skipped`);
      else if (this.enveloped && !BARE_ITEM_TYPES.has(v.type)) this.foreignLine(no, v.type);
      else this.item(no, v, undefined); // legacy: a bare ResponseItem
    } else if (isLegacyHeader(v)) {
      this.sessionMeta(v, toEpochMs(v.timestamp));
    } else {
      this.issue(no, 'error', 'line has no "type" (not a rollout line); skipped');
    }
  }

  /**
   * A line of another format in a current rollout (a Claude Code line pasted in): counted, not read as an
   * item, so it neither adds a message nor splits the model call around it in two.
   */
  private foreignLine(no: LineNumber, type: string): void {
    if (this.foreign.count++ === 0) this.foreign.first = no;
    if (this.foreign.types.size < 5) this.foreign.types.add(type);
    bump(this.skipped, `foreign:${type}`);
  }

  private envelope(no: LineNumber, type: string, p: JsonObject, time: number | undefined): void {
    if (type === 'response_item') this.item(no, p, time);
    else if (type === 'event_msg') this.event(no, p, time);
    else if (type === 'session_meta') this.sessionMeta(p, time);
    else if (type === 'compacted') this.compacted(no, p, time);
    else if (type === 'turn_context') {
      this.model = str(p.model) ?? this.model;
      // The session's first model, also when no model output follows (the defaults of SPEC §1.1 read it).
      if (this.model !== undefined && this.extra.model === undefined) this.extra.model = this.model;
      this.grouper.close();
    } else bump(this.skipped, type); // world_state, inter_agent_communication_metadata, future line types
  }

  private item(no: LineNumber, p: JsonObject, time: number | undefined): void {
    const type = str(p.type);
    if (type === undefined) {
      this.issue(no, 'error', 'response_item payload has no "type"; skipped');
      return;
    }
    const n = normalizeItem(p);
    for (const w of n.warnings) this.issue(no, 'warning', w);
    if (n.side === 'skip') {
      bump(this.skipped, `response_item:${type}`);
      return;
    }
    if (type === 'message' && (n.side === 'user' || n.side === 'assistant')) {
      const set = this.itemTexts[n.side];
      const texts = n.blocks.flatMap((b) => (b.type === 'text' ? [b.text.trim()] : []));
      for (const t of texts) set.add(t);
      set.add(texts.join('\n').trim());
    }
    const msg = this.grouper.add(n, { line: no, time, uuid: str(p.id), model: this.model });
    const req = this.thread.requests.at(-1);
    if (msg && req && msg.index === req.inputEnd && time !== undefined) req.responseTime = time;
    const spawned = this.fork.inheriting ? forkOutput(p) : undefined;
    if (spawned !== undefined) {
      this.fork.spawnCallId = spawned;
      this.endInheritance();
    }
  }

  /** The replayed parent history ends here: its requests and pending usage were the parent's. */
  private endInheritance(): void {
    this.grouper.close();
    this.pendingUsage = undefined;
    this.boundaryPending = false;
    this.fork.end(this.thread.messages.length, this.thread.requests.length, this.lastTotal);
  }

  /** A new assistant message = the output of one model call = one request. */
  private openRequest(m: Message): void {
    if (m.role !== 'assistant') return;
    const r: Request = { index: this.thread.requests.length, thread: this.thread.id, inputEnd: m.index };
    r.responseEnd = m.index + 1;
    r.line = m.source.line;
    if (m.time !== undefined) r.time = r.responseTime = m.time;
    if (m.model !== undefined) r.model = m.model;
    if (this.boundaryPending) r.boundary = 'agent-compaction';
    this.boundaryPending = false;
    if (this.pendingUsage) r.observed = this.pendingUsage.usage;
    if (this.pendingUsage?.reasoning !== undefined) r.reasoningOutput = this.pendingUsage.reasoning;
    this.pendingUsage = undefined;
    this.thread.requests.push(r);
  }

  private event(no: LineNumber, p: JsonObject, time: number | undefined): void {
    const kind = str(p.type) ?? 'unknown';
    if (kind === 'token_count' && this.tokenCount(p, no, time)) return;
    bump(this.skipped, `event_msg:${kind}`);
    // user_message / agent_message echo response_items; remember them to report echoes of nothing.
    const text = str(p.message)?.trim();
    if ((kind === 'user_message' || kind === 'agent_message') && text) this.echoes.push({ kind, text, line: no });
  }

  /** Attach usage to the latest request that has none yet (items written before their count), else keep it for
   *  the next request (count written before its items); false when the event carries nothing new. */
  private tokenCount(p: JsonObject, no: LineNumber, time: number | undefined): boolean {
    const info = p.info;
    if (!isObject(info)) return false; // null: a rate-limit-only update
    const total = info.total_token_usage;
    const key = isObject(total) ? JSON.stringify(total) : undefined;
    if (key !== undefined && key === this.lastTotalKey) return false; // repeated (rate-limit refresh)
    const last = isObject(info.last_token_usage) ? info.last_token_usage : usageDelta(total, this.lastTotal);
    if (key !== undefined) {
      this.lastTotalKey = key;
      this.lastTotal = total;
      this.finalTotal = { total, line: no };
    }
    const window = num(info.model_context_window);
    if (window && this.extra.modelContextWindow === undefined) this.extra.modelContextWindow = window;
    const usage = codexUsage(last);
    if (!usage || usage.input + usage.cacheRead + usage.cacheWrite + usage.output === 0) return false;
    const reasoning = isObject(last) ? num(last.reasoning_output_tokens) : undefined;
    const req = this.thread.requests.at(-1);
    if (req && !req.observed) {
      req.observed = usage;
      if (reasoning !== undefined) req.reasoningOutput = reasoning;
    } else {
      this.billApart(); // two counts with no model call between them: the first one's call left no items
      this.pendingUsage = { usage, reasoning, line: no, time, model: this.model };
    }
    this.grouper.close(); // a token_count ends a model call
    return true;
  }

  private sessionMeta(p: JsonObject, time: number | undefined): void {
    this.sessionMetas++;
    if (this.sessionMetas > 1) {
      // resume / fork / sub-agent spawn: the first one names the file; a fork's second one opens the replay
      this.fork.replayStarts(time);
      return;
    }
    this.fork.read(p);
    const id = str(p.id) ?? str(p.session_id);
    if (id !== undefined) this.meta.sessionId = id;
    const version = str(p.cli_version);
    if (version !== undefined) this.meta.version = version;
    for (const k of ['originator', 'model_provider', 'cwd', 'source'] as const) {
      const s = str(p[k]);
      if (s !== undefined) this.extra[k] = s;
    }
    if (isObject(p.source) && isObject(p.source.subagent)) this.extra.source = 'subagent';
    // Newer rollouts store the system prompt; older `instructions` are user instructions (AGENTS.md),
    // which also appear as a user message, so they are not the prefix.
    const base = isObject(p.base_instructions) ? str(p.base_instructions.text) : undefined;
    if (base !== undefined) this.thread.prefix.system = [{ type: 'text', text: base }];
  }

  /**
   * The agent compacted its context. The thread gets a user message with the summary (compaction:
   * 'summary') and the next request is marked as the boundary. When `replacement_history` is present
   * it IS the new context (kept user messages + summary, or an encrypted `compaction` item), so the
   * following requests get exactInput = that history, normalized, + the messages after the summary.
   */
  private compacted(no: LineNumber, p: JsonObject, time: number | undefined): void {
    this.grouper.close();
    // A count still waiting for its call was the summarizing call's own: billed, but no request of the thread.
    this.billApart();
    if (p.message !== undefined && typeof p.message !== 'string')
      this.issue(no, 'warning', 'compacted.message is not a string');
    const summary = str(p.message) ?? '';
    let history: Message[] | undefined;
    if (Array.isArray(p.replacement_history)) {
      history = [];
      const g = new ItemGrouper(history);
      p.replacement_history.forEach((it, i) => {
        const path = `payload.replacement_history[${i}]`;
        if (!isObject(it)) {
          this.issue(no, 'warning', `${path} is not an object; left out`);
          return;
        }
        const n = normalizeItem(it);
        for (const w of n.warnings) this.issue(no, 'warning', `${path}: ${w}`);
        g.add(n, { line: no, time, path });
      });
      markSummary(history, summary);
    } else if (p.replacement_history !== undefined && p.replacement_history !== null) {
      this.issue(no, 'warning', 'compacted.replacement_history is not an array; ignored');
    }
    const encrypted = history?.flatMap((m) => m.blocks).find((b) => b.type === 'other' && b.kind === 'compaction');
    const blocks: Message['blocks'] = summary === '' && encrypted ? [encrypted] : [{ type: 'text', text: summary }];
    const msg: Omit<Message, 'index'> = { role: 'user', blocks, source: { line: no, shape: 'responses-item' } };
    if (time !== undefined) msg.time = time;
    msg.compaction = 'summary';
    this.compactions.push({ summaryIndex: pushMessage(this.thread, msg), history });
    this.boundaryPending = true;
  }

  /** The pending usage was billed for a model call the rollout has no items of: kept apart from the requests. */
  private billApart(): void {
    const p = this.pendingUsage;
    if (!p) return;
    this.pendingUsage = undefined;
    const b: BilledResponse = { why: 'no-request', usage: p.usage, line: p.line };
    if (p.time !== undefined) b.time = p.time;
    if (p.model !== undefined) b.model = p.model;
    this.thread.billedApart = [...(this.thread.billedApart ?? []), b];
  }

  /** Post-pass: exact inputs after compactions, echo and timestamp reports, meta. */
  finish(): Thread {
    this.billApart();
    this.answerDanglingCalls();
    this.exactInputs();
    this.fork.apply(this.thread);
    const final = this.finalTotal ? totalsOf(this.finalTotal.total) : undefined;
    if (final && this.finalTotal) {
      this.thread.logTotals = { final, line: this.finalTotal.line };
      const inherited = this.fork.inheritedTotal;
      if (inherited) this.thread.logTotals.inherited = inherited;
    }
    const missing = this.echoes.filter(
      (e) => !this.itemTexts[e.kind === 'user_message' ? 'user' : 'assistant'].has(e.text),
    );
    if (missing.length > 0) {
      this.issue(
        missing[0].line,
        'info',
        `${missing.length} user_message/agent_message event(s) match no response_item message; events are UI echoes ` +
          'of what the model saw, so they were not added as messages (first at this line)',
      );
    }
    if (this.foreign.count > 0) {
      const types = [...this.foreign.types].map((t) => JSON.stringify(preview(t, 40))).join(', ');
      this.issue(
        this.foreign.first,
        'warning',
        `${this.foreign.count} line(s) are not rollout lines (no payload; type ${types}); counted in meta.skipped, not read (first at this line)`,
      );
    }
    if (this.badTimes.count > 0) {
      this.issue(
        this.badTimes.first,
        'info',
        `${this.badTimes.count} line(s) have an unparseable timestamp (first at this line)`,
      );
    }
    if (this.sessionMetas > 1) this.extra.sessionMetaLines = this.sessionMetas;
    if (Object.keys(this.skipped).length > 0) this.meta.skipped = this.skipped;
    if (Object.keys(this.extra).length > 0) this.meta.extra = this.extra;
    return this.thread;
  }

  /**
   * Codex never sends a call without its output: its history normalization (codex-rs ContextManager::
   * normalize_history → ensure_call_outputs_present) inserts a synthetic output "aborted" right after each call
   * that has none. So a call no output answers, followed by a later model call, was sent answered: the same
   * synthetic output is put after it here (a user message marked `synthetic`). A fork's sibling spawn calls are
   * such calls (only the child's own spawn call is answered in its replay).
   */
  private answerDanglingCalls(): void {
    const msgs = this.thread.messages;
    const answered = new Set<string>();
    for (const m of msgs) for (const b of m.blocks) if (b.type === 'tool_result') answered.add(b.toolUseId);
    const lastInput = this.thread.requests.at(-1)?.inputEnd ?? 0;
    const inserts: { after: number; ids: string[] }[] = [];
    for (const m of msgs) {
      if (m.role !== 'assistant' || m.index >= lastInput) continue;
      const ids = m.blocks.flatMap((b) => (b.type === 'tool_use' && b.id && !answered.has(b.id) ? [b.id] : []));
      if (ids.length > 0) inserts.push({ after: m.index, ids });
    }
    if (inserts.length === 0) return;
    const shift = new Int32Array(msgs.length + 1);
    const out: Message[] = [];
    let k = 0;
    for (const m of msgs) {
      shift[m.index] = out.length - m.index;
      out.push(m);
      if (inserts[k]?.after !== m.index) continue;
      const blocks = inserts[k++].ids.map((id): Message['blocks'][number] => ({
        type: 'tool_result',
        toolUseId: id,
        content: 'aborted',
        isError: true,
      }));
      out.push({
        index: 0,
        role: 'user',
        blocks,
        source: { line: m.source.line, shape: 'responses-item' },
        synthetic: true,
      });
    }
    shift[msgs.length] = out.length - msgs.length;
    const at = (i: number) => i + shift[Math.min(i, msgs.length)];
    out.forEach((m, i) => {
      m.index = i;
    });
    this.thread.messages = out;
    for (const r of this.thread.requests) {
      r.inputEnd = at(r.inputEnd);
      if (r.responseEnd !== undefined) r.responseEnd = at(r.responseEnd);
    }
    for (const c of this.compactions) c.summaryIndex = at(c.summaryIndex);
    this.fork.remap(at);
  }

  private exactInputs(): void {
    let next = 0;
    let win: { start: number; history: Message[]; copies: Message[] } | undefined;
    for (const r of this.thread.requests) {
      while (next < this.compactions.length && this.compactions[next].summaryIndex < r.inputEnd) {
        const c = this.compactions[next++];
        win = c.history ? { start: c.summaryIndex + 1, history: c.history, copies: [] } : undefined;
      }
      if (!win) continue;
      const n = r.inputEnd - win.start;
      // Copies (re-indexed to their place in the exact input) are shared by all requests of the window.
      while (win.copies.length < n) {
        const m = this.thread.messages[win.start + win.copies.length];
        win.copies.push({ ...m, index: win.history.length + win.copies.length });
      }
      r.exactInput = [...win.history, ...win.copies.slice(0, n)];
    }
  }
}

/** A rollout that names no model is priced at its CLI version's default, labelled as assumed (codex-default-model.ts). */
function assumeModel(meta: TranscriptMeta, threads: Thread[]): void {
  const requests = threads.flatMap((t) => t.requests);
  if (requests.length === 0 || requests.some((r) => r.model !== undefined)) return;
  const assumed = codexDefaultModel(meta.version);
  meta.assumedModel = assumed;
  for (const r of requests) r.model = assumed.model;
  for (const b of threads.flatMap((t) => t.billedApart ?? [])) b.model ??= assumed.model;
}

/** True when one of the first 20 JSON lines is a current `{timestamp, type, payload}` rollout line. */
function opensEnveloped(input: ParseInput): boolean {
  let seen = 0;
  for (const l of input.lines()) {
    if (l.tooLong || l.text.trim() === '') continue;
    const r = tryParseJson(l.text);
    if (r.ok && isRolloutLine(r.value)) return true;
    if (++seen >= 20) break;
  }
  return false;
}

/** Codex CLI rollout parser (current `{timestamp,type,payload}` envelope and legacy bare-item files). */
export const codexParser: FormatParser = {
  id: 'codex',
  label: 'Codex CLI rollout',
  sniff: (head: SniffHead) => {
    if (head.lines.some(isRolloutLine)) return true;
    const [first, ...rest] = head.lines.filter((v) => v !== undefined);
    return isLegacyHeader(first) && (rest.length === 0 || rest.some(isLegacyBody));
  },
  parse: (input: ParseInput, ctx: ParseContext) => {
    const reader = new RolloutReader(ctx, opensEnveloped(input));
    for (const { line, value } of jsonLines(input, ctx)) reader.line(line.no, value);
    const thread = reader.finish();
    const children = readChildren(input, ctx, reader.meta.sessionId, (c, enveloped) => new RolloutReader(c, enveloped));
    assumeModel(reader.meta, [thread, ...children]);
    if (children.length > 0) reader.meta.attached = children.map((c) => c.file ?? '');
    describeFork(reader.meta, thread);
    return makeTranscript('codex', reader.meta, [thread, ...children]);
  },
};
