// Compaction findings a reproduction can keep (SPEC §7, issue 27): a probe item a compaction's summary lost
// (`compaction:<thread>/<request>:lost:<kind>[=<text>]`, the agent's or the pipeline's), a compaction whose summary
// cannot be read (`compaction:<thread>/<request>:unreadable`), and a re-fetch after the agent's compaction or after
// the pipeline had stubbed, cleared or summarised the result away (`refetch:after-agent-compaction[#<toolUseId>]`,
// `refetch:after-pipeline[#<toolUseId>]`, the 37.1 failure). `<request>` names the compaction in the input; the
// minimizer renumbers requests, so anchorCompaction pins it first by what survives a reduction — the source line
// of the agent's summary, and the source line of the lost item named by its text.
import { PROBE_KINDS, type ProbeKind } from '../analyses/probes.ts';
import type { Report } from '../analyses/report.ts';
import { PredicateError, type Witness } from './predicate-base.ts';
import { probeKey } from './view.ts';

type CompactionRow = NonNullable<Report['compactions']>[number];

export type CompactionPredicate = {
  kind: 'compaction';
  thread: string;
  request: number;
  finding: { lost: ProbeKind; text?: string } | 'unreadable';
  /** Set by anchorCompaction: the compaction (and lost item) found in the input, by what a reduction keeps. */
  anchor?: { source: 'agent' | 'pipeline'; line: number | null; itemLine?: number };
};

export type RefetchPredicate = {
  kind: 'refetch';
  after: 'agent-compaction' | 'pipeline';
  /** The re-fetching call's id, or the first call's. */
  toolUseId?: string;
};

const COMPACTION = /^(.+?)\/(\d+):(?:lost:([A-Za-z]+)(?:=([\s\S]*))?|(unreadable))$/;

export function parseCompaction(spec: string, rest: string): CompactionPredicate {
  const m = COMPACTION.exec(rest);
  if (!m)
    throw new PredicateError(
      `bad compaction predicate "${spec}" (compaction:<thread>/<request>:lost:<kind>[=<text>] or compaction:<thread>/<request>:unreadable)`,
    );
  const base = { kind: 'compaction' as const, thread: m[1], request: Number(m[2]) };
  if (m[5]) return { ...base, finding: 'unreadable' };
  if (!PROBE_KINDS.includes(m[3] as ProbeKind))
    throw new PredicateError(`unknown probe kind "${m[3]}" (one of ${PROBE_KINDS.join(', ')})`);
  const lost: { lost: ProbeKind; text?: string } = { lost: m[3] as ProbeKind };
  if (m[4] !== undefined && m[4] !== '') lost.text = m[4];
  return { ...base, finding: lost };
}

export function formatCompaction(p: CompactionPredicate): string {
  const at = `compaction:${p.thread}/${p.request}`;
  if (p.finding === 'unreadable') return `${at}:unreadable`;
  return `${at}:lost:${p.finding.lost}${p.finding.text !== undefined ? `=${p.finding.text}` : ''}`;
}

