// Load limits for this tab (SPEC §1.3: files over the configured limit, default 2 GB; lines over 256 MB;
// and the thread count), set in the config panel's Limits tab and handed to the engine with every load.
// The file-size limit is also checked here before a picked, dropped or pasted file is handed to the engine (which
// checks every input path again, ?src= included, and reads files slice by slice: the page never reads them).
import { create } from 'zustand';
import { APP_MAX_FILE_BYTES, DEFAULT_LIMITS, overFileLimit } from '../protocol/index.ts';

export type LoadLimitValues = { maxFileBytes: number; maxLineBytes: number; maxThreads: number };

/** The engine's defaults (src/formats/limits.ts); the file limit is what one tab was measured to hold. */
export const DEFAULT_LOAD_LIMITS: LoadLimitValues = {
  maxFileBytes: APP_MAX_FILE_BYTES,
  maxLineBytes: DEFAULT_LIMITS.maxLineBytes,
  maxThreads: DEFAULT_LIMITS.maxThreads,
};

export const useLoadLimits = create<LoadLimitValues>()(() => ({ ...DEFAULT_LOAD_LIMITS }));

/** Why the main file cannot be loaded under the current limits, before reading it (null: go ahead). */
export function fileTooBig(name: string, size: number): string | null {
  const max = useLoadLimits.getState().maxFileBytes;
  if (size <= max) return null;
  return `${name.replace(/[\r\n\u2028\u2029]+/g, ' ')} ${overFileLimit(max, size)}.`;
}
