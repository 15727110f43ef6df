// What "minimize" can keep true, chosen from the current view (SPEC §7): with the compaction view open, the item
// its summary lost that is focused (then its other lost items, or an unreadable summary) and the re-fetches after
// it; the pairing issues of the selected request or message (else of the thread), the tier of the selected row's
// tool results, the cause of the selected request's cache breaks, a re-fetch at the selected row after the
// pipeline or the agent's compaction. Pure: specs in the minimizer's syntax (src/share/predicate.ts) with labels.
import type { CompactionRow, Refetch, Row, RunResult, ToolResultRow } from '../../protocol/index.ts';
import { PROBE_KINDS, parseProbeKey } from '../../protocol/index.ts';
import type { UrlView } from '../../state/url-state.ts';
import { RULE_WORDS } from '../common/rule-words.ts';

export type Candidate = {
  spec: string;
  label: string;
  kind: 'pairing' | 'tier' | 'break' | 'compaction' | 'refetch';
  /** Tied to what is selected (offered first). */
  selected: boolean;
};

type Seen = Pick<UrlView, 'thread' | 'message' | 'request'> & Partial<Pick<UrlView, 'compaction' | 'probe'>>;

/** The compaction view's findings: the focused lost item first, then the other lost items, an unreadable summary,
 *  and the re-fetches that followed it. */
function compactionCandidates(c: CompactionRow, probe: string | null, add: (c: Candidate) => void): void {
  if (c.request === null) return; // no request sent its summary: a predicate cannot name it
  const at = `${c.thread}/${c.request ?? 0}`;
  const who = c.source === 'agent' ? 'the agent’s compaction' : 'the pipeline’s summary';
  const focus = probe === null ? null : parseProbeKey(probe);
  const lost = (kind: (typeof PROBE_KINDS)[number], i: number, selected: boolean) => {
    const item = c.probes[kind].lost[i];
    add({
      spec: `compaction:${at}:lost:${kind}=${item.text}`,
      label: `compaction: ${who} at request ${c.request} still loses ${kind} “${item.text}”`,
      kind: 'compaction',
      selected,
    });
  };
  if (
    focus &&
    focus.side === 'summary' &&
    !focus.kept &&
    focus.index < (c.probes[focus.kind as 'errors']?.lost.length ?? 0)
  )
    lost(focus.kind as (typeof PROBE_KINDS)[number], focus.index, true);
  if (c.opaque)
    add({
      spec: `compaction:${at}:unreadable`,
      label: `compaction: ${who} at request ${c.request} has a summary that cannot be read`,
      kind: 'compaction',
      selected: true,
    });
  for (const kind of PROBE_KINDS) for (let i = 0; i < c.probes[kind].lost.length; i++) lost(kind, i, true);
}

/** Candidates listed at most (a broken log repeats one violation in every later request). */
const MAX = 12;

function stageWords(stage: string): string {
  return stage === 'input' ? 'in the recorded input' : `after stage ${stage}`;
}

/** What the run's reply does not carry, read from the engine for the view (`readFound`): the compaction whose view
 *  is open, whole, the re-fetches named by the selected row's or that compaction's tool ids, and the selected
 *  message's tool results in this run (the engine's notes of that message). */
export type Found = { open?: CompactionRow; refetches?: readonly Refetch[]; results?: readonly ToolResultRow[] };

/** The tool ids whose re-fetches a view can offer: the selected row's, and those fetched again after the open
 *  compaction. */
export function refetchIds(view: Seen, rows: readonly Row[] | undefined, open: CompactionRow | undefined): string[] {
  const ids = view.message !== null ? [...(rows?.[view.message]?.toolUseIds ?? [])] : [];
  if (open && open.id === view.compaction) for (const it of open.refetchesAfter.items) ids.push(it.toolUseId);
  return ids;
}

export function predicateCandidates(
  result: RunResult | undefined,
  view: Seen,
  rows: readonly Row[] | undefined,
  found: Found = {},
): Candidate[] {
  if (!result) return [];
  const out: Candidate[] = [];
  const seen = new Set<string>();
  const add = (c: Candidate) => {
    if (seen.has(c.spec) || out.length >= MAX) return;
    seen.add(c.spec);
    out.push(c);
  };
  const ids = view.message !== null ? new Set(rows?.[view.message]?.toolUseIds ?? []) : new Set<string>();
  const shown = found.open && found.open.id === view.compaction ? found.open : undefined;
  if (shown) compactionCandidates(shown, view.probe ?? null, add);
  for (const f of found.refetches ?? []) {
    if (f.kind !== 'after-pipeline' && f.kind !== 'after-agent-compaction') continue;
    const after = shown?.refetchesAfter.items.some((it) => it.toolUseId === f.repeatToolUseId);
    if (!after && !(f.thread === view.thread && (ids.has(f.repeatToolUseId) || ids.has(f.firstToolUseId)))) continue;
    add({
      spec: `refetch:${f.kind}#${f.repeatToolUseId}`,
      label: `re-fetch: ${f.tool} ${f.repeatToolUseId} fetched again ${f.kind === 'after-pipeline' ? `after the pipeline lost it (${f.lostBy ?? 'rewritten'})` : 'after the agent’s compaction'}`,
      kind: 'refetch',
      selected: true,
    });
  }
  const pairing = result.pairing.filter((v) => v.thread === view.thread);
  const atSelection = (v: (typeof pairing)[number]) =>
    (view.request !== null && v.request === view.request) ||
    (view.message !== null && (v.messageIndex === view.message || (v.toolUseId !== undefined && ids.has(v.toolUseId))));
  const pairingCandidate = (v: (typeof pairing)[number], selected: boolean): Candidate => ({
    spec: `pairing:${v.rule}@${v.stage}${v.toolUseId ? `#${v.toolUseId}` : ''}`,
    label: `pairing: ${RULE_WORDS[v.rule] ?? v.rule} ${stageWords(v.stage)}${v.toolUseId ? ` (${v.toolUseId})` : ''}`,
    kind: 'pairing',
    selected,
  });
  for (const v of pairing) if (atSelection(v)) add(pairingCandidate(v, true));
  if (view.message !== null) {
    for (const r of found.results ?? []) {
      if (r.thread !== view.thread || r.messageIndex !== view.message || r.tier === null) continue;
      add({
        spec: `tier:${r.toolUseId}=${r.tier}`,
        label: `tier: the ${r.tool} result ${r.toolUseId} still gets Tier ${r.tier}`,
        kind: 'tier',
        selected: true,
      });
    }
  }
  if (view.request !== null) {
    // The selected request's breaks (the run's break rows: at most one of each source a request).
    const at = (source: 'observed' | 'simulated') =>
      result.breaks.find((b) => b.source === source && b.thread === view.thread && b.request === view.request);
    const sim = at('simulated')?.cause.split('@')[0];
    const obs = at('observed')?.cause.split('@')[0];
    if (sim)
      add({
        spec: `break:simulated:${sim}`,
        label: `cache break: simulated, cause ${sim}`,
        kind: 'break',
        selected: true,
      });
    if (obs)
      add({
        spec: `break:observed:${obs}`,
        label: `cache break: observed, cause ${obs}`,
        kind: 'break',
        selected: true,
      });
  }
  for (const v of pairing) add(pairingCandidate(v, false));
  return out;
}
