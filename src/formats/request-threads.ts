// Groups request logs (each request carries its whole history) into conversation threads by message
// prefix, as claude-trace does, for any format that logs exact inputs (claude-trace, anthropic-request,
// openai-chat). Messages are compared by a stable content key: a request's input shares the thread's
// Message objects, and equal content elsewhere shares one Block array, so memory stays proportional to
// distinct content even when a 100 MB log repeats the whole history in every request.
import type { Block, Message } from '../model/transcript.ts';
import type { MessageIndex } from '../model/units.ts';

/** One thread as the grouper builds it: the union history and the requests placed in it (by add order). */
export type GroupedThread = {
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
export function messageKey(m: Message): string {
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
