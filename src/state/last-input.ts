// The last input the user loaded, as a way to load it again (the Retry after the engine stopped). Files are
// kept as File references (the browser's handle, not a copy), pasted text as its string, URLs as the URL;
// all of it in this tab's memory only.

let reload: (() => Promise<unknown>) | null = null;
let size: number | null = null;

/** Remember how to load the current input again, and its size in bytes when known (a URL's is not). */
export function rememberInput(again: () => Promise<unknown>, bytes: number | null = null): void {
  reload = again;
  size = bytes;
}

/** The size of the last input in bytes, when known. */
export function lastInputBytes(): number | null {
  return size;
}

/** How to load the last input again (null when nothing was loaded). */
export function lastInput(): (() => Promise<unknown>) | null {
  return reload;
}
