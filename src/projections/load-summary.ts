// What the page shows of a loaded transcript before any run: its format and version, title, threads, counts, parse
// issues, skipped line kinds with why, the log's own defaults, the model assumed for it and the parent of a fork.
// Made here once from the transcript; the engine adds what only it knows (file name, size, time, share settings).

import { transcriptCounts } from '../analyses/counts.ts';
import { logDefaults } from '../analyses/log-defaults.ts';
import type { Report } from '../analyses/report.ts';
import type { LogDefaults } from '../analyses/settings-origin.ts';
import { skipReason } from '../formats/skip-reasons.ts';
import { sourceFormat } from '../model/source-format.ts';
import type { FormatId, ParseIssue, ThreadKind, Transcript } from '../model/transcript.ts';
import { sessionTitle } from '../sessions/title.ts';

export type ThreadInfo = {
  id: string;
  kind: ThreadKind;
  title?: string;
  messages: number;
  requests: number;
  parentToolUseId?: string;
};

export type TranscriptSummary = {
  /** The format the transcript was first read from (a bundle's source format). */
  format: FormatId;
  version?: string;
  title?: string;
  threads: ThreadInfo[];
  counts: Report['counts'];
  parseIssues: ParseIssue[];
  skipped: Record<string, number>;
  /** Why each skipped kind is not part of the conversation (skip-reasons.ts), where known. */
  skippedWhy: Record<string, string>;
  /** The provider and context window the log implies (SPEC §1.1), each saying where it came from. */
  defaults: LogDefaults;
  /** The model a log that names none is priced at, and why (Codex: its CLI version's default). */
  assumedModel?: { model: string; why: string };
  /** A fork read without its parent: the thread it was forked from. */
  forkOf?: string;
};

/** Why each skipped line kind was left out of the conversation, for the load status tooltip. */
function reasonsFor(skipped: Record<string, number>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(skipped)) {
    const why = skipReason(k);
    if (why) out[k] = why;
  }
  return out;
}

export function transcriptSummary(t: Transcript): TranscriptSummary {
  return {
    // A bundle (a share link, a share file) names the format its transcript was first read from.
    format: sourceFormat(t),
    version: t.meta.version,
    title: sessionTitle(t) ?? undefined,
    threads: t.threads.map((th) => ({
      id: th.id,
      kind: th.kind,
      title: th.title,
      messages: th.messages.length,
      requests: th.requests.length,
      parentToolUseId: th.parentToolUseId,
    })),
    counts: transcriptCounts(t),
    parseIssues: t.parseIssues,
    skipped: t.meta.skipped ?? {},
    skippedWhy: reasonsFor(t.meta.skipped ?? {}),
    ...(t.meta.assumedModel ? { assumedModel: t.meta.assumedModel } : {}),
    ...(t.threads[0]?.fork && t.threads[0].kind === 'main' ? { forkOf: t.threads[0].fork.from } : {}),
    defaults: logDefaults(t),
  };
}
