// The limits of a load (SPEC §1.3) as data: the engine applies them (index.ts), the page shows and edits them
// (state/load-limits.ts) from this one definition.
import { formatBytes } from '../lib/bytes.ts';
import { DEFAULT_MAX_LINE_BYTES } from '../lib/lines.ts';

/** Limits of a load (SPEC §1.3); each is reported with a clear message when hit. */
export type LoadLimits = {
  /** A (main or companion) file larger than this is refused before it is read. */
  maxFileBytes: number;
  /** A line longer than this is skipped with an error issue; the rest loads. */
  maxLineBytes: number;
  /** Threads beyond this many (side calls, sidechains: main comes first) are dropped with one error issue. */
  maxThreads: number;
  /** Issues beyond this many are counted, not kept: one issue says how many more there were. */
  maxIssues: number;
  /**
   * A file larger than this is never parsed as one JSON document (Inspect, SWE-agent, bundles): the document
   * would be one string, and a JS string holds at most about 512 M UTF-16 units.
   */
  maxDocumentBytes: number;
};
export const DEFAULT_LIMITS: LoadLimits = {
  maxFileBytes: 2 * 1024 ** 3,
  maxLineBytes: DEFAULT_MAX_LINE_BYTES,
  maxThreads: 10_000,
  maxIssues: 10_000,
  maxDocumentBytes: 500 * 1024 ** 2,
};

/**
 * The app's file-size limit (issue 19, item 3): what one browser tab holds, measured with
 * bench/big-file-chromium.ts in headless Chromium on a generated Claude Code log of 364 MB: structure in 17 s,
 * exact counts and the first run in 63 s, 2.2 GB peak RSS across the whole browser (95 MB: 1.3 GB; on a busier
 * machine a 351 MB log took 51 s and 181 s at 2.0 GB). Past it the worker's heap, which V8 caps at 4 GB and whose exhaustion takes the whole tab
 * down, is the limit. The CLI keeps DEFAULT_LIMITS.maxFileBytes: Node has no tab to lose.
 */
export const APP_MAX_FILE_BYTES = 384 * 1024 ** 2;

/** The one wording of the file-size limit wherever an input hits it (page, worker, parser, CLI), after the file's
 *  name: "is 3 MB, over the 1 MB file-size limit"; "is over …" when the size is not known (a stream);
 *  "is gzip-compressed and decompresses to more than …" when the limit is hit while undoing gzip. */
export function overFileLimit(maxBytes: number, size: number | null, gzip = false): string {
  const limit = `${formatBytes(maxBytes)} file-size limit`;
  if (gzip) return `is gzip-compressed and decompresses to more than the ${limit}`;
  return size === null ? `is over the ${limit}` : `is ${formatBytes(size)}, over the ${limit}`;
}
