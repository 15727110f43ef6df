// An SQLite database as a parser's input (formats/index.ts): its bytes read once into memory, its `-wal` companion's
// committed frames applied (sqlite.ts), opened read-only through the platform's opener, and what detection sees of
// it (its tables). A database larger than the document limit is refused, as a JSON document of that size is: the
// engine holds it whole.
import { formatBytes } from '../lib/bytes.ts';
import { applyWal, type SqliteDb, type SqliteOpener } from './sqlite.ts';
import type { SourceFile } from './types.ts';

export type OpenedDatabase = { db: SqliteDb; note?: string };

function allBytes(f: SourceFile): Uint8Array {
  const out = new Uint8Array(f.size);
  let at = 0;
  for (const c of f.chunks()) {
    const take = Math.min(c.length, out.length - at);
    out.set(c.subarray(0, take), at);
    at += take;
  }
  return at === out.length ? out : out.subarray(0, at);
}

/** The database of `main` (with its `-wal` among `extra`), or why it cannot be opened. */
export function openDatabase(
  main: SourceFile,
  extra: readonly SourceFile[],
  opener: SqliteOpener | undefined,
  maxBytes: number,
): OpenedDatabase | string {
  if (!opener) return 'is an SQLite database, and this build of Tierscope has no SQLite engine loaded to read it';
  if (main.size > maxBytes)
    return `is an SQLite database of ${formatBytes(main.size)}, over the ${formatBytes(maxBytes)} a database may be (it is read whole)`;
  const walFile = extra.find((f) => f.name.endsWith('-wal'));
  const wal = walFile ? allBytes(walFile) : undefined;
  const applied = applyWal(allBytes(main), wal);
  try {
    const db = opener(applied.bytes);
    db.rows('SELECT name FROM sqlite_master LIMIT 1');
    const note = applied.note
      ? walFile
        ? `${walFile.name}: ${applied.note}`
        : applied.note
      : walFile && applied.frames > 0
        ? `${applied.frames} page(s) of committed changes read from ${walFile.name}`
        : undefined;
    return note ? { db, note } : { db };
  } catch (e) {
    return `starts like an SQLite database, but could not be opened: ${e instanceof Error ? e.message : String(e)}`;
  }
}

/** The database's table names, for detection. */
export function tablesOf(db: SqliteDb): string[] {
  try {
    return db.rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").map((r) => String(r.name));
  } catch {
    return [];
  }
}
