// `tierscope scan <dir> [--since D] [--until D] [--json|--ndjson|--csv]` (SPEC §8): every session of a folder
// (Claude Code projects, Codex sessions, Inspect logs) as one row, read from disk without tokenizing; a folder of
// more than a few MB on a machine with cores to spare is scanned by helper threads too (scan-parallel.ts).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileFromBytes } from '../formats/index.ts';
import { sessionsOf } from '../sessions/layout.ts';
import { dayTotals, filterRows, sortRows } from '../sessions/rows.ts';
import { type ScanResult, scanSessions } from '../sessions/scan.ts';
import type { SessionRow } from '../sessions/summary.ts';
import { option, type ParsedArgs, UsageError } from './args.ts';
import { listFolder } from './node-folder.ts';
import { scanCsv, scanRecord, scanText } from './scan-output.ts';
import { type StartHelper, scanParallel } from './scan-parallel.ts';

type Io = {
  out: (s: string) => void;
  err: (s: string) => void;
  json: (s: string) => void;
  /** Starts a helper thread (the built CLI's entry); absent, the scan runs on this thread only. */
  startHelper?: StartHelper;
};

/** Bytes per helper thread: below this a helper's start (~50 ms) costs more than the share of parsing it takes. */
const BYTES_PER_HELPER = 2 << 20;
const MAX_HELPERS = 7;

/** `--threads N`: how many threads parse (this one included); by default one per 2 MB, at most one per core. */
function threadsOption(args: ParsedArgs): number | undefined {
  const v = option(args, 'threads');
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > MAX_HELPERS + 1)
    throw new UsageError(`--threads takes a whole number from 1 to ${MAX_HELPERS + 1} (got "${v}")`);
  return n;
}

/** The folder's sessions as rows, on this thread alone or with helper threads (the same rows either way). */
async function scanFolder(root: string, io: Io, threads: number | undefined): Promise<ScanResult> {
  const entries = listFolder(root);
  const rootName = basename(root);
  const bytes = entries.reduce((n, e) => n + e.size, 0);
  const helpers =
    threads !== undefined
      ? threads - 1
      : Math.min(availableParallelism() - 1, MAX_HELPERS, Math.floor(bytes / BYTES_PER_HELPER) - 1);
  if (io.startHelper && helpers > 0) {
    const sizes = new Map(entries.map((e) => [e.path, e.size]));
    const size = (path: string) => sizes.get(path) ?? 0;
    return scanParallel(root, sessionsOf(entries, rootName), size, helpers, io.startHelper);
  }
  return scanSessions(entries, {
    rootName,
    // Each file read once, whole (a session at a time): detection and parsing then read memory, not the disk.
    open: (path, name) => fileFromBytes(name, readFileSync(join(root, path))),
  });
}

export async function scanCommand(args: ParsedArgs, io: Io): Promise<number> {
  const dir = args.positional[0];
  if (!dir) throw new UsageError('scan needs a folder');
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`no such folder: ${dir}`);
  const modes = ['json', 'ndjson', 'csv'].filter((m) => args.switches.has(m));
  if (modes.length > 1) throw new UsageError(`choose one of --json, --ndjson, --csv (got ${modes.join(', ')})`);
  const threads = threadsOption(args);
  const root = resolve(dir);
  const result = await scanFolder(root, io, threads);
  let kept: SessionRow[];
  try {
    kept = filterRows(result.rows, { since: option(args, 'since'), until: option(args, 'until') });
  } catch (e) {
    throw new UsageError(`--since/--until: ${e instanceof Error ? e.message : String(e)}`);
  }
  const rows = sortRows(kept, 'start', 'desc');
  if (modes[0] === 'json') {
    const body = { sessions: rows.map(scanRecord), skipped: result.skipped, days: dayTotals(rows) };
    io.json(JSON.stringify(body, null, 2));
  } else if (modes[0] === 'ndjson') {
    for (const r of rows) io.json(JSON.stringify(scanRecord(r)));
  } else if (modes[0] === 'csv') io.json(scanCsv(rows));
  else io.out(scanText(result, rows, dayTotals(rows), dir));
  for (const s of modes.length > 0 ? result.skipped : []) io.err(`tierscope: skipped ${s.path}: ${s.reason}`);
  return 0;
}
