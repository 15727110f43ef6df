// `tierscope scan <dir> [--since D] [--until D] [--json|--ndjson|--csv]` (SPEC §8): every session of a folder
// (Claude Code projects, Codex sessions, Inspect logs, Gemini CLI chats, Cline/Roo tasks, opencode databases) as one row, read from disk without tokenizing.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileFromBytes } from '../formats/index.ts';
import { dayTotals, filterRows, sortRows } from '../sessions/rows.ts';
import { scanSessions } from '../sessions/scan.ts';
import type { SessionRow } from '../sessions/summary.ts';
import { option, type ParsedArgs, UsageError } from './args.ts';
import { listFolder } from './node-folder.ts';
import { cacheDir, RowCache } from './row-cache.ts';
import { scanCsv, scanRecord, scanText } from './scan-output.ts';
import { nodeSqlite } from './sqlite-node.ts';

type Io = { out: (s: string) => void; err: (s: string) => void; json: (s: string) => void };

export async function scanCommand(args: ParsedArgs, io: Io): Promise<number> {
  const dir = args.positional[0];
  if (!dir) throw new UsageError('scan needs a folder');
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`no such folder: ${dir}`);
  const modes = ['json', 'ndjson', 'csv'].filter((m) => args.switches.has(m));
  if (modes.length > 1) throw new UsageError(`choose one of --json, --ndjson, --csv (got ${modes.join(', ')})`);
  const root = resolve(dir);
  const listing = listFolder(root);
  // Rows of unchanged sessions come from the last scan of this folder (row-cache.ts), unless --no-cache.
  const cache = args.switches.has('no-cache')
    ? undefined
    : new RowCache(
        option(args, 'cache-dir') ?? cacheDir(),
        root,
        basename(root),
        new Map(listing.map((e) => [e.path, e.stamp])),
      );
  const result = await scanSessions(listing, {
    rootName: basename(root),
    // Each file read once, whole (a session at a time): detection and parsing then read memory, not the disk.
    open: (path, name) => fileFromBytes(name, readFileSync(join(root, path))),
    sqlite: nodeSqlite,
    kept: cache && ((s) => cache.get(s)),
    made: cache && ((s, outcome) => cache.put(s, outcome)),
  });
  cache?.save();
  let kept: SessionRow[];
  const bounds = { since: option(args, 'since'), until: option(args, 'until') };
  try {
    kept = filterRows(result.rows, bounds);
  } catch (e) {
    throw new UsageError(`--since/--until: ${e instanceof Error ? e.message : String(e)}`);
  }
  const rows = sortRows(kept, 'start', 'desc');
  if (modes[0] === 'json') {
    const body = { sessions: rows.map(scanRecord), skipped: result.skipped, days: dayTotals(rows, bounds) };
    io.json(JSON.stringify(body, null, 2));
  } else if (modes[0] === 'ndjson') {
    for (const r of rows) io.json(JSON.stringify(scanRecord(r)));
  } else if (modes[0] === 'csv') io.json(scanCsv(rows));
  else io.out(scanText(result, rows, dayTotals(rows, bounds), dir));
  for (const s of modes.length > 0 ? result.skipped : []) io.err(`tierscope: skipped ${s.path}: ${s.reason}`);
  return 0;
}
