// A folder as the browser hands it over, turned into the engine's FolderFile list (paths relative to the folder,
// '/'-separated): a directory handle from showDirectoryPicker, the files of an `<input webkitdirectory>` (their
// webkitRelativePath starts with the folder's name), or a dropped folder's entries (walked recursively). Only the
// picker's file handles can be read again later, so only a session opened from them is followed as it grows.

import type { FolderFile } from '../../protocol/index.ts';
import type { DirHandle, FileHandle } from '../../state/growing-file.ts';

/** `handles`: the directory picker's handles by path, files and folders ('' the folder itself): the app follows a
 *  session opened from them and finds its new sub-agent files. */
export type PickedFolder = { rootName: string; files: FolderFile[]; handles?: Map<string, FileHandle | DirHandle> };

/** Whether this browser has the directory picker (Chromium); elsewhere the webkitdirectory input is used. */
export function hasDirectoryPicker(): boolean {
  return typeof (window as unknown as { showDirectoryPicker?: unknown }).showDirectoryPicker === 'function';
}

async function walkHandle(
  dir: DirHandle,
  prefix: string,
  out: FolderFile[],
  handles: Map<string, FileHandle | DirHandle>,
): Promise<void> {
  handles.set(prefix, dir);
  for await (const h of dir.values()) {
    const path = prefix ? `${prefix}/${h.name}` : h.name;
    if (h.kind === 'directory') await walkHandle(h, path, out, handles);
    else {
      const file = await h.getFile();
      out.push({ path, size: file.size, file });
      handles.set(path, h);
    }
  }
}

/** Ask for a folder with the directory picker; null when the person cancels. */
export async function pickFolder(): Promise<PickedFolder | null> {
  const pick = (window as unknown as { showDirectoryPicker: (o: object) => Promise<DirHandle> }).showDirectoryPicker;
  let dir: DirHandle;
  try {
    dir = await pick({ mode: 'read' });
  } catch {
    return null; // AbortError: the picker was closed
  }
  const files: FolderFile[] = [];
  const handles = new Map<string, FileHandle | DirHandle>();
  await walkHandle(dir, '', files, handles);
  return { rootName: dir.name, files, handles };
}

/** The files of an `<input webkitdirectory>`: paths lose the folder's own name, which becomes the root name. */
export function filesFromInput(list: readonly File[]): PickedFolder {
  const files: FolderFile[] = [];
  let rootName = '';
  for (const f of list) {
    const rel = f.webkitRelativePath || f.name;
    const cut = rel.indexOf('/');
    if (cut > 0 && !rootName) rootName = rel.slice(0, cut);
    files.push({ path: cut > 0 ? rel.slice(cut + 1) : rel, size: f.size, file: f });
  }
  return { rootName: rootName || 'folder', files };
}

type Entry = {
  name: string;
  isFile: boolean;
  isDirectory: boolean;
  file?: (ok: (f: File) => void, fail: (e: unknown) => void) => void;
  createReader?: () => { readEntries(ok: (e: Entry[]) => void, fail: (e: unknown) => void): void };
};

async function walkEntry(entry: Entry, prefix: string, out: FolderFile[]): Promise<void> {
  const path = prefix ? `${prefix}/${entry.name}` : entry.name;
  if (entry.isFile && entry.file) {
    const read = entry.file.bind(entry);
    const file = await new Promise<File>((ok, fail) => read(ok, fail));
    out.push({ path, size: file.size, file });
    return;
  }
  if (!entry.isDirectory || !entry.createReader) return;
  const reader = entry.createReader();
  // readEntries hands out a batch at a time (100 in Chromium) until it returns none.
  for (;;) {
    const batch = await new Promise<Entry[]>((ok, fail) => reader.readEntries(ok, fail));
    if (batch.length === 0) break;
    for (const e of batch) await walkEntry(e, path, out);
  }
}

/** A dropped folder (the first directory among the dropped items), or null when no folder was dropped. */
export async function folderFromDrop(items: DataTransferItemList | undefined): Promise<PickedFolder | null> {
  if (!items) return null;
  const entries = [...items]
    .map((i) => (i.kind === 'file' ? (i.webkitGetAsEntry() as Entry | null) : null))
    .filter((e): e is Entry => e !== null);
  const dir = entries.find((e) => e.isDirectory);
  if (!dir) return null;
  const files: FolderFile[] = [];
  await walkEntry(dir, '', files);
  // Paths start with the folder's name: cut it, as the picker's paths do not carry it.
  return { rootName: dir.name, files: files.map((f) => ({ ...f, path: f.path.slice(dir.name.length + 1) })) };
}
