// Scan a folder's sessions into rows (SPEC §6 Sessions, §8 `scan`): group the listing (layout.ts), parse each
// session with its companions, summarize it (summary.ts) without tokenizing. The bytes come through `open`, so the
// CLI reads from disk and the worker from a dropped folder's files; progress per session, cancellable between them.
import { openDatabase } from '../formats/database-input.ts';
import { DEFAULT_LIMITS, parseTranscript } from '../formats/index.ts';
import { opencodeSessions } from '../formats/opencode.ts';
import { fileIsSqlite, type SqliteOpener } from '../formats/sqlite.ts';
import type { SourceFile } from '../formats/types.ts';
import { pushAll } from '../lib/arrays.ts';
import type { Transcript } from '../model/transcript.ts';
import {
  type FolderEntry,
  isAgentLog,
  isRolloutName,
  type SessionFiles,
  sessionsOf,
  unreadAgentLogs,
} from './layout.ts';
import { rowMemo, type SessionRow, sessionRow } from './summary.ts';

export type ScanProgress = { done: number; total: number; bytes: number; path: string };

export type ScanOptions = {
  /** The folder's own name (the project of sessions at its top level). */
  rootName: string;
  /** A file of the listing, by its relative path (sync from disk, async from a browser File). */
  open: (path: string, name: string) => SourceFile | Promise<SourceFile>;
  progress?: (p: ScanProgress) => void;
  /** Checked between sessions: true stops the scan with the rows so far. */
  cancelled?: () => boolean;
  /** Loads the SQLite engine, the first time a database (opencode.db) is met. */
  sqlite?: () => Promise<SqliteOpener>;
  /** What an earlier scan made of this session, when its files are unchanged (the CLI's row cache): then the session
   *  is not read. */
  kept?: (s: SessionFiles) => ScanOutcome | undefined;
  /** What this scan made of a session it read (the CLI keeps it for the next scan). */
  made?: (s: SessionFiles, outcome: ScanOutcome) => void;
};

/** A session scanned: its row and the files its parser attached to it (Codex forks), or why it was skipped. */
export type ScanOutcome = { row: SessionRow; attached: string[] } | { skipped: string };

export type Skipped = { path: string; reason: string };

export type ScanResult = {
  rows: SessionRow[];
  /** Candidate files that are not sessions Tierscope reads (the reason is the loader's message). */
  skipped: Skipped[];
  cancelled: boolean;
  /** Files and bytes read (companions included), and the time it took (measured). */
  files: number;
  bytes: number;
  ms: number;
};

/** The project a session belongs to: Codex, opencode and Cline 4 name its working folder; else the folder the file
 *  sits in. */
function projectOf(t: Transcript, s: SessionFiles): string {
  const cwd = t.meta.extra?.cwd;
  if (
    (t.format === 'codex' || t.format === 'opencode' || t.format === 'cline') &&
    typeof cwd === 'string' &&
    cwd.trim()
  ) {
    const parts = cwd.split(/[\\/]+/).filter(Boolean);
    return parts[parts.length - 1] ?? cwd;
  }
  // Gemini CLI keeps a project's chats in tmp/<project hash or slug>/chats/.
  if (t.format === 'gemini-cli' && s.folder === 'chats') {
    const segs = s.path.split('/');
    return segs.length >= 3 ? segs[segs.length - 3] : s.folder;
  }
  return s.folder;
}

/** A database's sessions, each a row (its path `<file>#<session id>`), read from one opening of it. */
function databaseRows(
  main: SourceFile,
  extra: SourceFile[],
  s: SessionFiles,
  opener: SqliteOpener | undefined,
  memo: ReturnType<typeof rowMemo>,
): { rows: SessionRow[]; skipped: Skipped[] } {
  const opened = openDatabase(main, extra, opener, DEFAULT_LIMITS.maxDocumentBytes);
  if (typeof opened === 'string') return { rows: [], skipped: [{ path: s.path, reason: `${main.name} ${opened}.` }] };
  const rows: SessionRow[] = [];
  const skipped: Skipped[] = [];
  try {
    let sessions: { id: string }[];
    try {
      sessions = opencodeSessions(opened.db);
    } catch {
      return {
        rows,
        skipped: [{ path: s.path, reason: `${main.name} is an SQLite database, but not an opencode one` }],
      };
    }
    for (const { id } of sessions) {
      const loaded = parseTranscript(main, extra, { database: opened.db, session: id });
      const path = `${s.path}#${id}`;
      if (!loaded.ok) {
        skipped.push({ path, reason: loaded.error });
        continue;
      }
      const place = {
        path,
        companions: s.companions.map((c) => c.path),
        project: projectOf(loaded.transcript, s),
        bytes: s.size,
      };
      rows.push({ ...sessionRow(loaded.transcript, place, memo), session: id });
    }
  } finally {
    opened.db.close();
  }
  return { rows, skipped };
}

