// The tool results of a thread as the replay's per-result records list them: each result's tool_use id, its
// tool id number and its message, first occurrence, thread order. The same on every run, so made once per thread
// and kept in the run's PipelineMemo.
import type { Thread } from '../model/transcript.ts';
import type { ToolIdTables } from './tool-ids.ts';

/** One tool result of a thread: its id, its tool id number and its message (first occurrence, thread order). */
export type ResultSite = { toolUseId: string; n: number; messageIndex: number };

/** Thread → its result sites (they do not change between runs). Owned by the run's PipelineMemo. Bound: the
 *  threads alive (a WeakMap). */
export class ResultSites {
  private readonly byThread = new WeakMap<Thread, ResultSite[]>();
  constructor(private readonly ids: ToolIdTables) {}

  of(thread: Thread): ResultSite[] {
    let sites = this.byThread.get(thread);
    if (!sites) {
      const table = this.ids.of(thread);
      const seen = new Set<string>();
      sites = [];
      for (const m of thread.messages)
        for (const b of m.blocks) {
          if (b.type !== 'tool_result' || seen.has(b.toolUseId)) continue;
          seen.add(b.toolUseId);
          sites.push({ toolUseId: b.toolUseId, n: table.of(b.toolUseId), messageIndex: m.index });
        }
      this.byThread.set(thread, sites);
    }
    return sites;
  }
}
