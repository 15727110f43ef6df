// What opening files does (drop, Open…): a transcript (with its companion files) loads as one; an SQLite database
// (opencode.db, with its -wal if picked with it) opens its sessions in the sessions table, or its one session. The
// first 16 bytes tell a database (SQLite's header string); nothing else of a file is read on the page.
import { isSqlite } from '../../protocol/index.ts';
import { useFolder } from '../../state/folder.ts';
import { useStore } from '../../state/store.ts';
import { orderFiles } from './order-files.ts';

export async function openFiles(files: readonly File[]): Promise<void> {
  const ordered = orderFiles(files);
  const [main] = ordered;
  if (!main) return;
  const head = new Uint8Array(await main.slice(0, 16).arrayBuffer());
  if (isSqlite(head)) return useFolder.getState().folderActions.openDatabase(ordered);
  return useStore.getState().transcriptActions.loadFiles(ordered);
}
