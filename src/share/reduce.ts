// The pieces a reproduction can lose, and a transcript without some of them. A unit is a set of messages that
// must go together — a tool_use with the messages holding its results (a parallel batch goes as one; a message
// without tool blocks between a use and its result is a unit of its own) — or a request without a response of
// its own. Removing units keeps a transcript well-formed: indices are renumbered, each request's input range
// shrinks with it, requests whose response is gone are dropped, and request logs' exact inputs lose the same
// messages (matched by role and content).
import type { Message, Request, Thread, Transcript } from '../model/transcript.ts';

export type Unit = { id: number; thread: number; messages: number[]; request?: number };

/** Messages per unit, in order: a tool_use goes with every tool message up to its last result. */
function messageUnits(th: Thread): number[][] {
  const n = th.messages.length;
  const resultAt = new Map<string, number>();
  th.messages.forEach((m, i) => {
    for (const b of m.blocks) if (b.type === 'tool_result' && !resultAt.has(b.toolUseId)) resultAt.set(b.toolUseId, i);
  });
  const reach = Array.from({ length: n }, (_, i) => i);
  th.messages.forEach((m, i) => {
    for (const b of m.blocks) {
      if (b.type !== 'tool_use') continue;
      const j = resultAt.get(b.id);
      if (j !== undefined && j > i) reach[i] = Math.max(reach[i], j);
    }
  });
  const paired = (k: number) => th.messages[k].blocks.some((b) => b.type === 'tool_use' || b.type === 'tool_result');
  const units: number[][] = [];
  let i = 0;
  while (i < n) {
    let end = reach[i];
    const core = [i];
    for (let k = i + 1; k <= end; k++) {
      // Inside a use…result span, messages without tool blocks (text, summaries, boundaries) can go alone.
      if (paired(k)) core.push(k);
      else units.push([k]);
      end = Math.max(end, reach[k]);
    }
    units.push(core);
    i = end + 1;
  }
  return units.sort((a, b) => a[0] - b[0]);
}

const hasResponse = (r: Request) => r.responseEnd !== undefined && r.responseEnd > r.inputEnd;

/** Every removable unit of a transcript, in thread and message order. */
function unitsOf(t: Transcript): Unit[] {
  const out: Unit[] = [];
  t.threads.forEach((th, ti) => {
    for (const messages of messageUnits(th)) out.push({ id: out.length, thread: ti, messages });
    th.requests.forEach((r, k) => {
      if (!hasResponse(r)) out.push({ id: out.length, thread: ti, messages: [], request: k });
    });
  });
  return out;
}

/** Content key of a message, to find it again in request logs' exact inputs. */
function keyOf(m: Message): string {
  return `${m.role}\u0000${JSON.stringify(m.blocks)}`;
}

/** Builds transcripts from subsets of units; message keys are computed once. */
export class Reducer {
  readonly units: Unit[];
  private readonly keys: string[][];

  constructor(readonly transcript: Transcript) {
    this.units = unitsOf(transcript);
    this.keys = transcript.threads.map((th) => (th.requests.some((r) => r.exactInput) ? th.messages.map(keyOf) : []));
  }

  /** Messages the kept units hold. */
  messageCount(kept: readonly Unit[]): number {
    return kept.reduce((n, u) => n + u.messages.length, 0);
  }

  /** The transcript made of `kept` units only. */
  build(kept: readonly Unit[]): Transcript {
    const t = this.transcript;
    const keepMsg = t.threads.map((th) => new Uint8Array(th.messages.length));
    const keepReq = t.threads.map((th) => new Uint8Array(th.requests.length).fill(1));
    for (const u of this.units) if (u.request !== undefined) keepReq[u.thread][u.request] = 0;
    for (const u of kept) {
      for (const i of u.messages) keepMsg[u.thread][i] = 1;
      if (u.request !== undefined) keepReq[u.thread][u.request] = 1;
    }
    const threads: Thread[] = [];
    t.threads.forEach((th, ti) => {
      const thread = this.thread(th, ti, keepMsg[ti], keepReq[ti]);
      if (thread.messages.length > 0 || thread.requests.length > 0) threads.push(thread);
    });
    return { ...t, threads };
  }

  private thread(th: Thread, ti: number, keepMsg: Uint8Array, keepReq: Uint8Array): Thread {
    // before[i] = kept messages with index < i: the new position of old index i.
    const before = new Int32Array(th.messages.length + 1);
    for (let i = 0; i < th.messages.length; i++) before[i + 1] = before[i] + keepMsg[i];
    const messages: Message[] = [];
    th.messages.forEach((m, i) => {
      if (keepMsg[i]) messages.push(m.index === messages.length ? m : { ...m, index: messages.length });
    });
    const removedKeys = new Set<string>();
    const keys = this.keys[ti];
    if (keys.length > 0) for (let i = 0; i < th.messages.length; i++) if (!keepMsg[i]) removedKeys.add(keys[i]);
    const requests: Request[] = [];
    th.requests.forEach((r, k) => {
      if (!keepReq[k]) return;
      const end = (x: number) => before[Math.max(0, Math.min(x, th.messages.length))];
      if (hasResponse(r) && end(r.responseEnd ?? 0) === end(r.inputEnd)) return; // its response is gone
      const q: Request = { ...r, index: requests.length, inputEnd: end(r.inputEnd) };
      if (r.responseEnd !== undefined) q.responseEnd = end(r.responseEnd);
      if (r.exactInput && removedKeys.size > 0) {
        // Exact-input messages are numbered by position, or (when shared with the thread) by thread index:
        // renumber each the way it was numbered.
        const exact = r.exactInput.map((m, i) => ({ m, i })).filter(({ m }) => !removedKeys.has(keyOf(m)));
        q.exactInput = exact.map(({ m, i }, k) => {
          const index = m.index === i || m.index < 0 || m.index >= th.messages.length ? k : before[m.index];
          return m.index === index ? m : { ...m, index };
        });
      }
      requests.push(q);
    });
    return { ...th, messages, requests };
  }
}
