// The sessions of an opened folder (SPEC §6 Sessions): the scan runs in the engine (progress, cancel), the table
// asks the engine for its rows per query (date range, projects, sort) and renders them. The folder's files stay
// here as Blobs (never read on this thread until a session is opened); opening one loads it with its sub-agents.
import { create } from 'zustand';
import type { FolderFile, ScanReply, SessionRow, SessionsQuery, SessionsView } from '../../worker/api.ts';
import { engine } from './engine-client.ts';
import { useStore } from './store.ts';

type ScanDone = Extract<ScanReply, { stale: false }>;

export type FolderState = {
  status: 'idle' | 'scanning' | 'done' | 'error';
  rootName: string | null;
  token: number;
  progress: { done: number; total: number; path: string } | null;
  scan: ScanDone | null;
  query: SessionsQuery;
  view: SessionsView | null;
  /** The sessions page is shown (else the opened session is). */
  shown: boolean;
  /** The path of the session opened from the table. */
  opened: string | null;
  error: string | null;
  folderActions: {
    openFolder(files: FolderFile[], rootName: string): Promise<void>;
    cancel(): void;
    setQuery(q: Partial<SessionsQuery>): Promise<void>;
    show(shown: boolean): void;
    openSession(row: SessionRow): Promise<void>;
  };
};

const INITIAL_QUERY: SessionsQuery = { since: null, until: null, projects: [], sort: 'start', dir: 'desc' };

export const useFolder = create<FolderState>()((set, get) => {
  /** The opened folder's files by path (frozen reference, outside the rendered state). */
  let files = new Map<string, Blob>();

  async function refresh(): Promise<void> {
    const q = get().query;
    const view = await engine().sessions(q);
    if (get().query === q) set({ view });
  }

  return {
    status: 'idle',
    rootName: null,
    token: 0,
    progress: null,
    scan: null,
    query: INITIAL_QUERY,
    view: null,
    shown: false,
    opened: null,
    error: null,
    folderActions: {
      async openFolder(list, rootName) {
        const token = get().token + 1;
        files = new Map(list.map((f) => [f.path, f.file]));
        set({ status: 'scanning', rootName, token, progress: { done: 0, total: 0, path: '' }, scan: null, view: null });
        set({ shown: true, opened: null, error: null, query: INITIAL_QUERY });
        let reply: ScanReply;
        try {
          reply = await engine().scanFolder(token, list, rootName, (p) => {
            if (get().token === p.token) set({ progress: { done: p.done, total: p.total, path: p.path } });
          });
        } catch (e) {
          if (get().token === token) set({ status: 'error', error: e instanceof Error ? e.message : String(e) });
          return;
        }
        if (reply.stale || get().token !== token) return;
        set({ status: 'done', scan: reply, progress: null });
        await refresh();
      },
      cancel() {
        void engine().cancelScan(get().token);
      },
      async setQuery(q) {
        set({ query: { ...get().query, ...q } });
        await refresh();
      },
      show(shown) {
        set({ shown });
      },
      async openSession(row) {
        const main = files.get(row.path);
        if (!main) return;
        const name = row.path.slice(row.path.lastIndexOf('/') + 1);
        const id = name.replace(/\.jsonl$/, '');
        const companions = row.companions.flatMap((p) => {
          const blob = files.get(p);
          if (!blob) return [];
          const base = p.slice(p.lastIndexOf('/') + 1);
          const inSub = p.includes('/subagents/') || p.startsWith('subagents/');
          return [new File([blob], inSub ? `${id}/subagents/${base}` : base)];
        });
        set({ shown: false, opened: row.path });
        await useStore
          .getState()
          .transcriptActions.loadFiles([new File([main], name), ...companions], { kind: 'file', name: row.path });
      },
    },
  };
});
