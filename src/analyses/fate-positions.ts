// A thread replay's result fates read by position instead of by tool id: on a long thread the fates map holds tens
// of thousands of ids, and looking each re-fetch and tool-result row up in it was the top of those analyses. A list
// of ids (a thread's repeats, its result rows) gets its positions in the fates' order once per thread; each run
// then reads its replay's fates as an array, checking the id at each position (a map of another order falls back
// to the lookup), so the answer is always the map's.
import type { Thread } from '../model/transcript.ts';
import type { ResultFate } from '../pipeline/fates.ts';
import type { ThreadReplay } from '../replay/types.ts';

/** What the positions keep: per thread and list, the positions; per replay, its fates as an array. */
export class FatePositions {
  /** Thread → the positions of its list's ids among its fates (−1: none). Bound: one per thread. */
  private readonly positions = new WeakMap<Thread, Int32Array>();
  /** Thread replay → its fates in the map's order. Bound: the replays alive. */
  private readonly lists = new WeakMap<ThreadReplay, ResultFate[]>();

  /** The fate in `tr` of each of a list of `n` ids fixed per thread (`idOf(i)`: the i-th), by index. */
  reader(
    thread: Thread,
    n: number,
    idOf: (i: number) => string,
    tr: ThreadReplay,
  ): (i: number) => ResultFate | undefined {
    let list = this.lists.get(tr);
    if (!list) {
      list = [...tr.fates.values()];
      this.lists.set(tr, list);
    }
    let pos = this.positions.get(thread);
    if (!pos || pos.length !== n) {
      const at = new Map<string, number>();
      list.forEach((f, k) => {
        if (!at.has(f.toolUseId)) at.set(f.toolUseId, k);
      });
      pos = new Int32Array(n);
      for (let i = 0; i < n; i++) pos[i] = at.get(idOf(i)) ?? -1;
      this.positions.set(thread, pos);
    }
    const fates = list;
    const p = pos;
    return (i) => {
      const k = p[i];
      const f = k >= 0 ? fates[k] : undefined;
      const id = idOf(i);
      return f !== undefined && f.toolUseId === id ? f : tr.fates.get(id);
    };
  }
}
