// A transcript read again after its file grew (a followed session), holding the objects of the previous read
// wherever they are equal in value: a thread, message, block, request or prefix that did not change is the same
// object as before, so the run cache, keyed on identity (analyses/run-memo.ts), finds what it kept for it. Only
// values equal to the last bit are replaced, so the result is equal in value to the fresh read.
import type { Message, Request, Thread, ThreadPrefix, Transcript } from './transcript.ts';

/** Deep equality of parsed values (plain objects, arrays, primitives); the same object is equal at once. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null)
    return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameValue(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (ArrayBuffer.isView(a)) return false; // never in a parsed transcript: not taken as equal
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  for (const k of ka) if (!Object.hasOwn(rb, k) || !sameValue(ra[k], rb[k])) return false;
  return true;
}

/** `next`'s message with `prev`'s object if equal, else with `prev`'s blocks where they are equal. */
function carryMessage(prev: Message | undefined, next: Message): Message {
  if (!prev) return next;
  if (sameValue(prev, next)) return prev;
  let changed = false;
  const blocks = next.blocks.map((b, j) => {
    const old = prev.blocks[j];
    if (old !== undefined && old !== b && sameValue(old, b)) {
      changed = true;
      return old;
    }
    return b;
  });
  return changed ? { ...next, blocks } : next;
}

function carryRequest(prev: Request | undefined, next: Request, messages: Map<Message, Message>): Request {
  if (!prev) return next;
  const exactInput = next.exactInput?.map((m) => messages.get(m) ?? m);
  const candidate = exactInput ? { ...next, exactInput } : next;
  return sameValue(prev, candidate) ? prev : candidate;
}

function carryPrefix(prev: ThreadPrefix, next: ThreadPrefix): ThreadPrefix {
  if (sameValue(prev, next)) return prev;
  return {
    ...next,
    ...(next.system && sameValue(prev.system, next.system) ? { system: prev.system } : {}),
    ...(next.tools && sameValue(prev.tools, next.tools) ? { tools: prev.tools } : {}),
  };
}

/** `next` (the thread read again) with `prev`'s objects where equal; `prev` itself when nothing changed. */
function carryThread(prev: Thread, next: Thread): Thread {
  const swapped = new Map<Message, Message>();
  const messages = next.messages.map((m, i) => {
    const kept = carryMessage(prev.messages[i], m);
    if (kept !== m) swapped.set(m, kept);
    return kept;
  });
  const requests = next.requests.map((r, i) => carryRequest(prev.requests[i], r, swapped));
  const prefix = carryPrefix(prev.prefix, next.prefix);
  const candidate: Thread = { ...next, messages, requests, prefix };
  return sameValue(prev, candidate) ? prev : candidate;
}

/** `next` (the grown file read again) with the objects of `prev` (its last read) kept wherever equal. */
export function carryOver(prev: Transcript, next: Transcript): Transcript {
  const before = new Map(prev.threads.map((t) => [t.id, t]));
  return {
    ...next,
    threads: next.threads.map((t) => {
      const p = before.get(t.id);
      return p ? carryThread(p, t) : t;
    }),
  };
}
