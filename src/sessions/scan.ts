// Scan a folder's sessions into rows (SPEC §6 Sessions, §8 `scan`): group the listing (layout.ts), parse each
// session with its companions, summarize it (summary.ts) without tokenizing. The bytes come through `open`, so the
// CLI reads from disk and the worker from a dropped folder's files; progress per session, cancellable between them.
import { parseTranscript } from '../formats/index.ts';
import type { SourceFile } from '../formats/types.ts';
import type { Transcript } from '../model/transcript.ts';
import { type FolderEntry, type SessionFiles, sessionsOf } from './layout.ts';
import { type RowMemo, rowMemo, type SessionRow, sessionRow } from './summary.ts';

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
  /** Threads that parsed sessions, when more than one did (the CLI's helper threads, cli/scan-parallel.ts). */
  threads?: number;
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

/** What scanning one session gave: its row, or why it was skipped; and the files and bytes it read. */
export type SessionOutcome = { row?: SessionRow; skipped?: Skipped; files: number; bytes: number };

/** Parse one session with its companions and make its row (`memo`: the scan's; rows are the same without one). */
export async function scanSession(
  s: SessionFiles,
  open: ScanOptions['open'],
  memo: RowMemo = rowMemo(),
): Promise<SessionOutcome> {
  const main = await open(s.path, s.path.slice(s.path.lastIndexOf('/') + 1));
  const extra: SourceFile[] = [];
  for (const c of s.companions) extra.push(await open(c.path, c.name));
  const files = 1 + extra.length;
  const bytes = main.size + extra.reduce((n, f) => n + f.size, 0);
  const loaded = parseTranscript(main, extra);
  if (!loaded.ok) return { skipped: { path: s.path, reason: loaded.error }, files, bytes };
  const t = loaded.transcript;
  const place = { path: s.path, companions: s.companions.map((c) => c.path), project: projectOf(t, s), bytes: s.size };
  return { row: sessionRow(t, place, memo), files, bytes };
}

/** The scan's result from the outcomes of its sessions, in session order. */
export function collect(outcomes: readonly SessionOutcome[], cancelled: boolean, ms: number): ScanResult {
  const r: ScanResult = { rows: [], skipped: [], cancelled, files: 0, bytes: 0, ms };
  for (const o of outcomes) {
    if (o.row) r.rows.push(o.row);
    if (o.skipped) r.skipped.push(o.skipped);
    r.files += o.files;
    r.bytes += o.bytes;
  }
  return r;
}

export async function scanSessions(entries: readonly FolderEntry[], o: ScanOptions): Promise<ScanResult> {
  const t0 = Date.now();
  const sessions = sessionsOf(entries, o.rootName);
  const outcomes: SessionOutcome[] = [];
  let bytes = 0;
  let cancelled = false;
  const memo = rowMemo();
  for (const [i, s] of sessions.entries()) {
    if (o.cancelled?.()) {
      cancelled = true;
      break;
    }
    o.progress?.({ done: i, total: sessions.length, bytes, path: s.path });
    const outcome = await scanSession(s, o.open, memo);
    bytes += outcome.bytes;
    outcomes.push(outcome);
  }
  o.progress?.({ done: cancelled ? outcomes.length : sessions.length, total: sessions.length, bytes, path: '' });
  return collect(outcomes, cancelled, Date.now() - t0);
}
