// The tool results of a thread as the replay's per-result records list them: each result's tool_use id, its
// tool id number and its message, first occurrence, thread order. The same on every run, so made once per thread
// and kept in the run's PipelineMemo.
import type { Thread } from '../model/transcript.ts';
import type { ToolIds, ToolIdTables } from './tool-ids.ts';

/** One tool result of a thread: its id, its tool id number and its message (first occurrence, thread order). */
type ResultSite = { toolUseId: string; n: number; messageIndex: number };

/** A thread's result sites, its tool id table and, by tool id number, the site's position in `sites` (−1: none). */
export type SiteTable = { sites: readonly ResultSite[]; ids: ToolIds; siteOf: Int32Array };

/** Thread → its result sites (they do not change between runs). Owned by the run's PipelineMemo. Bound: the
 *  threads alive (a WeakMap). */
export class ResultSites {
  private readonly byThread = new WeakMap<Thread, SiteTable>();
  constructor(private readonly ids: ToolIdTables) {}

  of(thread: Thread): SiteTable {
    let t = this.byThread.get(thread);
    if (!t) {
      const ids = this.ids.of(thread);
      const seen = new Set<string>();
      const sites: ResultSite[] = [];
      for (const m of thread.messages)
        for (const b of m.blocks) {
          if (b.type !== 'tool_result' || seen.has(b.toolUseId)) continue;
          seen.add(b.toolUseId);
          sites.push({ toolUseId: b.toolUseId, n: ids.of(b.toolUseId), messageIndex: m.index });
        }
      const siteOf = new Int32Array(ids.size).fill(-1);
      sites.forEach((s, i) => {
        siteOf[s.n] = i;
      });
      t = { sites, ids, siteOf };
      this.byThread.set(thread, t);
    }
    return t;
  }
}
