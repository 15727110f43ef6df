// Which request produced each message of a thread (the last request whose input ends at or before it; 0 before
// the first): the replay's summaries tag what they fold with it, and a followed session's growth may keep the run
// cache only while it stays the same for the earlier messages (cache.ts carries).
import { firstIndex } from '../lib/search.ts';
import type { Thread } from '../model/transcript.ts';

/** Thread message index → the request that produced it (the last request whose input ends at or before the
 *  message; 0 before the first): a table per thread (cache.requestTables), so summaries tag thousands of items
 *  without searching. */
function searchIndexer(ends: readonly number[]): (messageIndex: number) => number {
  return (mi: number) => Math.max(0, firstIndex(ends.length, (i) => ends[i] > mi) - 1);
}
export function requestIndexer(thread: Thread, tables: WeakMap<Thread, Int32Array>): (messageIndex: number) => number {
  const ends = thread.requests.map((r) => r.inputEnd);
  if (ends.some((e, k) => k > 0 && e < ends[k - 1])) return searchIndexer(ends); // out of order: search
  let table = tables.get(thread);
  if (!table) {
    table = new Int32Array(thread.messages.length);
    let r = 0;
    for (let mi = 0; mi < table.length; mi++) {
      while (r + 1 < thread.requests.length && thread.requests[r + 1].inputEnd <= mi) r++;
      table[mi] = thread.requests.length > 0 && thread.requests[0].inputEnd <= mi ? r : 0;
    }
    tables.set(thread, table);
  }
  const t = table;
  const last = Math.max(0, thread.requests.length - 1);
  return (mi: number) => (mi < 0 ? 0 : mi < t.length ? t[mi] : last);
}
