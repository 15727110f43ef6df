// Groups request logs (each request carries its whole history) into conversation threads by message
// prefix, as claude-trace does, for any format that logs exact inputs (claude-trace, anthropic-request,
// openai-chat). Messages are compared by a stable content key: a request's input shares the thread's
// Message objects, and equal content elsewhere shares one Block array, so memory stays proportional to
// distinct content even when a 100 MB log repeats the whole history in every request.

import { pushAll } from '../lib/arrays.ts';
import type { Block, Message } from '../model/transcript.ts';
import type { MessageIndex } from '../model/units.ts';

/** One thread as the grouper builds it: the union history and the requests placed in it (by add order). */
type GroupedThread = {
  messages: Message[];
  /** Content keys of `messages`, position by position. */
  keys: string[];
  /** Ordinals (0-based, in `add` order) of the requests placed in this thread. */
  requests: number[];
};

/** Where one request landed. */
export type Placement = {
  /** Index into `grouper.threads`. */
  thread: number;
  /** Thread messages [0, inputEnd) are (position by position) this request's input. */
  inputEnd: MessageIndex;
  /** Thread messages [inputEnd, responseEnd) are its response; absent when it has none. */
  responseEnd?: MessageIndex;
  /** The input exactly as sent, with objects shared with the thread wherever they are equal. */
  exactInput: Message[];
  /** Set when the input rewrote the thread's history: the first position that differs. */
  rewrittenAt?: MessageIndex;
};

export type ThreadGrouper = {
  readonly threads: GroupedThread[];
  /** Place one request (its input in order, then its response messages, possibly none). */
  add(input: readonly Message[], response: readonly Message[]): Placement;
};

/** 4 × 32-bit multiplicative hash lanes (cyrb-style) fed with the structure of a value. */
type Lanes = [number, number, number, number];

function feed(h: Lanes, s: string): void {
  let [a, b, c, d] = h;
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    a = Math.imul(a ^ ch, 2654435761);
    b = Math.imul(b ^ ch, 1597334677);
    c = Math.imul(c ^ ch, 2246822507);
    d = Math.imul(d ^ ch, 3266489909);
  }
  h[0] = a;
  h[1] = b;
  h[2] = c;
  h[3] = d;
}

/** Feed a value unambiguously: strings are length-prefixed, object keys sorted, undefined members skipped. */
function feedValue(h: Lanes, v: unknown): void {
  if (typeof v === 'string') {
    feed(h, `s${v.length}:`);
    feed(h, v);
  } else if (v === null || typeof v !== 'object') feed(h, `${typeof v}:${String(v)};`);
  else if (Array.isArray(v)) {
    feed(h, `[${v.length}:`);
    for (const x of v) feedValue(h, x);
  } else {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort();
    feed(h, `{${keys.length}:`);
    for (const k of keys) {
      feedValue(h, k);
      feedValue(h, o[k]);
    }
  }
}

