// SQLite databases for the parsers that read one (opencode's `opencode.db`). The SQLite engine is sql.js (SQLite
// compiled to WebAssembly, MIT, maintained since 2014): it runs in Node without a native addon and in the browser's
// worker, and the platform that loads it (worker/sqlite-browser.ts with the `.wasm` served from this origin,
// cli/sqlite-node.ts) hands the core an opener. The database is read from a copy of its bytes in memory, so the
// user's file is never opened for writing. A database in WAL mode keeps its newest commits in `<name>-wal` until a
// checkpoint: those frames are applied to the copy here (the WAL format of sqlite.org/fileformat2.html §4: a
// 32-byte header with page size and salts, frames of a 24-byte header and one page, valid while their salts match
// the header and their cumulative checksum holds; committed up to the last frame whose "database size after commit"
// is set), and the copy is marked as a rollback-journal database, so SQLite reads it whole.

/** A database opened read-only from bytes. */
export type SqliteDb = {
  /** Every row of `sql` with `params`, as objects keyed by column name. */
  rows(sql: string, params?: (string | number | null)[]): Record<string, unknown>[];
  /** Each row of `sql`, one at a time (the statement is stepped, the rows are not all held). */
  each(sql: string, params: (string | number | null)[], row: (r: Record<string, unknown>) => void): void;
  close(): void;
};

/** Opens database bytes (the WAL already applied); throws when they are not a database it can read. */
export type SqliteOpener = (bytes: Uint8Array) => SqliteDb;

const MAGIC = 'SQLite format 3\0';

/** True when the bytes start with SQLite's file header string. */
export function isSqlite(head: Uint8Array): boolean {
  if (head.length < MAGIC.length) return false;
  for (let i = 0; i < MAGIC.length; i++) if (head[i] !== MAGIC.charCodeAt(i)) return false;
  return true;
}

/** True when a file starts like an SQLite database (its first chunk holds the 16-byte header string). */
export function fileIsSqlite(f: { chunks: () => Iterable<Uint8Array> }): boolean {
  for (const c of f.chunks()) return isSqlite(c);
  return false;
}

const u32 = (b: Uint8Array, at: number) => ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;

/** SQLite's WAL checksum over `b[from, to)` (8-byte steps), continuing from (s0, s1). */
function checksum(b: Uint8Array, from: number, to: number, s: [number, number], bigEndian: boolean): [number, number] {
  let [s0, s1] = s;
  for (let i = from; i < to; i += 8) {
    const x0 = bigEndian ? u32(b, i) : (b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24)) >>> 0;
    const x1 = bigEndian ? u32(b, i + 4) : (b[i + 4] | (b[i + 5] << 8) | (b[i + 6] << 16) | (b[i + 7] << 24)) >>> 0;
    s0 = (s0 + x0 + s1) >>> 0;
    s1 = (s1 + x1 + s0) >>> 0;
  }
  return [s0, s1];
}

/** A WAL-mode database read without its `-wal` file (a writer that closed cleanly checkpointed it: nothing lost). */
export const NO_WAL =
  'a WAL-mode database read without its -wal file: what was committed since the last checkpoint, if anything, is not in it (drop or put the -wal file beside it)';

export type WalApplied = { bytes: Uint8Array; frames: number; note?: string };

/** The database with the WAL's committed frames applied (a new array; `main` is not changed). */
export function applyWal(main: Uint8Array, wal: Uint8Array | undefined): WalApplied {
  const out = (bytes: Uint8Array, frames: number, note?: string): WalApplied => {
    // Bytes 18 and 19 (file format write / read version) are 2 in WAL mode; 1 makes SQLite read the file alone.
    if (bytes.length >= 20 && (bytes[18] === 2 || bytes[19] === 2)) {
      if (bytes === main) bytes = main.slice();
      bytes[18] = 1;
      bytes[19] = 1;
    }
    return note ? { bytes, frames, note } : { bytes, frames };
  };
  if (!wal || wal.length === 0)
    return main.length >= 20 && (main[18] === 2 || main[19] === 2) ? out(main, 0, NO_WAL) : out(main, 0);
  const magic = wal.length >= 32 ? u32(wal, 0) : 0;
  if (magic !== 0x377f0682 && magic !== 0x377f0683) return out(main, 0, 'the -wal file has no WAL header; left out');
  const bigEndian = magic === 0x377f0683;
  const pageSize = u32(wal, 8) || 65536;
  const salt = [u32(wal, 16), u32(wal, 20)];
  let sum = checksum(wal, 0, 24, [0, 0], bigEndian);
  if (sum[0] !== u32(wal, 24) || sum[1] !== u32(wal, 28))
    return out(main, 0, 'the -wal header checksum fails; left out');
  const frameSize = 24 + pageSize;
  const pages = new Map<number, number>();
  let committed = new Map<number, number>();
  let dbPages = 0;
  let frames = 0;
  for (let at = 32; at + frameSize <= wal.length; at += frameSize) {
    if (u32(wal, at + 8) !== salt[0] || u32(wal, at + 12) !== salt[1]) break;
    sum = checksum(wal, at, at + 8, sum, bigEndian);
    sum = checksum(wal, at + 24, at + frameSize, sum, bigEndian);
    if (sum[0] !== u32(wal, at + 16) || sum[1] !== u32(wal, at + 20)) break;
    pages.set(u32(wal, at), at + 24);
    const size = u32(wal, at + 4);
    if (size > 0) {
      committed = new Map(pages);
      dbPages = size;
      frames = committed.size;
    }
  }
  if (dbPages === 0) return out(main, 0);
  const bytes = new Uint8Array(dbPages * pageSize);
  bytes.set(main.subarray(0, Math.min(main.length, bytes.length)));
  for (const [page, from] of committed) {
    if (page >= 1 && page <= dbPages) bytes.set(wal.subarray(from, from + pageSize), (page - 1) * pageSize);
  }
  return out(bytes, frames);
}

/** The part of sql.js the opener uses (its `Database` class). */
export type SqlJsLike = {
  Database: new (
    data?: Uint8Array,
  ) => {
    prepare(sql: string): {
      bind(values: (string | number | null)[]): boolean;
      step(): boolean;
      getAsObject(): Record<string, unknown>;
      free(): boolean;
    };
    close(): void;
  };
};

/** An opener over a loaded sql.js module. */
export function sqlJsOpener(SQL: SqlJsLike): SqliteOpener {
  return (bytes) => {
    const db = new SQL.Database(bytes);
    const each = (sql: string, params: (string | number | null)[], row: (r: Record<string, unknown>) => void) => {
      const stmt = db.prepare(sql);
      try {
        if (params.length > 0) stmt.bind(params);
        while (stmt.step()) row(stmt.getAsObject());
      } finally {
        stmt.free();
      }
    };
    return {
      each,
      rows: (sql, params = []) => {
        const out: Record<string, unknown>[] = [];
        each(sql, params, (r) => out.push(r));
        return out;
      },
      close: () => db.close(),
    };
  };
}
