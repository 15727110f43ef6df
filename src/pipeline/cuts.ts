// Where history may be cut (summarize, hardcap): never between a tool_use and its result, never inside
// a parallel batch; the head (leading system messages, the first user message, an existing summary) and
// the most recent turns are protected.
import type { Message } from '../model/transcript.ts';
import type { Working } from './working.ts';

export const SUMMARY_UUID = 'tierscope-summary';

export function isPipelineSummary(m: Message): boolean {
  return m.compaction === 'summary' && m.source.uuid === SUMMARY_UUID;
}

function isToolResultMessage(m: Message): boolean {
  return m.role === 'user' && m.blocks.some((b) => b.type === 'tool_result');
}

/** End of the protected head: leading system messages, the first plain user message, then summaries. */
export function headEnd(work: Working): number {
  let h = 0;
  while (h < work.length && work.at(h).role === 'system') h++;
  if (
    h < work.length &&
    work.at(h).role === 'user' &&
    !isToolResultMessage(work.at(h)) &&
    !isPipelineSummary(work.at(h))
  )
    h++;
  while (h < work.length && work.at(h).compaction === 'summary') h++;
  return h;
}

function hasThinking(m: Message): boolean {
  return m.blocks.some((b) => b.type === 'thinking' || b.type === 'redacted_thinking');
}

/** Start of the protected tail: the last `turns` assistant messages and everything after them. The latest
 *  assistant message is always protected when it carries (signed) thinking, even with `turns` = 0: the
 *  provider requires it back unchanged to continue the turn. */
export function tailStart(work: Working, turns: number): number {
  if (turns <= 0) {
    for (let i = work.length - 1; i >= 0; i--)
      if (work.at(i).role === 'assistant') return hasThinking(work.at(i)) ? i : work.length;
    return work.length;
  }
  let seen = 0;
  for (let i = work.length - 1; i >= 0; i--) {
    if (work.at(i).role === 'assistant') {
      seen++;
      if (seen === turns) return i;
    }
  }
  return 0;
}

/** Positions c in [from, to] where a cut keeps every tool pair and batch whole, one at a time, ascending: a plan
 *  that stops at the first cut that lands reads the history no further (and makes no list of every cut). The
 *  history must not change while it is read. */
export class CutCursor {
  private c = 0;
  /** Furthest result position of the pairs opened before `c`. */
  private open = -1;
  private readonly last: number;
  constructor(
    private readonly work: Working,
    private readonly from: number,
    to: number,
  ) {
    this.last = Math.min(to, work.length);
  }

  /** The next valid cut, −1 when there is none. */
  next(): number {
    // A pair spans [use position, result position]; a cut c is invalid when use < c <= result. The working history
    // keeps how far the pairs opened at each position reach: one pass over numbers.
    const work = this.work;
    while (this.c <= this.last) {
      const c = this.c++;
      const valid = c >= this.from && c > this.open;
      if (c < work.length) {
        const reach = work.pairReachAt(c);
        if (reach > this.open) this.open = reach;
      }
      if (valid) return c;
    }
    return -1;
  }
}

/** Positions c in [from, to] where a cut keeps every tool pair and batch whole, ascending. */
export function validCuts(work: Working, from: number, to: number): number[] {
  const cursor = new CutCursor(work, from, to);
  const cuts: number[] = [];
  for (let c = cursor.next(); c >= 0; c = cursor.next()) cuts.push(c);
  return cuts;
}
