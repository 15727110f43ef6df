// The SQLite engine in the browser's engine worker: sql.js's browser build, imported when the first database is
// opened (no cost to a start that opens none), its .wasm served from this origin as a build asset (never a CDN).
// Compiling it needs WebAssembly in the worker's Content-Security-Policy ('wasm-unsafe-eval', given to the engine
// worker's script alone: src/lib/csp.ts).
import wasmUrl from 'sql.js/dist/sql-wasm-browser.wasm?url';
import { type SqliteOpener, sqlJsOpener } from '../src/formats/sqlite.ts';

export async function browserSqlite(): Promise<SqliteOpener> {
  const { default: initSqlJs } = await import('sql.js');
  return sqlJsOpener(await initSqlJs({ locateFile: () => wasmUrl }));
}
