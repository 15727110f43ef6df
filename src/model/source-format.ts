// The format a transcript was first read from. A bundle (a share link, a `.tierscope.json` export) keeps its
// source's format in `meta.originalFormat`: a shared Claude Code 2.0.57 log still says "claude-code 2.0.57".
import type { FormatId, Transcript } from './transcript.ts';

export function sourceFormat(t: Pick<Transcript, 'format' | 'meta'>): FormatId {
  return t.format === 'tierscope' ? (t.meta.originalFormat ?? 'tierscope') : t.format;
}