function mix(x: number, y: number): number {
  let h1 = Math.imul(x ^ (x >>> 16), 2246822507);
  h1 ^= Math.imul(y ^ (y >>> 13), 3266489909);
  let h2 = Math.imul(y ^ (y >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/**
 * Content key of any JSON-like value: 106 bits of hash over its structure with object keys sorted, so equal
 * content gives the same key whatever the source key order (collisions are negligible). One pass, no
 * intermediate JSON string.
 */
export function contentKey(value: unknown): string {
  const h: Lanes = [0xdeadbeef, 0x41c6ce57, 0x9e3779b9, 0x7f4a7c15];
  feedValue(h, value);
  return `${mix(h[0], h[1]).toString(36)}.${mix(h[2], h[3]).toString(36)}`;
}

/** Content key of a message: role and blocks only (not index, source, time). */
function messageKey(m: Message): string {
  return contentKey([m.role, m.blocks]);
}

/** Role plus the tool ids it carries: equal shapes mean a message was edited in place, not replaced. */
function shapeOf(m: Message): string {
  const ids: string[] = [];
  for (const b of m.blocks) {
    if (b.type === 'tool_use' || b.type === 'server_tool_use') ids.push(b.id);
    else if (b.type === 'tool_result') ids.push(b.toolUseId);
  }
  return `${m.role}:${ids.sort().join(',')}`;
}

/**
 * A grouper that places requests into threads: a request extends the longest thread whose messages are a
 * prefix of (or equal to) its input. Failing that, a thread it rewrote in place (same message shapes, at
 * least half the messages equal, input at least as long) takes it, with `rewrittenAt` set; otherwise it
 * starts a new thread. Thread messages grow as the union history: each input's new tail, then its response.
 */
export function createThreadGrouper(): ThreadGrouper {
  const threads: GroupedThread[] = [];
  const lastUse: number[] = [];
  const interned = new Map<string, Block[]>();
  let ordinal = 0;

  /** `m` at position `index`, its blocks shared with every earlier message of the same content. */
  function intern(m: Message, key: string, index: number): Message {
    const blocks = interned.get(key);
    if (!blocks) interned.set(key, m.blocks);
    if (m.index === index && (!blocks || blocks === m.blocks)) return m;
    return { ...m, index, blocks: blocks ?? m.blocks };
  }

  function findExtended(keys: string[]): number {
    let best = -1;
    for (let t = 0; t < threads.length; t++) {
      const tk = threads[t].keys;
      if (tk.length === 0 || tk.length > keys.length) continue;
      if (best >= 0) {
        const bl = threads[best].keys.length;
        if (tk.length < bl || (tk.length === bl && lastUse[t] < lastUse[best])) continue;
      }
      let i = tk.length - 1;
      while (i >= 0 && tk[i] === keys[i]) i--;
      if (i < 0) best = t;
    }
    return best;
  }

  function findRewritten(input: readonly Message[], keys: string[]): { thread: number; at: number } | undefined {
    let best: { thread: number; at: number; equal: number } | undefined;
    for (let t = 0; t < threads.length; t++) {
      const th = threads[t];
      const n = th.keys.length;
      if (n === 0 || n > keys.length) continue;
      let equal = 0;
      let at = -1;
      let aligned = true;
      for (let i = 0; i < n && aligned; i++) {
        if (th.keys[i] === keys[i]) equal++;
        else {
          if (at < 0) at = i;
          aligned = shapeOf(th.messages[i]) === shapeOf(input[i]);
        }
      }
      if (!aligned || at < 0 || equal * 2 < n) continue;
      if (!best || equal > best.equal || (equal === best.equal && lastUse[t] > lastUse[best.thread])) {
        best = { thread: t, at, equal };
      }
    }
    return best && { thread: best.thread, at: best.at };
  }

  function add(input: readonly Message[], response: readonly Message[]): Placement {
    const keys = input.map(messageKey);
    let t = findExtended(keys);
    let rewrittenAt: number | undefined;
    if (t < 0) {
      const r = findRewritten(input, keys);
      if (r) {
        t = r.thread;
        rewrittenAt = r.at;
      }
    }
    if (t < 0) {
      t = threads.length;
      threads.push({ messages: [], keys: [], requests: [] });
      lastUse.push(-1);
    }
    const th = threads[t];
    const exactInput = input.map((m, i) =>
      i < th.keys.length && th.keys[i] === keys[i] ? th.messages[i] : intern(m, keys[i], i),
    );
    for (let i = th.keys.length; i < input.length; i++) {
      th.messages.push(exactInput[i]);
      th.keys.push(keys[i]);
    }
    const placement: Placement = { thread: t, inputEnd: input.length, exactInput };
    if (rewrittenAt !== undefined) placement.rewrittenAt = rewrittenAt;
    for (const m of response) {
      const key = messageKey(m);
      th.messages.push(intern(m, key, th.messages.length));
      th.keys.push(key);
    }
    if (response.length > 0) placement.responseEnd = th.messages.length;
    th.requests.push(ordinal);
    lastUse[t] = ordinal++;
    return placement;
  }

  return { threads, add };
}

// ---- continuations after the agent's own compaction ----

/** Claude Code's opening of the first user message after it compacted its history (the summary follows). */
const CONTINUATION_TEXT = 'This session is being continued from a previous conversation';
/** Claude Code's compaction prompt: the last input message of the request that produces the summary. */
const COMPACTION_PROMPT = 'Your task is to create a detailed summary of the conversation so far';

function textBlocks(m: Message | undefined): string[] {
  return (m?.blocks ?? []).flatMap((b) => (b.type === 'text' ? [b.text.trim()] : []));
}

/** Context Claude Code re-injects with the summary: file reads it restores, reminders. */
const RESTORED = /^(Called the \S+ tool with the following input: |Result of calling the \S+ tool: |<system-reminder>)/;

/**
 * How many leading blocks of `m` are the agent's compaction summary, or undefined when `m` does not open a
 * continuation. Claude Code sends one user message: [reminders…, "This session is being continued…" summary,
 * restored file reads and reminders…, then whatever the user typed next (slash-command echo, the prompt)]. The
 * summary part runs through the summary block and the restored context right after it.
 */
function continuationSummaryBlocks(m: Message | undefined): number | undefined {
  if (m?.role !== 'user') return undefined;
  const at = m.blocks.findIndex((b) => b.type === 'text' && b.text.trim().startsWith(CONTINUATION_TEXT));
  if (at < 0) return undefined;
  let end = at + 1;
  while (end < m.blocks.length) {
    const b = m.blocks[end];
    if (b.type !== 'text' || !RESTORED.test(b.text.trim())) break;
    end++;
  }
  return end;
}

/** True when the message is Claude Code's compaction prompt. */
function isCompactionPrompt(m: Message | undefined): boolean {
  return m?.role === 'user' && textBlocks(m).some((t) => t.startsWith(COMPACTION_PROMPT));
}

/** A thread after continuations were joined: one or more grouper threads, read as one session. */
export type JoinedThread = {
  /** Grouper thread indices joined here; the first is the thread it started as. */
  parts: number[];
  messages: Message[];
  /** Ordinals (add order) of its requests, ascending. */
  requests: number[];
  /** True when the thread opens with a continuation that found no thread to join. */
  continuation: boolean;
};

export type Joined = {
  threads: JoinedThread[];
  /** Placement of every request (by ordinal) in its joined thread. */
  placements: Placement[];
  /** Ordinals of the first request after each of the agent's compactions. */
  boundaries: Set<number>;
};

/**
 * Join each conversation that continues after the agent's own compaction to the conversation it continues.
 * A grouper thread whose first non-system message opens a continuation (continuationSummaryBlocks) joins the
 * thread it continues: of the threads whose last request came before its first request and used the same
 * model, the one whose last request was a compaction request (isCompactionPrompt), else the one used last.
 * Continuations are taken in order, so a second compaction joins the already joined thread.
 *
 * The joined thread's messages go on with the continuation's first message split in two, the summary part
 * (`compaction: 'summary'`, skipped by raw replay) and, when the user typed something with it, the rest as a
 * plain user message; then the continuation's later messages and responses. Leading system messages of the
 * continuation (chat formats) are not repeated. Each continuation request keeps its exact input (the summary
 * message as sent, then the thread's message objects, re-indexed to their place in the joined thread) and
 * gets inputEnd/responseEnd in the joined thread; its first request is the boundary. A continuation with no
 * thread to join stays its own thread, split the same way.
 */
export function joinContinuations(
  grouper: ThreadGrouper,
  placements: readonly Placement[],
  opts: { model: (ordinal: number) => string | undefined; exclude?: (thread: number) => boolean },
): Joined {
  const out: Placement[] = placements.slice();
  const boundaries = new Set<number>();
  const threads: (JoinedThread | undefined)[] = grouper.threads.map((g, t) => ({
    parts: [t],
    messages: g.messages,
    requests: g.requests.slice(),
    continuation: false,
  }));
  const lastOf = (j: JoinedThread) => j.requests[j.requests.length - 1] ?? -1;
  grouper.threads.forEach((g, t) => {
    const first = g.requests[0];
    const at = g.messages.findIndex((m) => m.role !== 'system');
    const head = continuationSummaryBlocks(g.messages[at]);
    if (first === undefined || head === undefined || opts.exclude?.(t)) return;
    const model = opts.model(first);
    let target: JoinedThread | undefined;
    let targetCompacted = false;
    for (const j of threads) {
      if (!j || j.parts[0] === t || lastOf(j) < 0 || lastOf(j) >= first) continue;
      if (opts.model(lastOf(j)) !== model) continue;
      const compacted = isCompactionPrompt(out[lastOf(j)].exactInput.at(-1));
      const better =
        !target || (compacted && !targetCompacted) || (compacted === targetCompacted && lastOf(j) > lastOf(target));
      if (better) {
        target = j;
        targetCompacted = compacted;
      }
    }
    const own = threads[t] as JoinedThread;
    const into = target ?? { parts: [], messages: g.messages.slice(0, at), requests: [], continuation: true };
    const cont = g.messages[at];
    const split = head < cont.blocks.length ? 1 : 0;
    const summaryAt = into.messages.length;
    // Input position i >= at is message i + shift of the joined thread (at: the typed part, when split).
    const shift = summaryAt - at + split;
    const summary: Message = { ...cont, index: summaryAt, compaction: 'summary' };
    const moved = new Map<Message, Message>();
    const move = (m: Message, i: number): Message => {
      let c = moved.get(m);
      if (!c) {
        c = i === at ? { ...m, index: summaryAt, compaction: 'summary' } : { ...m, index: i + shift };
        moved.set(m, c);
      }
      return c;
    };
    const messages = target ? target.messages.slice() : into.messages;
    moved.set(cont, summary);
    if (split) {
      messages.push({ ...cont, index: summaryAt, blocks: cont.blocks.slice(0, head), compaction: 'summary' });
      messages.push({ ...cont, index: summaryAt + 1, blocks: cont.blocks.slice(head) });
    } else messages.push(summary);
    for (let i = at + 1; i < g.messages.length; i++) messages.push(move(g.messages[i], i));
    for (const k of g.requests) {
      const p = out[k];
      const exactInput = p.exactInput.map((m, i) => {
        if (i >= at) return move(m, i);
        if (!target) return m;
        const same = target.messages[i];
        return same && messageKey(same) === messageKey(m) ? same : m;
      });
      const q: Placement = { ...p, exactInput, inputEnd: p.inputEnd > at ? p.inputEnd + shift : p.inputEnd };
      if (p.responseEnd !== undefined) q.responseEnd = p.responseEnd + shift;
      const w = p.rewrittenAt;
      if (w !== undefined) q.rewrittenAt = w < at ? w : w === at ? summaryAt : w + shift;
      out[k] = q;
    }
    boundaries.add(first);
    into.messages = messages;
    pushAll(into.requests, g.requests);
    if (target) {
      pushAll(target.parts, own.parts);
      threads[t] = undefined;
    } else {
      into.parts = own.parts;
      threads[t] = into;
    }
  });
  return { threads: threads.filter((j): j is JoinedThread => j !== undefined), placements: out, boundaries };
}