/** The companions a parsed session read: Codex children and Claude Code sub-agent files only when its parser
 *  attached them (a 2.0 project folder hands every session all its sibling agent files), a `.meta.json` with its
 *  agent file; every other companion as listed. */
function readCompanions(s: SessionFiles, mine: ReadonlySet<string>): SessionFiles['companions'] {
  return s.companions.filter((c) => {
    if (isRolloutName(c.name) || isAgentLog(c.name)) return mine.has(c.name);
    if (c.name.endsWith('.meta.json')) return mine.has(`${c.name.slice(0, -'.meta.json'.length)}.jsonl`);
    return true;
  });
}

export async function scanSessions(entries: readonly FolderEntry[], o: ScanOptions): Promise<ScanResult> {
  const t0 = Date.now();
  const sessions = sessionsOf(entries, o.rootName);
  const rows: SessionRow[] = [];
  const skipped: Skipped[] = [];
  let files = 0;
  let bytes = 0;
  let cancelled = false;
  const memo = rowMemo();
  let opener: SqliteOpener | undefined;
  /** Files a session's parser attached as its sub-agents (Codex forks): rows of their own no more. */
  const attached = new Set<string>();
  /** Companion files of the sessions read or skipped (what is left of the sub-agent logs is orphaned). */
  const accounted = new Set<string>();
  let total = sessions.length;

  const scanOne = async (s: SessionFiles, i: number, orphan = false): Promise<void> => {
    if (attached.has(s.path)) return;
    o.progress?.({ done: i, total, bytes, path: s.path });
    const was = o.kept?.(s);
    if (was) {
      if ('row' in was) {
        rows.push(was.row);
        for (const p of was.attached) attached.add(p);
        for (const p of was.row.companions) accounted.add(p);
      } else {
        skipped.push({ path: s.path, reason: was.skipped });
        for (const c of s.companions) accounted.add(c.path);
      }
      return;
    }
    const main = await o.open(s.path, s.path.slice(s.path.lastIndexOf('/') + 1));
    const extra: SourceFile[] = [];
    for (const c of s.companions) extra.push(await o.open(c.path, c.name));
    files += 1 + extra.length;
    bytes += main.size + extra.reduce((n, f) => n + f.size, 0);
    if (fileIsSqlite(main)) {
      opener ??= o.sqlite ? await o.sqlite() : undefined;
      const done = databaseRows(main, extra, s, opener, memo);
      pushAll(rows, done.rows);
      pushAll(skipped, done.skipped);
      for (const c of s.companions) accounted.add(c.path);
      return;
    }
    const loaded = parseTranscript(main, extra);
    if (!loaded.ok) {
      skipped.push({ path: s.path, reason: loaded.error });
      for (const c of s.companions) accounted.add(c.path);
      o.made?.(s, { skipped: loaded.error });
      return;
    }
    const t = loaded.transcript;
    const mine = new Set(t.meta.attached ?? []);
    const kept = readCompanions(s, mine);
    const mineAttached = kept.filter((c) => mine.has(c.name) && isRolloutName(c.name)).map((c) => c.path);
    for (const p of mineAttached) attached.add(p);
    for (const c of kept) accounted.add(c.path);
    const row = sessionRow(
      t,
      {
        path: s.path,
        companions: kept.map((c) => c.path),
        project: projectOf(t, s),
        bytes: s.size,
        orphan,
      },
      memo,
    );
    rows.push(row);
    o.made?.(s, { row, attached: mineAttached });
  };

  for (const [i, s] of sessions.entries()) {
    if (o.cancelled?.()) {
      cancelled = true;
      break;
    }
    await scanOne(s, i);
  }
  if (!cancelled) {
    const orphans = unreadAgentLogs(entries, o.rootName, accounted);
    total += orphans.length;
    for (const [i, s] of orphans.entries()) {
      if (o.cancelled?.()) {
        cancelled = true;
        break;
      }
      await scanOne(s, sessions.length + i, true);
    }
  }
  o.progress?.({
    done: cancelled ? rows.length + skipped.length : total,
    total,
    bytes,
    path: '',
  });
  // A child listed before its parent (names out of time order) is dropped once its parent attached it.
  const own = rows.filter((r) => !attached.has(r.path));
  return { rows: own, skipped, cancelled, files, bytes, ms: Date.now() - t0 };
}
