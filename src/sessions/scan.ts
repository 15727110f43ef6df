// Scan a folder's sessions into rows (SPEC §6 Sessions, §8 `scan`): group the listing (layout.ts), parse each
// session with its companions, summarize it (summary.ts) without tokenizing. The bytes come through `open`, so the
// CLI reads from disk and the worker from a dropped folder's files; progress per session, cancellable between them.
import { parseTranscript } from '../formats/index.ts';
import type { SourceFile } from '../formats/types.ts';
import type { Transcript } from '../model/transcript.ts';
import { type FolderEntry, isRolloutName, type SessionFiles, sessionsOf } from './layout.ts';
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
};

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

/** The project a session belongs to: Codex names its working folder; else the folder the file sits in. */
function projectOf(t: Transcript, s: SessionFiles): string {
  const cwd = t.meta.extra?.cwd;
  if (t.format === 'codex' && typeof cwd === 'string' && cwd.trim()) {
    const parts = cwd.split(/[\\/]+/).filter(Boolean);
    return parts[parts.length - 1] ?? cwd;
  }
  return s.folder;
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
  /** Files a session's parser attached as its sub-agents (Codex forks): rows of their own no more. */
  const attached = new Set<string>();
  for (const [i, s] of sessions.entries()) {
    if (o.cancelled?.()) {
      cancelled = true;
      break;
    }
    if (attached.has(s.path)) continue;
    o.progress?.({ done: i, total: sessions.length, bytes, path: s.path });
    const main = await o.open(s.path, s.path.slice(s.path.lastIndexOf('/') + 1));
    const extra: SourceFile[] = [];
    for (const c of s.companions) extra.push(await o.open(c.path, c.name));
    files += 1 + extra.length;
    bytes += main.size + extra.reduce((n, f) => n + f.size, 0);
    const loaded = parseTranscript(main, extra);
    if (!loaded.ok) {
      skipped.push({ path: s.path, reason: loaded.error });
      continue;
    }
    const t = loaded.transcript;
    const mine = new Set(t.meta.attached ?? []);
    const kept = s.companions.filter((c) => !isRolloutName(c.name) || mine.has(c.name));
    for (const c of kept) if (mine.has(c.name)) attached.add(c.path);
    rows.push(
      sessionRow(
        t,
        {
          path: s.path,
          companions: kept.map((c) => c.path),
          project: projectOf(t, s),
          bytes: s.size,
        },
        memo,
      ),
    );
  }
  o.progress?.({
    done: cancelled ? rows.length + skipped.length : sessions.length,
    total: sessions.length,
    bytes,
    path: '',
  });
  // A child listed before its parent (names out of time order) is dropped once its parent attached it.
  const own = rows.filter((r) => !attached.has(r.path));
  return { rows: own, skipped, cancelled, files, bytes, ms: Date.now() - t0 };
}
