// The SQLite engine in the browser's engine worker: sql.js's browser build, its .wasm served from this origin as a
// build asset (never a CDN). Compiling it needs the worker's Content-Security-Policy to allow WebAssembly
// ('wasm-unsafe-eval', src/lib/csp.ts). Loaded when the first database is opened.
import initSqlJs from 'sql.js';
import wasmUrl from 'sql.js/dist/sql-wasm-browser.wasm?url';
import { type SqliteOpener, sqlJsOpener } from '../src/formats/sqlite.ts';

export async function browserSqlite(): Promise<SqliteOpener> {
  return sqlJsOpener(await initSqlJs({ locateFile: () => wasmUrl }));
}
