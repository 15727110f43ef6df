// The sessions of an opened folder (SPEC §6 Sessions): the scan runs in the engine (progress, cancel), the table
// asks the engine for its rows per query (date range, projects, sort) and renders them. The folder's files stay
// here as Blobs (never read on this thread until a session is opened); opening one loads it with its sub-agents,
// and follows them as they grow when they can be read again (a served folder, the directory picker's handles).
import { create } from 'zustand';
import type { FolderFile, ScanReply, SessionRow, SessionsQuery, SessionsView, TableView } from '../protocol/index.ts';
import { SORT_KEYS, type SortKey } from '../protocol/index.ts';
import { engine } from './engine-client.ts';
import { openFollowed, useFollow } from './follow.ts';
import { type DirHandle, type FileHandle, type FileTail, handleTail, urlTail } from './growing-file.ts';
import { useStore } from './store.ts';
import type { Restore } from './types.ts';

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
  /** A session of the table is being opened (its files read, then loaded): the URL waits for it. */
  opening: boolean;
  /** The folder is the one `tierscope serve` serves (a reload lists it again; a picked or dropped folder is gone
   *  after a reload: browsers hand a folder to a page only when the user picks or drops it). */
  served: boolean;
  error: string | null;
  folderActions: {
    /** `handles`: the directory picker's handles by path, so sessions opened from it can be followed; `table`: the
     *  sort, filters and session to show (a reload or history entry of a served folder). */
    openFolder(
      files: FolderFile[],
      rootName: string,
      handles?: Map<string, FileHandle | DirHandle>,
      table?: TableView,
    ): Promise<void>;
    cancel(): void;
    setQuery(q: Partial<SessionsQuery>): Promise<void>;
    show(shown: boolean): void;
    /** Open a session of the table (`restore`: the view a history entry or reload brings with it). */
    openSession(row: SessionRow, restore?: Restore): Promise<void>;
    /** Open the session at `path` in the folder (a history entry or reload); false when the folder has none. */
    openPath(path: string, restore?: Restore): Promise<boolean>;
    /** A database file (opencode.db, with its -wal) dropped or picked: its sessions in the table, or the session
     *  itself when it holds one. */
    openDatabase(files: File[]): Promise<void>;
    /** The folder `tierscope serve` serves (the page was opened with `?folder=1`); `open`: the file of it to open
     *  (`tierscope <file>`), as a session with its sub-agents when the scan finds it one, else as a file; `table`:
     *  the sort and filters a reload or history entry brings. */
    openServed(open?: string, table?: TableView): Promise<void>;
    /** Show a table view (a history entry): shown or not, its sort and filters. */
    applyTable(table: TableView): Promise<void>;
  };
};

/** The table's view as the URL carries it. */
export function tableOf(f: Pick<FolderState, 'shown' | 'opened' | 'query'>): TableView {
  const q = f.query;
  return {
    shown: f.shown,
    // The session on screen (the table's own page does not name the one opened last).
    session: f.shown ? null : f.opened,
    since: q.since,
    until: q.until,
    projects: q.projects,
    sort: q.sort,
    dir: q.dir,
  };
}

/** The query of a table view; a column this build does not have sorts by start. */
function queryOf(t: TableView): SessionsQuery {
  const sort = (SORT_KEYS as readonly string[]).includes(t.sort) ? (t.sort as SortKey) : INITIAL_QUERY.sort;
  return { since: t.since, until: t.until, projects: [...t.projects], sort, dir: t.dir };
}

/** Where `tierscope serve` lists its folder and sends a file of it (src/cli/serve-http.ts). */
const LIST_PATH = '/_folder/list';
const servedUrl = (path: string) => `/_folder/file/${path.split('/').map(encodeURIComponent).join('/')}`;

const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
const baseOf = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/** Whether `path` is a sub-agent file of the session at `session`, as the scan pairs them (sessions/layout.ts):
 *  `<dir>/<id>/subagents/*.jsonl|*.meta.json`, or a 2.0.x sibling `<dir>/agent-*.jsonl`. */
function companionOf(session: string, path: string): boolean {
  const dir = dirOf(session);
  const sub = `${dir ? `${dir}/` : ''}${baseOf(session).replace(/\.jsonl$/, '')}/subagents`;
  if (dirOf(path) === sub) return path.endsWith('.jsonl') || path.endsWith('.meta.json');
  return dirOf(path) === dir && /^agent-.*\.jsonl$/.test(baseOf(path));
}

