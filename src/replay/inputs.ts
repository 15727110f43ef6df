// What each request's input is (SPEC §3): `recorded` honours the agent's own compactions (after a
// boundary the input restarts from the agent's summary) and uses a request log's exact input; `raw`
// ignores boundaries and feeds the whole history (without the agent's summaries) to Tierscope's pipeline.
import type { Message, Request, Thread } from '../model/transcript.ts';

export type ReplayMode = 'recorded' | 'raw';

/** A request's input as a window [start, end) over an array (shared, never copied). */
export type InputView = { array: readonly Message[]; start: number; end: number; exact: boolean };

export class InputBuilder {
  private rawArray: Message[] | undefined;
  private rawCount: Int32Array | undefined;
  /** summaryBefore[i] = position of the last agent summary at index < i (or -1). */
  private summaryBefore: Int32Array | undefined;

  constructor(
    private readonly thread: Thread,
    private readonly mode: ReplayMode,
  ) {}

  view(r: Request): InputView {
    const msgs = this.thread.messages;
    const end = Math.max(0, Math.min(r.inputEnd, msgs.length));
    if (this.mode === 'recorded') {
      if (r.exactInput) return { array: r.exactInput, start: 0, end: r.exactInput.length, exact: true };
      if (!this.summaryBefore) {
        this.summaryBefore = new Int32Array(msgs.length + 1);
        let last = -1;
        for (let i = 0; i <= msgs.length; i++) {
          this.summaryBefore[i] = last;
          if (i < msgs.length && msgs[i].compaction === 'summary') last = i;
        }
      }
      const s = this.summaryBefore[end];
      return { array: msgs, start: Math.max(s, 0), end, exact: false };
    }
    if (!this.rawArray || !this.rawCount) {
      this.rawArray = [];
      this.rawCount = new Int32Array(msgs.length + 1);
      for (let i = 0; i < msgs.length; i++) {
        this.rawCount[i] = this.rawArray.length;
        if (!msgs[i].compaction) this.rawArray.push(msgs[i]);
      }
      this.rawCount[msgs.length] = this.rawArray.length;
    }
    return { array: this.rawArray, start: 0, end: this.rawCount[end], exact: false };
  }
}

/** How the new input relates to the previous one: appended messages, or a reset and why. */
export type InputDelta =
  | { kind: 'append'; from: number }
  | { kind: 'reset'; reason: 'first' | 'agent-compaction' | 'history-rewritten'; divergeAt: number };

/** Identity first (parsers share unchanged messages); else the same role and the same blocks. */
function sameMessage(a: Message, b: Message): boolean {
  return a === b || (a.role === b.role && JSON.stringify(a.blocks) === JSON.stringify(b.blocks));
}

export function inputDelta(prev: InputView | undefined, next: InputView, boundary: boolean): InputDelta {
  if (!prev) return { kind: 'reset', reason: 'first', divergeAt: 0 };
  const prevLen = prev.end - prev.start;
  const nextLen = next.end - next.start;
  if (prev.array === next.array && prev.start === next.start && next.end >= prev.end) {
    return { kind: 'append', from: prevLen };
  }
  let i = 0;
  const n = Math.min(prevLen, nextLen);
  while (i < n && sameMessage(prev.array[prev.start + i], next.array[next.start + i])) i++;
  if (i === prevLen) return { kind: 'append', from: prevLen };
  return {
    kind: 'reset',
    reason: boundary || prev.start !== next.start ? 'agent-compaction' : 'history-rewritten',
    divergeAt: i,
  };
}