export function parseRefetch(spec: string, rest: string): RefetchPredicate {
  const m = /^after-(agent-compaction|pipeline)(?:#(.+))?$/.exec(rest);
  if (!m)
    throw new PredicateError(
      `bad refetch predicate "${spec}" (refetch:after-agent-compaction[#<toolUseId>] or refetch:after-pipeline[#<toolUseId>])`,
    );
  const p: RefetchPredicate = { kind: 'refetch', after: m[1] as RefetchPredicate['after'] };
  if (m[2]) p.toolUseId = m[2];
  return p;
}

/** The compactions the predicate names: by its anchor once anchored, else by thread and request. */
function named(p: CompactionPredicate, rows: readonly CompactionRow[]): CompactionRow[] {
  const a = p.anchor;
  return rows.filter(
    (c) =>
      c.thread === p.thread &&
      (a ? c.source === a.source && (a.line === null || c.line === a.line) : c.request === p.request),
  );
}

/** Where in a compaction the finding holds: the lost item's index in its list, or -1 for an unreadable summary;
 *  null when it does not hold (or no request sent the summary). */
function findingIn(p: CompactionPredicate, c: CompactionRow): number | null {
  // A compaction whose summary no request sent has no marker on the timeline: the finding is not shown.
  if (c.request === null) return null;
  if (p.finding === 'unreadable') return c.opaque ? -1 : null;
  const { lost, text } = p.finding;
  const line = p.anchor?.itemLine;
  const i = c.probes[lost].lost.findIndex(
    (it) => (text === undefined || it.text === text) && (line === undefined || it.line === line),
  );
  return i < 0 ? null : i;
}

/** The predicate pinned to the compaction (and lost item) it finds in `r`, the report of the input; unchanged
 *  when it finds none (the minimizer then says it does not hold). */
export function anchorCompaction(p: CompactionPredicate, r: Report): CompactionPredicate {
  for (const c of named({ ...p, anchor: undefined }, r.compactions ?? [])) {
    const i = findingIn(p, c);
    if (i === null) continue;
    const anchor: NonNullable<CompactionPredicate['anchor']> = {
      source: c.source,
      line: c.source === 'agent' ? c.line : null,
    };
    if (p.finding !== 'unreadable' && p.finding.text !== undefined) {
      const item = c.probes[p.finding.lost].lost[i];
      if (item.line > 0) anchor.itemLine = item.line;
    }
    return { ...p, anchor };
  }
  return p;
}

export function compactionWitness(p: CompactionPredicate, r: Report): Witness | null {
  for (const c of named(p, r.compactions ?? [])) {
    const i = findingIn(p, c);
    if (i === null) continue;
    const who = c.source === 'agent' ? 'the agent’s compaction' : 'the pipeline’s summary';
    if (p.finding === 'unreadable' || i < 0)
      return {
        thread: c.thread,
        request: c.request,
        message: c.messageIndex,
        detail: `${who} at request ${c.request}: its summary cannot be read`,
        compaction: c.id,
      };
    const kind = p.finding.lost;
    const item = c.probes[kind].lost[i];
    return {
      thread: c.thread,
      request: c.request,
      message: item.messageIndex,
      detail: `${who} at request ${c.request} lost ${kind} "${item.text}" (message ${item.messageIndex})`,
      compaction: c.id,
      probe: probeKey({ side: 'summary', kind, kept: false, index: i }),
    };
  }
  return null;
}

export function refetchWitness(p: RefetchPredicate, r: Report): Witness | null {
  const kind = `after-${p.after}`;
  const f = r.refetches.find(
    (x) =>
      x.kind === kind &&
      (p.toolUseId === undefined || x.repeatToolUseId === p.toolUseId || x.firstToolUseId === p.toolUseId),
  );
  if (!f) return null;
  const detail = `${f.tool} ${f.args} fetched again (${f.repeatToolUseId}) ${
    p.after === 'pipeline'
      ? `after the pipeline lost its result (${f.lostBy ?? 'rewritten'})`
      : 'after the agent compacted'
  }`;
  // After the agent's compaction: the compaction view that lists it among the re-fetches that followed.
  const c =
    p.after === 'agent-compaction'
      ? r.compactions?.find(
          (x) => x.thread === f.thread && x.refetchesAfter.items.some((it) => it.toolUseId === f.repeatToolUseId),
        )
      : undefined;
  if (c) return { thread: f.thread, request: c.request, message: f.repeatMessageIndex, detail, compaction: c.id };
  return { thread: f.thread, request: null, message: f.repeatMessageIndex, detail };
}

export function compactionFindings(r: Report): string {
  const rows = r.compactions ?? [];
  if (rows.length === 0) return 'no compactions';
  return `compactions found: ${rows
    .slice(0, 12)
    .map((c) => {
      const lost = PROBE_KINDS.filter((k) => c.probes[k].lost.length > 0).map(
        (k) => `${k} ×${c.probes[k].lost.length}`,
      );
      return `${c.thread}/${c.request ?? '–'} (${c.source}${c.opaque ? ', unreadable' : ''}${lost.length > 0 ? `, lost ${lost.join(' ')}` : ''})`;
    })
    .join(', ')}`;
}

export function refetchFindings(r: Report): string {
  const kinds = new Map<string, number>();
  for (const f of r.refetches) kinds.set(f.kind, (kinds.get(f.kind) ?? 0) + 1);
  return kinds.size === 0
    ? 'no re-fetches'
    : `re-fetches found: ${[...kinds].map(([k, n]) => `${k} ×${n}`).join(', ')}`;
}
