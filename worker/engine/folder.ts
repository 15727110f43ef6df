// The engine's folder methods (SPEC §6 Sessions): scan a dropped or picked folder into session rows (no
// tokenizing; src/sessions), keep them, and answer the table's queries — filter by date and project, sort by a
// column, totals per day — so the page renders what comes back. Files cross as Blobs (no copy) and are read one
// session at a time; a newer scan or cancelScan stops a scan between sessions with the rows so far.
import { fileFromBytes } from '../../src/formats/index.ts';
import type { SqliteOpener } from '../../src/formats/sqlite.ts';
import { dayTotals, filterRows, type SortKey, sortRows } from '../../src/sessions/rows.ts';
import { type ScanResult, scanSessions } from '../../src/sessions/scan.ts';
import type { FolderFile, ScanProgressInfo, ScanReply, SessionsQuery, SessionsView } from '../api.ts';

/** A folder file's bytes: its Blob, or its same-origin URL fetched (nothing leaves the origin: the worker's fetch
 *  is bound to it). A file that cannot be read counts as empty, which the scan reports as not a session. */
async function bytesOf(f: FolderFile | undefined): Promise<Uint8Array> {
  if (f?.file) return new Uint8Array(await f.file.arrayBuffer());
  if (f?.url) {
    const res = await fetch(f.url);
    if (res.ok) return new Uint8Array(await res.arrayBuffer());
  }
  return new Uint8Array();
}

export function createFolderMethods(sqlite?: () => Promise<SqliteOpener>) {
  let latest = 0;
  let stopped = -1;
  let scanned: ScanResult | undefined;

  return {
    async scanFolder(
      token: number,
      files: FolderFile[],
      rootName: string,
      onProgress?: (p: ScanProgressInfo) => void,
    ): Promise<ScanReply> {
      latest = token;
      const byPath = new Map(files.map((f) => [f.path, f]));
      const result = await scanSessions(
        files.map((f) => ({ path: f.path, size: f.size })),
        {
          rootName,
          open: async (path, name) => fileFromBytes(name, await bytesOf(byPath.get(path))),
          progress: (p) => onProgress?.({ token, ...p }),
          cancelled: () => latest !== token || stopped === token,
          ...(sqlite ? { sqlite } : {}),
        },
      );
      if (latest !== token && !result.cancelled) return { token, stale: true };
      scanned = result;
      const projects = [...new Set(result.rows.map((r) => r.project))].sort();
      return {
        token,
        stale: false,
        sessions: result.rows.length,
        skipped: result.skipped,
        cancelled: result.cancelled,
        files: result.files,
        bytes: result.bytes,
        ms: result.ms,
        projects,
      };
    },

    async cancelScan(token: number): Promise<void> {
      stopped = token;
    },

    async sessions(q: SessionsQuery): Promise<SessionsView> {
      if (!scanned) return { rows: [], days: [], total: 0, error: null };
      try {
        const kept = filterRows(scanned.rows, { since: q.since, until: q.until, projects: q.projects });
        return {
          rows: sortRows(kept, q.sort as SortKey, q.dir),
          days: dayTotals(kept, { since: q.since, until: q.until }),
          total: scanned.rows.length,
          error: null,
        };
      } catch (e) {
        return { rows: [], days: [], total: scanned.rows.length, error: e instanceof Error ? e.message : String(e) };
      }
    },
  };
}
