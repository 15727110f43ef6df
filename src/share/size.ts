// Link size policy (SPEC §7): up to 32 KB a link pastes anywhere; over 32 KB the dialog warns (chat tools
// and some browsers truncate); over 2 MB (Chromium's URL limit) it offers a `.tierscope.json` download.
import { formatBytes } from '../lib/bytes.ts';

export const LINK_WARN_BYTES = 32 * 1024;
export const LINK_MAX_BYTES = 2 * 1024 * 1024;

type LinkSizeClass = 'ok' | 'warn' | 'download';

export type LinkSize = { bytes: number; class: LinkSizeClass; message: string };

/** Bytes of a link as sent (UTF-8; a share link is ASCII, so this is its length). */
export function linkBytes(link: string): number {
  return new TextEncoder().encode(link).length;
}

/** Classify a link (or a byte count) against the 32 KB / 2 MB thresholds, with a message for the user. */
export function classifyLink(link: string | number): LinkSize {
  const bytes = typeof link === 'number' ? link : linkBytes(link);
  const size = formatBytes(bytes);
  if (bytes > LINK_MAX_BYTES)
    return {
      bytes,
      class: 'download',
      message: `the link is ${size}, over the 2 MB browsers accept: download a .tierscope.json instead (it opens by drop), or minimize first`,
    };
  if (bytes > LINK_WARN_BYTES)
    return {
      bytes,
      class: 'warn',
      message: `the link is ${size}, over 32 KB: some chat tools and browsers cut long links; consider minimizing`,
    };
  return { bytes, class: 'ok', message: `the link is ${size}` };
}
