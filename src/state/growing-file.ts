// One followed file as it grows (follow.ts): the bytes read so far (a Blob of the parts, nothing copied), where its
// complete lines end, and a poll that reads only what was added — a byte range of a served file, or a file handle
// from the folder picker read again — and says whether the file grew by whole lines, was replaced (or cut short),
// or has nothing new. A last line without its end waits for it.
import { servedPageReason } from '../protocol/index.ts';

/** Where a followed file's bytes come from. */
export type FileTail = {
  /** The bytes from `from` on; `whole`: the source sent the whole file instead (a server that ignores ranges). */
  tail(from: number): Promise<{ whole: boolean; bytes: Uint8Array<ArrayBuffer> }>;
  whole(): Promise<Uint8Array<ArrayBuffer>>;
};

/** A same-origin URL that answers byte ranges (`tierscope serve`, vite). A failed request throws. */
export function urlTail(url: string): FileTail {
  const get = async (range?: string) => {
    const res = await fetch(url, { cache: 'no-store', ...(range ? { headers: { Range: range } } : {}) });
    if (!res.ok && res.status !== 416) throw new Error(`${res.status} ${res.statusText}`);
    const page = servedPageReason(res, url);
    if (page) throw new Error(page);
    return { status: res.status, bytes: new Uint8Array(await res.arrayBuffer()) };
  };
  return {
    async tail(from) {
      const r = await get(`bytes=${from}-`);
      // 416: the file is now shorter than `from`.
      return r.status === 416 ? { whole: false, bytes: new Uint8Array() } : { whole: r.status === 200, bytes: r.bytes };
    },
    async whole() {
      return (await get()).bytes;
    },
  };
}

/** What the directory picker hands out (FileSystemFileHandle, FileSystemDirectoryHandle), as far as used here. */
export type FileHandle = { name: string; kind: 'file'; getFile(): Promise<File> };
export type DirHandle = {
  name: string;
  kind: 'directory';
  values(): AsyncIterable<DirHandle | FileHandle>;
};

/** A file handle from the directory picker: each read asks it for the file as it is now. */
export function handleTail(handle: FileHandle): FileTail {
  return {
    async tail(from) {
      const f = await handle.getFile();
      return {
        whole: false,
        bytes: from < f.size ? new Uint8Array(await f.slice(from).arrayBuffer()) : new Uint8Array(),
      };
    },
    async whole() {
      return new Uint8Array(await (await handle.getFile()).arrayBuffer());
    },
  };
}

/** Where the complete lines of `bytes` end (after the last line feed). */
function completeEnd(bytes: Uint8Array): number {
  return bytes.lastIndexOf(10) + 1;
}

export class GrowingFile {
  private held: Blob;
  private last: number | undefined;
  /** Where the complete lines held end, and where they ended when they were last taken. */
  private complete: number;
  private taken: number;
  private replaced = false;

  constructor(
    readonly name: string,
    private readonly source: FileTail,
    first: Uint8Array<ArrayBuffer>,
  ) {
    this.held = new Blob([first]);
    this.last = first[first.length - 1];
    this.complete = completeEnd(first);
    this.taken = this.complete;
  }

  /** Read what was added. True when there are complete lines not taken yet (or the file was replaced). */
  async poll(): Promise<boolean> {
    // From the last byte held, not after it: the range is never empty, and that byte tells whether the file is
    // still the one held.
    const t = await this.source.tail(Math.max(0, this.held.size - 1));
    if (!t.whole && this.held.size > 0 && t.bytes.length > 0 && t.bytes[0] === this.last) {
      const added = t.bytes.subarray(1);
      if (added.length > 0) {
        const nl = added.lastIndexOf(10);
        if (nl >= 0) this.complete = this.held.size + nl + 1;
        this.held = new Blob([this.held, added]);
        this.last = added[added.length - 1];
      }
    } else {
      // Replaced or cut short (or empty until now): start over from what it holds now.
      const whole = t.whole ? t.bytes : await this.source.whole();
      this.held = new Blob([whole]);
      this.last = whole[whole.length - 1];
      this.complete = completeEnd(whole);
      this.replaced = true;
    }
    return this.complete > 0 && (this.replaced || this.complete !== this.taken);
  }

  /** What a follow opens with: the complete lines, or the whole file while it has none. */
  opening(): File {
    return new File([this.complete > 0 ? this.held.slice(0, this.complete) : this.held], this.name);
  }

  /** The complete lines as a File, and whether they only grew since last taken (else the file was replaced). */
  take(): { file: File; appended: boolean } {
    const appended = !this.replaced;
    this.replaced = false;
    this.taken = this.complete;
    return { file: new File([this.held.slice(0, this.complete)], this.name), appended };
  }

  /** Bytes held in complete lines, and waiting (a last line without its end yet). */
  get bytes(): number {
    return this.complete;
  }
  get waiting(): number {
    return this.held.size - this.complete;
  }
}
