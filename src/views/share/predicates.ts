// What "minimize" can keep true, chosen from the current view (SPEC §7): the pairing issues of the selected
// request or message (else of the thread), the tier of the selected row's tool results, the cause of the
// selected request's cache breaks. Pure: specs in the minimizer's syntax (src/share/predicate.ts) with labels.
import type { Row, RunResult } from '../../../worker/api.ts';
import { PAIRING_RULES } from '../../share/pairing-rules.ts';
import type { UrlView } from '../../state/url-state.ts';

export type Candidate = {
  spec: string;
  label: string;
  kind: 'pairing' | 'tier' | 'break';
  /** Tied to what is selected (offered first). */
  selected: boolean;
};

/** Candidates listed at most (a broken log repeats one violation in every later request). */
const MAX = 12;

const RULE_WORDS: Record<string, string> = {
  'missing-result': 'tool call without its result',
  'orphan-result': 'result without its tool call',
  'results-not-first': 'results not first in the message',
  'summary-between-pair': 'summary between a call and its result',
  'split-batch': 'parallel batch split',
  'duplicate-id': 'duplicate tool id',
};

function stageWords(stage: string): string {
  return stage === 'input' ? 'in the recorded input' : `after stage ${stage}`;
}

export function predicateCandidates(
  result: RunResult | undefined,
  view: UrlView,
  rows: readonly Row[] | undefined,
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
  const pairing = result.pairing.filter((v) => v.thread === view.thread && PAIRING_RULES.includes(v.rule));
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
    for (const r of result.toolResults) {
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
    const p = result.timeline.find((x) => x.thread === view.thread && x.index === view.request);
    const sim = p?.cacheBreak?.cause.split('@')[0];
    const obs = p?.observedBreak?.cause.split('@')[0];
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
