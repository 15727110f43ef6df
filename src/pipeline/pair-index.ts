// Where the tool pairs of a working history sit, kept up to date as messages are appended and ranges spliced
// out: each tool id's call (first tool_use in an assistant message) and first result by interned number, how
// far the pairs opened at each position reach (so valid cuts are one pass over numbers), and the positions of
// tool-result messages. Typed arrays and plain number lists: no hashing, no walking messages to shift them.
import { spliceIn } from '../lib/arrays.ts';
import type { Message } from '../model/transcript.ts';
import { type BlockRefs, grownTo, type ToolIds } from './tool-ids.ts';

const NONE: readonly number[] = Object.freeze([]);

export class PairIndex {
  /** By tool id number: position of the assistant message holding the tool_use, −1 when absent. */
  private callAt: Int32Array;
  /** By tool id number: position of the (first) message holding its tool_result, −1 when absent. */
  private resultAt: Int32Array;
  /** Per position: the furthest result position of the pairs whose call sits there, −1 when none. */
  private reach: number[] = [];
  /** Positions of user messages that hold at least one tool_result, ascending. */
  resultMessages: number[] = [];
  /** Tool_use ids seen again after their first occurrence (duplicates need a full pairing check). */
  duplicateUses = 0;
  /** Tool_result ids seen again (a splice that removes the first must find the next: rebuild instead). */
  duplicateResults = 0;
  /** Numbers outside [live, end) have no entry (a thread numbers ids in order and a history holds a recent
   *  stretch of them): a splice looks only at this range, not at every id of a long thread. */
  private live = Number.MAX_SAFE_INTEGER;
  private end = 0;

  constructor(private readonly ids: ToolIds) {
    this.callAt = new Int32Array(ids.size).fill(-1);
    this.resultAt = new Int32Array(ids.size).fill(-1);
  }

  /** Index the message appended at `pos` (the end), whose blocks' tool ids are `refs`. */
  add(m: Message, pos: number, refs: BlockRefs): void {
    this.reach.push(-1);
    if (refs.length === 0) return;
    if (this.callAt.length < this.ids.size) {
      this.callAt = grownTo(this.callAt, this.ids.size, -1);
      this.resultAt = grownTo(this.resultAt, this.ids.size, -1);
    }
    let hasResult = false;
    const blocks = m.blocks;
    for (let j = 0; j < blocks.length; j++) {
      const n = refs[j];
      if (n < 0) continue; // not a tool block
      const type = blocks[j].type;
      if (n < this.live) this.live = n;
      if (n >= this.end) this.end = n + 1;
      if (type === 'tool_use' && m.role === 'assistant') {
        // A result appended before its call never forms a pair that a cut could split (use < result).
        if (this.callAt[n] < 0) this.callAt[n] = pos;
        else this.duplicateUses++;
      } else if (type === 'tool_result') {
        hasResult = true;
        if (this.resultAt[n] >= 0) {
          this.duplicateResults++;
          continue;
        }
        this.resultAt[n] = pos;
        const u = this.callAt[n];
        if (u >= 0 && u < pos && this.reach[u] < pos) this.reach[u] = pos;
      }
    }
    if (hasResult && m.role === 'user') this.resultMessages.push(pos);
  }

  callPositionOf(n: number): number {
    return n < this.callAt.length ? this.callAt[n] : -1;
  }

  resultPositionOf(n: number): number {
    return n < this.resultAt.length ? this.resultAt[n] : -1;
  }

  /** The furthest result position of the pairs whose call sits at `pos` (−1 when none). */
  reachAt(pos: number): number {
    return this.reach[pos];
  }

  /**
   * Positions [start, end) were removed and `inserted` messages without tool blocks put in their place:
   * entries inside the range leave, entries after it shift. Returns how many tool-result messages preceded
   * the cut and how many it removed. `messageAt`/`refsAt` read the history as it is after the splice.
   */
  splice(
    start: number,
    end: number,
    inserted: number,
    messageAt: (pos: number) => Message,
    refsAt: (pos: number) => BlockRefs,
  ): { lo: number; removed: number } {
    const shift = inserted - (end - start);
    // Both columns in one pass over the live numbers.
    const { callAt, resultAt } = this;
    for (let n = this.live; n < this.end; n++) {
      const c = callAt[n];
      if (c >= end) callAt[n] = c + shift;
      else if (c >= start) callAt[n] = -1;
      const r = resultAt[n];
      if (r >= end) resultAt[n] = r + shift;
      else if (r >= start) resultAt[n] = -1;
    }
    while (this.live < this.end && this.callAt[this.live] < 0 && this.resultAt[this.live] < 0) this.live++;
    // Every list is moved in place: a summary splices a long history hundreds of times a run, and copies of its
    // per-position lists were a sixth of what a run allocated.
    const reach = this.reach;
    let stale: number[] | undefined;
    for (let u = 0; u < start; u++) {
      const r = reach[u];
      if (r >= end) reach[u] = r + shift;
      else if (r >= start) {
        // its furthest result left with the range: look again below
        stale ??= [];
        stale.push(u);
      }
    }
    for (let i = end; i < reach.length; i++) if (reach[i] >= 0) reach[i] += shift;
    spliceIn(reach, start, end - start, inserted === 0 ? NONE : new Array<number>(inserted).fill(-1));
    if (stale) for (const u of stale) reach[u] = this.reachOf(messageAt(u), u, refsAt(u));
    const list = this.resultMessages;
    let lo = 0;
    while (lo < list.length && list[lo] < start) lo++;
    let hi = lo;
    while (hi < list.length && list[hi] < end) hi++;
    for (let i = hi; i < list.length; i++) list[i] += shift;
    if (hi > lo) list.splice(lo, hi - lo);
    const removed = hi - lo;
    return { lo, removed };
  }

  /** The reach of the calls at `u`, from the current positions. */
  private reachOf(m: Message, u: number, refs: BlockRefs): number {
    let reach = -1;
    if (m.role !== 'assistant') return reach;
    for (let j = 0; j < refs.length; j++) {
      if (m.blocks[j].type !== 'tool_use' || this.callAt[refs[j]] !== u) continue;
      const r = this.resultAt[refs[j]];
      if (r > u && r > reach) reach = r;
    }
    return reach;
  }
}
