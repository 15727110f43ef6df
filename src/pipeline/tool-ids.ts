// Tool_use ids of one thread interned to dense integers. Per-id bookkeeping of the working history and the
// stages (positions, tiers, spill Seen) then indexes typed arrays instead of hashing id strings on every
// request of every re-run (at 20,000 requests those lookups were a fifth of a re-run). One table per thread in
// the run's memo, so request plans can number their messages' blocks once.
import type { Message, Thread } from '../model/transcript.ts';

/** Per block of a message: its tool id's number (tool_use id, tool_result toolUseId), -1 for other blocks. */
export type BlockRefs = Int32Array;

/** The refs of a message without tool blocks (shared). */
export const NO_REFS: BlockRefs = new Int32Array(0);

export class ToolIds {
  private readonly nums = new Map<string, number>();
  private readonly list: string[] = [];
  /** By number: the tool name of the first tool_use in an assistant message with that id. */
  private readonly names: (string | undefined)[] = [];

  /** How many ids are numbered (numbers are 0 … size − 1). */
  get size(): number {
    return this.list.length;
  }

  /** The number of `id`, numbering it if it is new. */
  of(id: string): number {
    let n = this.nums.get(id);
    if (n === undefined) {
      n = this.list.length;
      this.list.push(id);
      this.nums.set(id, n);
    }
    return n;
  }

  /** The number of `id`, or undefined if it was never numbered. */
  get(id: string): number | undefined {
    return this.nums.get(id);
  }

  /** The tool name of `id`'s first call seen (in the thread, for a thread's table), if any. */
  name(id: string): string | undefined {
    const n = this.nums.get(id);
    return n === undefined ? undefined : this.names[n];
  }

  /** The id numbered `n`. */
  id(n: number): string {
    return this.list[n];
  }

  /** Numbers of a message's tool blocks (NO_REFS when it has none). */
  refsOf(m: Message): BlockRefs {
    let refs: BlockRefs = NO_REFS;
    const blocks = m.blocks;
    for (let j = 0; j < blocks.length; j++) {
      const b = blocks[j];
      const id = b.type === 'tool_use' ? b.id : b.type === 'tool_result' ? b.toolUseId : undefined;
      if (id === undefined) continue;
      if (refs === NO_REFS) refs = new Int32Array(blocks.length).fill(-1);
      const n = this.of(id);
      refs[j] = n;
      if (b.type === 'tool_use' && m.role === 'assistant' && this.names[n] === undefined) this.names[n] = b.name;
    }
    return refs;
  }
}

/** The id table of every thread of a run (PipelineMemo): made once per thread, every id of its messages
 *  numbered in order of first appearance; a thread's messages never change, so its table never goes stale. */
export class ToolIdTables {
  private readonly tables = new WeakMap<Thread, ToolIds>();

  /** The table of `thread` if one was made. */
  peek(thread: Thread): ToolIds | undefined {
    return this.tables.get(thread);
  }

  /** `table` (an earlier read of the thread, replay/cache.ts carries) becomes `thread`'s, numbering the ids of its
   *  messages from `from` on (the earlier ones are that read's: numbered already): numbers already handed out stay
   *  valid for the grown thread. */
  share(thread: Thread, table: ToolIds, from = 0): void {
    for (let i = from; i < thread.messages.length; i++) table.refsOf(thread.messages[i]);
    this.tables.set(thread, table);
  }

  of(thread: Thread): ToolIds {
    let t = this.tables.get(thread);
    if (!t) {
      t = new ToolIds();
      for (const m of thread.messages) t.refsOf(m);
      this.tables.set(thread, t);
    }
    return t;
  }
}

/** `a` grown to at least `size` entries, new ones set to `fill` (the same array when big enough). */
export function grownTo<T extends Int32Array | Uint8Array>(a: T, size: number, fill: number): T {
  if (a.length >= size) return a;
  const next = new (a.constructor as new (n: number) => T)(Math.max(size, a.length * 2, 64));
  next.set(a);
  if (fill !== 0) next.fill(fill, a.length);
  return next;
}
