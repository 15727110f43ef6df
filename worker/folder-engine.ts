// The engine's folder methods (SPEC §6 Sessions): scan a dropped or picked folder into session rows (no
// tokenizing; src/sessions), keep them, and answer the table's queries — filter by date and project, sort by a
// column, totals per day — so the page renders what comes back. Files cross as Blobs (no copy) and are read one
// session at a time; a newer scan or cancelScan stops a scan between sessions with the rows so far.
import { fileFromBytes } from '../src/formats/index.ts';
import { dayTotals, filterRows, type SortKey, sortRows } from '../src/sessions/rows.ts';
import { type ScanResult, scanSessions } from '../src/sessions/scan.ts';
import type { FolderFile, ScanProgressInfo, ScanReply, SessionsQuery, SessionsView } from './api.ts';

export function createFolderMethods() {
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
      const blobs = new Map(files.map((f) => [f.path, f.file]));
      const result = await scanSessions(
        files.map((f) => ({ path: f.path, size: f.file.size })),
        {
          rootName,
          open: async (path, name) => {
            const blob = blobs.get(path);
            const bytes = blob ? new Uint8Array(await blob.arrayBuffer()) : new Uint8Array();
            return fileFromBytes(name, bytes);
          },
          progress: (p) => onProgress?.({ token, ...p }),
          cancelled: () => latest !== token || stopped === token,
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
          days: dayTotals(kept),
          total: scanned.rows.length,
          error: null,
        };
      } catch (e) {
        return { rows: [], days: [], total: scanned.rows.length, error: e instanceof Error ? e.message : String(e) };
      }
    },
  };
}
