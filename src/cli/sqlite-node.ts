// The SQLite engine for the CLI (and the Node tests): sql.js, WebAssembly with no native addon, loaded when a
// database is first opened (its .wasm read from its own package folder). One engine per process: the caller keeps
// the opener.
import { type SqliteOpener, sqlJsOpener } from '../formats/sqlite.ts';

export async function nodeSqlite(): Promise<SqliteOpener> {
  const mod = await import('sql.js');
  const init = (mod as unknown as { default?: typeof mod.default }).default ?? (mod as unknown as typeof mod.default);
  return sqlJsOpener(await init());
}