const INITIAL_QUERY: SessionsQuery = { since: null, until: null, projects: [], sort: 'start', dir: 'desc' };

export const useFolder = create<FolderState>()((set, get) => {
  /** The opened folder's files by path (frozen reference, outside the rendered state). */
  let files = new Map<string, FolderFile>();
  /** The directory picker's handles by path, files and folders (read again to follow a session). */
  let handles = new Map<string, FileHandle | DirHandle>();

  /** Where a folder file's bytes can be read again as it grows: its handle, or its URL on the server. */
  function tailOf(path: string): FileTail | null {
    const h = handles.get(path);
    if (h?.kind === 'file') return handleTail(h);
    const url = files.get(path)?.url;
    return url ? urlTail(url) : null;
  }

  /** The files that may be the session's sub-agents as the folder is now: the server's listing, or the
   *  session's folder read again through the picker's handle (its files, `<id>/subagents/`). */
  async function filesNow(session: string): Promise<Map<string, FileTail>> {
    const out = new Map<string, FileTail>();
    const dir = dirOf(session);
    const id = baseOf(session).replace(/\.jsonl$/, '');
    const h = handles.get(dir);
    if (h?.kind === 'directory') {
      const walk = async (d: DirHandle, prefix: string, depth: number): Promise<void> => {
        for await (const e of d.values()) {
          const p = prefix ? `${prefix}/${e.name}` : e.name;
          if (e.kind === 'file') out.set(p, handleTail(e));
          else if (depth > 0 && e.name === (depth === 2 ? id : 'subagents')) await walk(e, p, depth - 1);
        }
      };
      await walk(h, dir, 2);
    } else if (files.get(session)?.url) {
      const res = await fetch(LIST_PATH, { cache: 'no-store' });
      if (!res.ok) return out;
      const listing: { files: { path: string }[] } = await res.json();
      for (const f of listing.files) out.set(f.path, urlTail(servedUrl(f.path)));
    }
    return out;
  }

  /** A folder file as a File named `name` (a Blob as it is; a served file fetched from this origin). */
  async function fileOf(path: string, name: string): Promise<File | null> {
    const f = files.get(path);
    if (f?.file) return new File([f.file], name);
    if (!f?.url) return null;
    const res = await fetch(f.url, { cache: 'no-store' });
    return res.ok ? new File([await res.arrayBuffer()], name) : null;
  }

  async function refresh(): Promise<void> {
    const q = get().query;
    const view = await engine().sessions(q);
    if (get().query === q) set({ view });
  }

  /** A transcript opened from elsewhere while the table is shown (a drop, the file picker, paste, a sample, a link)
   *  takes the screen once it has loaded; a load that fails leaves the table where it is. */
  let leaveTable = false;
  useStore.subscribe((st, prev) => {
    const t = st.transcript;
    if (t.status === 'loading' && prev.transcript.status !== 'loading')
      leaveTable = get().shown && t.source?.kind !== 'session';
    else if (t.doc !== prev.transcript.doc && t.doc !== null) {
      if (leaveTable) set({ shown: false });
      leaveTable = false;
    } else if (t.status !== 'loading') leaveTable = false;
  });

  /** Open a session of the table with its sub-agents: followed as it grows when its files can be read again (a
   *  served folder, the directory picker's handles), else loaded as the browser handed its files over. */
  async function openRow(row: SessionRow, restore?: Restore): Promise<void> {
    // A session of a file that holds several (a database) is `<file>#<session id>`.
    const path = row.session ? row.path.slice(0, row.path.length - row.session.length - 1) : row.path;
    const name = path.slice(path.lastIndexOf('/') + 1);
    const id = name.replace(/\.jsonl$/, '');
    // Companions named as the parser expects them beside the session (cli/node-input.ts does the same).
    const companionName = (p: string) => {
      const base = p.slice(p.lastIndexOf('/') + 1);
      return p.includes('/subagents/') || p.startsWith('subagents/') ? `${id}/subagents/${base}` : base;
    };
    const follow = useFollow.getState().followActions;
    follow.stop();
    const source = { kind: 'session' as const, name: row.path, ...(row.session ? { session: row.session } : {}) };
    // A database is read whole, never followed.
    const main = row.session ? null : tailOf(row.path);
    if (main) {
      // A served session, or one from the directory picker, is followed as it grows with its sub-agent files:
      // shown up to the last complete line of each, the rest when it ends.
      const companions = row.companions.flatMap((p) => {
        const tail = tailOf(p);
        return tail ? [{ name: companionName(p), tail }] : [];
      });
      // Sub-agents started after the session was opened are found as they appear.
      const discover = async (known: ReadonlySet<string>) =>
        [...(await filesNow(row.path))]
          .filter(([p]) => companionOf(row.path, p) && !known.has(companionName(p)))
          .map(([p, tail]) => ({ name: companionName(p), tail }));
      set({ shown: false, opened: row.path });
      if (await openFollowed({ main: { name, tail: main }, companions, source, discover, restore })) return;
    }
    // Files the browser handed over as they were (a dropped folder, the webkitdirectory input) cannot grow.
    const companions = (await Promise.all(row.companions.map((p) => fileOf(p, companionName(p))))).filter(
      (f): f is File => f !== null,
    );
    const file = await fileOf(path, name);
    if (!file) return;
    set({ shown: false, opened: row.path });
    await useStore.getState().transcriptActions.loadFiles([file, ...companions], source, undefined, restore);
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
    opening: false,
    served: false,
    error: null,
    folderActions: {
      async openFolder(list, rootName, picked, table) {
        const token = get().token + 1;
        files = new Map(list.map((f) => [f.path, f]));
        handles = picked ?? new Map();
        const served = list.some((f) => f.url !== undefined);
        set({ status: 'scanning', rootName, token, progress: { done: 0, total: 0, path: '' }, scan: null, view: null });
        set({
          shown: table?.shown ?? true,
          opened: null,
          served,
          error: null,
          query: table ? queryOf(table) : INITIAL_QUERY,
        });
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
      async openDatabase(list) {
        const [main] = list;
        if (!main) return;
        await get().folderActions.openFolder(
          list.map((f) => ({ path: f.name, size: f.size, file: f })),
          main.name,
        );
        const rows = get().view?.rows ?? [];
        if (get().status === 'done' && get().scan?.sessions === 1 && rows[0])
          await get().folderActions.openSession(rows[0]);
      },
      async applyTable(table) {
        const q = queryOf(table);
        const now = get().query;
        set({ shown: table.shown });
        if (JSON.stringify(q) !== JSON.stringify(now)) await get().folderActions.setQuery(q);
      },
      async openPath(path, restore) {
        const row = get().view?.rows.find((r) => r.path === path);
        if (row) {
          await get().folderActions.openSession(row, restore);
          return true;
        }
        // A database's session is `<file>#<session id>`: its file is the one the folder holds.
        const file = path.replace(/#[^/]*$/, '');
        if (!files.has(path) && !files.has(file)) return false;
        // Not among the rows the filters show: the session's own file, with the companions the scan paired.
        const all = await engine().sessions({ ...INITIAL_QUERY });
        const found = all.rows.find((r) => r.path === path);
        if (!found) return false;
        await get().folderActions.openSession(found, restore);
        return true;
      },
      async openSession(row, restore) {
        set({ opening: true });
        try {
          await openRow(row, restore);
        } finally {
          set({ opening: false });
        }
      },
      async openServed(open, table) {
        let listing: { root: string; files: { path: string; size: number }[] };
        try {
          const res = await fetch(LIST_PATH, { cache: 'no-store' });
          if (!res.ok) throw new Error(`${res.status} ${res.statusText}`);
          listing = await res.json();
        } catch (e) {
          set({ status: 'error', shown: true, error: `Could not list the served folder: ${String(e)}` });
          return;
        }
        const list = listing.files.map((f) => ({ path: f.path, size: f.size, url: servedUrl(f.path) }));
        await get().folderActions.openFolder(list, listing.root, undefined, table);
        if (open === undefined) return;
        const row = get().view?.rows.find((r) => r.path === open);
        if (row) return get().folderActions.openSession(row);
        set({ shown: false });
        await useStore.getState().transcriptActions.loadUrl(servedUrl(open), { kind: 'file', name: open });
      },
    },
  };
});
